"""The protocol API: a party's protocol and versions, sign-off actions, round print jobs."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import PrintJob, Protocol
from scoring.signoff.content import party_players

pytestmark = pytest.mark.django_db


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_sign_off_through_the_api(finished_party, player_users, referee_user):
    """(rules.md S11) Sign off through the API."""
    url = f"/api/v1/party-protocols/{finished_party.pk}/"
    state = api().get(url).json()
    assert state["current"]["status"] == "awaiting" and not state["locked"]
    assert state["pdf_url"].endswith(f"/api/v1/party-protocols/{finished_party.pk}/pdf/")
    players = [player for _seat, player in party_players(finished_party)]
    other = api(player_users[0]).post(f"{url}sign/", {"player": players[1].pk})
    assert other.status_code == 403
    for user, player in zip(player_users, players, strict=True):
        response = api(user).post(f"{url}sign/", {"player": player.pk},
                                  HTTP_IDEMPOTENCY_KEY=f"sign-{player.pk}")
        assert response.status_code == 201, response.content
        assert response.json()["player_name"] == player.name
    replay = api(player_users[0]).post(f"{url}sign/", {"player": players[0].pk},
                                       HTTP_IDEMPOTENCY_KEY=f"sign-{players[0].pk}")
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    twice = api(player_users[0]).post(f"{url}sign/", {"player": players[0].pk})
    assert twice.status_code == 400 and "player" in twice.json()
    stale = api(referee_user).post(f"{url}countersign/", {"version": 1})
    assert stale.status_code == 409
    version = api().get(url).json()["party_version"]
    done = api(referee_user).post(f"{url}countersign/", {"version": version})
    assert done.status_code == 200, done.content
    body = done.json()
    assert body["status"] == "signed" and len(body["signatures"]) == 5 and body["sha256"]
    state = api().get(url).json()
    assert state["locked"] and [v["version"] for v in state["versions"]] == [1]
    pdf = api().get(body["pdf_url"])
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    current = api().get(f"{url}pdf/")
    assert current.content == Protocol.objects.get().file.read()


def test_refusal_through_the_api(finished_party, referee_user, player_users):
    url = f"/api/v1/party-protocols/{finished_party.pk}/refuse/"
    b1 = party_players(finished_party)[2][1]
    assert api(player_users[0]).post(url, {"player": b1.pk, "reason": "x"}).status_code == 403
    response = api(referee_user).post(url, {"player": b1.pk, "reason": "Не согласен"})
    assert response.status_code == 201 and response.json()["refused"] is True


def test_versions_list_and_draft_download(finished_party):
    listed = api().get("/api/v1/protocols/", {"party": finished_party.pk}).json()["results"]
    assert [(v["version"], v["status"]) for v in listed] == [(1, "awaiting")]
    draft = api().get(f"/api/v1/protocols/{listed[0]['public_id']}/pdf/")
    assert draft.status_code == 200 and "draft" in draft["Content-Disposition"]


def test_hidden_tournament_protocols_are_not_shown(finished_party, make_user):
    tournament = finished_party.round.tournament
    tournament.public = False
    tournament.save()
    outsider = api(make_user("outsider"))
    assert outsider.get(f"/api/v1/party-protocols/{finished_party.pk}/").status_code == 404
    assert outsider.get("/api/v1/protocols/").json()["results"] == []


def test_print_job_start_reuse_and_poll(finished_party, referee_user, make_user,
                                        django_capture_on_commit_callbacks):
    client = api(referee_user)
    with django_capture_on_commit_callbacks(execute=True):
        started = client.post("/api/v1/print-jobs/", {"round": finished_party.round_id,
                                                   "kind": "blank"})
    assert started.status_code == 202, started.content
    job = started.json()
    polled = client.get(f"/api/v1/print-jobs/{job['id']}/").json()
    assert polled["status"] == "done" and polled["percent"] == 100 and polled["pdf_url"]
    again = client.post("/api/v1/print-jobs/", {"round": finished_party.round_id, "kind": "blank"})
    assert again.json()["id"] == job["id"]
    pdf = client.get(polled["pdf_url"])
    assert pdf.status_code == 200 and pdf.content[:5] == b"%PDF-"
    assert api(make_user("nobody")).get(f"/api/v1/print-jobs/{job['id']}/").status_code == 404
    refused = api(make_user("player")).post("/api/v1/print-jobs/",
                                            {"round": finished_party.round_id, "kind": "blank"})
    assert refused.status_code == 403
    assert PrintJob.objects.count() == 1


def test_signing_pin_through_the_api(finished_party, player_users):
    a1 = party_players(finished_party)[0][1]
    client = api(player_users[0])
    assert client.post("/api/v1/signing-pins/", {"player": a1.pk, "pin": "2580"}).status_code == 204
    bad = client.post("/api/v1/signing-pins/", {"player": a1.pk, "pin": "25"})
    assert bad.status_code == 400 and "pin" in bad.json()


def test_schema_lists_the_protocol_endpoints(client, protocol_env):
    schema = client.get("/api/v1/schema/").content.decode()
    for path in ("/api/v1/party-protocols/{id}/sign/", "/api/v1/party-protocols/{id}/countersign/",
                 "/api/v1/protocols/{public_id}/pdf/", "/api/v1/print-jobs/{id}/",
                 "/api/v1/print-jobs/{id}/pdf/", "/api/v1/signing-pins/"):
        assert path in schema
