"""The site address in what leaves the site: protocols' QR codes and text, personal links.

``make run PORT=…`` sets ``SITE_URL`` from its host and port; with ``SITE_URL`` unset the
address is the one the request reached, and a print job keeps the address it was asked at.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from django.urls import reverse

from scoring.core.site import FALLBACK, serving, site_url
from scoring.models import PrintJob, Protocol
from scoring.signoff.content import party_players
from scoring.signoff.pins import set_signing_pin
from scoring.signoff.printing import request_print_job, run_print_job
from tests.protocols.conftest import pdf_text

ROOT = Path(__file__).resolve().parents[2]
OTHER_PORT = "127.0.0.1:8123"


def _sign_on_the_web(client, party, referee, organizer, **host) -> bytes:
    """Every player signs with his PIN on the referee's device, the referee countersigns."""
    for _seat, player in party_players(party):
        set_signing_pin(player.pk, "2468", actor=organizer)
    client.force_login(referee)
    url = reverse("scoring:protocol_sign", args=[party.pk])
    for _seat, player in party_players(party):
        assert client.post(url, {"player": player.pk, "pin": "2468"}, **host).status_code == 302
    client.post(reverse("scoring:protocol_countersign", args=[party.pk]), {"confirmed": "1"},
                **host)
    assert party.protocols.get().status == Protocol.Status.SIGNED
    download = client.get(reverse("scoring:protocol_download", args=[party.pk]), **host)
    return b"".join(download.streaming_content if download.streaming else [download.content])


def test_unset_site_url_prints_the_address_the_request_reached(
        client, settings, finished_party, referee_user, organizer, tmp_path):
    """Signed on a site served at another port: the PDF's verification address has that port."""
    settings.SITE_URL = ""
    pdf = _sign_on_the_web(client, finished_party, referee_user, organizer,
                           HTTP_HOST=OTHER_PORT)
    public_id = finished_party.protocols.get().public_id
    text = pdf_text(pdf, tmp_path, layout=False).replace("\n", "")
    assert f"http://{OTHER_PORT}/v/{public_id}/" in text
    assert "8000" not in text
    assert finished_party.protocols.get().data["verify_url"] == (
        f"http://{OTHER_PORT}/v/{public_id}/")


def test_site_url_set_by_make_run_wins_over_the_request(
        client, settings, finished_party, referee_user, organizer, tmp_path):
    """``SITE_URL`` (what ``make run PORT=8123`` sets) is printed whatever host was asked."""
    settings.SITE_URL = f"http://{OTHER_PORT}"
    pdf = _sign_on_the_web(client, finished_party, referee_user, organizer)
    text = pdf_text(pdf, tmp_path, layout=False).replace("\n", "")
    assert f"http://{OTHER_PORT}/v/" in text and "testserver" not in text


def test_personal_links_carry_the_request_address(client, settings, finished_party, organizer):
    """The organizer's page of personal links (and their QR codes) under another port."""
    settings.SITE_URL = ""
    tournament = finished_party.round.tournament
    client.force_login(organizer)
    page = client.get(reverse("tournaments:personal_links", args=[tournament.slug]),
                      HTTP_HOST=OTHER_PORT).content.decode()
    player = party_players(finished_party)[0][1]
    player.refresh_from_db()
    assert f"http://{OTHER_PORT}/p/{player.access_token}/" in page


def test_a_print_job_renders_at_the_address_it_was_asked_at(
        settings, finished_party, organizer, monkeypatch):
    """The worker has no request: the job keeps the address and renders within it."""
    settings.SITE_URL = ""
    with serving(f"http://{OTHER_PORT}"):
        job = request_print_job(finished_party.round_id, PrintJob.Kind.BLANK, actor=organizer)
    assert job.site_url == f"http://{OTHER_PORT}"
    assert site_url() == FALLBACK  # outside any request
    seen = []
    import scoring.signoff.printing as printing

    real = printing.render_round
    monkeypatch.setattr(printing, "render_round",
                        lambda *args, **kw: seen.append(site_url()) or real(*args, **kw))
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.QUEUED)
    assert run_print_job(job.pk).status == PrintJob.Status.DONE
    assert seen == [f"http://{OTHER_PORT}"]


def test_make_run_sets_site_url_from_its_port():
    """``make run PORT=8123`` serves, seeds and prints the banner at port 8123."""
    plan = subprocess.run(["make", "-n", "run", "PORT=8123"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout
    seed = next(line for line in plan.splitlines() if "seed_demo" in line)
    serve = next(line for line in plan.splitlines() if "uvicorn" in line)
    assert "SITE_URL=http://127.0.0.1:8123" in seed and "--fresh" in seed
    assert "SITE_URL=http://127.0.0.1:8123" in serve
    assert "--host 127.0.0.1 --port 8123" in serve
