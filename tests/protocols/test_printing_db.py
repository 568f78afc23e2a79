"""Printing a round: one PDF per round through Celery, progress page, reuse of the same input."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest
from django.urls import reverse

from scoring.models import PrintJob
from scoring.protocols import verify_pdf
from scoring.signoff.content import party_players
from scoring.signoff.identity import certificate_path
from scoring.signoff.printing import request_print_job
from scoring.signoff.services import countersign, sign_as_player
from tests.protocols.conftest import pdf_text, play_out


def pdfinfo_pages(pdf: bytes, tmp_path: Path) -> int:
    """The page count as poppler's pdfinfo reports it."""
    source = tmp_path / f"info-{abs(hash(pdf))}.pdf"
    source.write_bytes(pdf)
    out = subprocess.run([shutil.which("pdfinfo") or "pdfinfo", str(source)], check=True,
                         capture_output=True, text=True).stdout
    return int(next(line.split()[-1] for line in out.splitlines() if line.startswith("Pages:")))


def make_round(make_party, tournament):
    """Four parties of one round at tables 1-4."""
    pairs = list(tournament.pairs.order_by("id"))
    return [make_party(pair_a=pairs[2 * i], pair_b=pairs[2 * i + 1], table_number=i + 1,
                       round_number=1) for i in range(4)]


def sign_party(party, referee, make_user):
    for seat, player in party_players(party):
        player.user = player.user or make_user(f"u-{seat}-{player.pk}")
        player.save()
        sign_as_player(party.pk, player_id=player.pk, actor=player.user)
    return countersign(party.pk, actor=referee)


@pytest.mark.django_db
def test_blank_print_has_one_page_per_table_and_is_reused(
    protocol_env, make_party, tournament, referee_user, tmp_path,
    django_capture_on_commit_callbacks,
):
    parties = make_round(make_party, tournament)
    with django_capture_on_commit_callbacks(execute=True):
        job = request_print_job(parties[0].round_id, "blank", actor=referee_user)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and job.percent == 100 and job.total == 4
    pdf = job.file.read()
    assert pdfinfo_pages(pdf, tmp_path) == 4
    text = pdf_text(pdf, tmp_path)
    assert "Протокол партии (бумажный)" in text and "Ёлкин Щукин" in text
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        again = request_print_job(parties[0].round_id, "blank", actor=referee_user)
    assert again.pk == job.pk and not callbacks  # same input: reused, nothing queued


@pytest.mark.django_db
def test_signed_print_is_one_fresh_signed_pdf_of_the_signed_tables(
    protocol_env, make_party, tournament, referee_user, make_user, tmp_path, client,
    django_capture_on_commit_callbacks,
):
    parties = make_round(make_party, tournament)
    from referee.services import start_party

    for party in parties[:2]:
        start_party(party.pk, actor=referee_user)
        play_out(party, referee_user)
        sign_party(party, referee_user, make_user)
    with django_capture_on_commit_callbacks(execute=True):
        job = request_print_job(parties[0].round_id, "signed", actor=referee_user)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and job.skipped == 2
    pdf = job.file.read()
    assert pdfinfo_pages(pdf, tmp_path) == 2
    result = verify_pdf(pdf, certificate_path())
    assert result.ok and result.signature_count == 1
    client.force_login(referee_user)
    page = client.post(reverse("scoring:verify"), {"pdf": _upload(pdf)}).content.decode()
    assert "Authentic round print" in page


def _upload(pdf: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("round.pdf", pdf, "application/pdf")


@pytest.mark.django_db
def test_nothing_signed_yet_is_refused(protocol_env, make_party, tournament, referee_user):
    from scoring.core.errors import ServiceError

    parties = make_round(make_party, tournament)
    with pytest.raises(ServiceError):
        request_print_job(parties[0].round_id, "signed", actor=referee_user)


@pytest.mark.django_db
def test_print_pages_poll_with_htmx(protocol_env, make_party, tournament, referee_user, client,
                                    django_capture_on_commit_callbacks):
    parties = make_round(make_party, tournament)
    client.force_login(referee_user)
    url = reverse("scoring:round_print", args=[parties[0].round_id])
    assert client.get(url).status_code == 200
    response = client.post(url, {"kind": "blank"})
    job = PrintJob.objects.get()
    assert response["Location"] == reverse("scoring:print_job", args=[job.pk])
    page = client.get(response["Location"]).content.decode()
    assert 'hx-trigger="every 1s"' in page and "<progress" in page  # queued: it polls
    with django_capture_on_commit_callbacks(execute=True):
        from scoring.tasks import render_print_job

        render_print_job.delay(job.pk)
    partial = client.get(response["Location"], HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in partial and "hx-trigger" not in partial  # done: polling stops
    assert reverse("scoring:print_job_download", args=[job.pk]) in partial
    download = client.get(reverse("scoring:print_job_download", args=[job.pk]))
    assert b"".join(download.streaming_content)[:5] == b"%PDF-"


@pytest.mark.django_db
def test_players_cannot_print(protocol_env, make_party, tournament, make_user, client):
    parties = make_round(make_party, tournament)
    client.force_login(make_user("just-a-player"))
    url = reverse("scoring:round_print", args=[parties[0].round_id])
    assert client.post(url, {"kind": "blank"}).status_code == 403
    assert not PrintJob.objects.exists()


@pytest.mark.django_db
def test_expired_prints_are_purged(protocol_env, make_party, tournament, referee_user,
                                   django_capture_on_commit_callbacks):
    from django.utils import timezone

    from scoring.tasks import purge_print_jobs

    parties = make_round(make_party, tournament)
    with django_capture_on_commit_callbacks(execute=True):
        job = request_print_job(parties[0].round_id, "blank", actor=referee_user)
    job.refresh_from_db()
    path = Path(job.file.path)
    PrintJob.objects.filter(pk=job.pk).update(expires_at=timezone.now())
    assert purge_print_jobs() == 1
    assert not path.exists() and not PrintJob.objects.exists()


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_round_print_through_a_real_worker(make_party, tournament, referee_user, real_worker,
                                           tmp_path):
    """The worker process shares the project's MEDIA_ROOT with this process (both default)."""
    parties = make_round(make_party, tournament)
    job = request_print_job(parties[0].round_id, "blank", actor=referee_user)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.finished:
            break
        time.sleep(0.2)
    assert job.status == PrintJob.Status.DONE, job.error
    try:
        assert pdfinfo_pages(job.file.read(), tmp_path) == len(parties)
    finally:
        job.file.delete(save=False)


@pytest.mark.django_db
def test_a_job_lost_with_its_worker_is_not_reused(protocol_env, make_party, tournament,
                                                  referee_user):
    from datetime import timedelta

    from django.utils import timezone

    parties = make_round(make_party, tournament)
    lost = request_print_job(parties[0].round_id, "blank", actor=referee_user)  # never runs
    assert request_print_job(parties[0].round_id, "blank", actor=referee_user).pk == lost.pk
    PrintJob.objects.filter(pk=lost.pk).update(created_at=timezone.now() - timedelta(hours=1))
    assert request_print_job(parties[0].round_id, "blank", actor=referee_user).pk != lost.pk
