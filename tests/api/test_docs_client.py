"""docs/api.md: its client example runs a whole round against a real server."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import requests
from rest_framework.test import APIClient

from scoring.models import Party, Protocol, Round, Tournament
from scoring.totals.compute import party_totals

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
MARK = "<!-- client-example -->"


def client_example() -> str:
    """The ```python block right after the marker in docs/api.md."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(re.escape(MARK) + r"\s*```python\n(.*?)\n```", text, re.S)
    assert found, f"{DOC} has no ```python block after {MARK}"
    return found.group(1)


def with_values(code: str, **values: str) -> str:
    """The code with its top-level ``NAME = ...`` lines set to ``values``."""
    for name, value in values.items():
        code, count = re.subn(rf"^{name} = .*$", f"{name} = {value!r}", code, flags=re.M)
        assert count == 1, f"the example sets {name} {count} times, not once"
    return code


@pytest.mark.django_db(transaction=True)
def test_the_client_example_plays_a_round(
    live_server: Any, organizer: Any, signing_files: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """The example logs in, plays round 1 to its end, signs the protocols, closes the round."""
    code = with_values(client_example(), BASE_URL=live_server.url, USERNAME=organizer.username,
                       PASSWORD="pw")  # the factories' password
    exec(compile(code, f"{DOC}:client-example", "exec"), {"__name__": "client_example"})

    tournament = Tournament.objects.get(created_by=organizer)
    assert tournament.slug == "api-cup"
    rnd = Round.objects.get(tournament=tournament)
    assert (rnd.number, rnd.status) == (1, Round.Status.FINISHED)
    parties = list(Party.objects.filter(round=rnd).select_related("pair_a", "pair_b"))
    assert len(parties) == 2
    assert all(p.status == Party.Status.FINISHED and p.end_reason == "target" for p in parties)
    for party in parties:
        protocol = Protocol.objects.get(party=party)
        assert protocol.status == Protocol.Status.SIGNED and protocol.sha256
        assert protocol.signatures.count() == 5  # four players and the referee

    def margin(party: Party) -> tuple[int, Any]:
        """By how many points the party was won, and by which pair."""
        points = party_totals(party).points
        winner, loser = (party.pair_a, party.pair_b) if party.winner == "a" else (
            party.pair_b, party.pair_a)
        assert loser is not None
        return abs(points["a"] - points["b"]), winner

    _most, leader = max((margin(p) for p in parties), key=lambda found: found[0])
    standings = requests.get(
        f"{live_server.url}/api/v1/tournaments/{tournament.pk}/standings/", timeout=10
    ).json()
    lines = standings["lines"]
    assert len(lines) == 4 and standings["per_player"] is False
    assert {line["entrant"] for line in lines} == set(tournament.pairs.values_list("pk", flat=True))
    top = lines[0]
    assert (top["rank"], top["shared"], top["entrant"]) == (1, False, leader.pk)
    assert [line["metrics"]["match_points"] for line in lines] == [2, 2, 0, 0]
    printed = capsys.readouterr().out
    assert f"1 {leader.display_name} 2" in printed


# The conventions docs/api.md states, each checked by a request.


@pytest.fixture
def api(organizer: Any) -> APIClient:
    """An API client logged in with the organizer's token, as docs/api.md tells."""
    client = APIClient()
    refused = client.post("/api/v1/auth/token/", {"username": organizer.username,
                                                  "password": "wrong"}, format="json")
    assert refused.status_code == 400 and "non_field_errors" in refused.json()
    token = client.post("/api/v1/auth/token/", {"username": organizer.username,
                                                "password": "pw"}, format="json").json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


@pytest.mark.django_db
def test_the_documented_conventions_hold(api: APIClient, tournament: Any, party: Any) -> None:
    """Authentication, redirects, pages, filters, errors, retries, versions and times."""
    assert APIClient().post("/api/v1/tournaments/", {"name": "x"}, format="json").json() == {
        "detail": "Authentication credentials were not provided."
    }
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION="Token invalid")
    assert stranger.get("/api/v1/tournaments/").status_code == 403
    moved = api.get(f"/api/referee/parties/{party.pk}/?x=1")
    assert (moved.status_code, moved["Location"]) == (308, f"/api/v1/parties/{party.pk}/?x=1")

    unknown = api.get("/api/v1/players/", {"page_size": 2, "unknown": 1})
    assert (unknown.status_code, sorted(unknown.json())) == (400, ["page_size", "unknown"])
    page = api.get("/api/v1/players/", {"page": 1, "format": "json"}).json()
    assert set(page) == {"count", "next", "previous", "results"} and len(page["results"]) == 16
    assert api.get("/api/v1/players/", {"page": 9}).status_code == 404
    assert list(api.get("/api/v1/parties/", {"status": "bogus"}).json()) == ["status"]
    assert isinstance(api.get(f"/api/v1/parties/{party.pk}/deals/").json(), list)

    url = f"/api/v1/parties/{party.pk}"
    old = api.post(f"{url}/deal/", {"outcome": "domino", "winner": "a"}, format="json")
    assert (old.status_code, list(old.json())) == (400, ["winner"])
    both = api.post(f"{url}/warning/", {"side": "a", "seat": "b1", "category": "talking"},
                    format="json")
    assert (both.status_code, list(both.json())) == (400, ["seat"])
    version = api.get(f"{url}/").json()["version"]
    stale = api.post(f"{url}/pause/", {"reason": "x", "version": version - 1}, format="json")
    assert (stale.status_code, list(stale.json())) == (409, ["version"])

    first = api.post(f"{url}/pause/", {"reason": "x", "version": version}, format="json",
                     HTTP_IDEMPOTENCY_KEY="pause-1")
    again = api.post(f"{url}/pause/", {"reason": "x", "version": version}, format="json",
                     HTTP_IDEMPOTENCY_KEY="pause-1")
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    other = api.post(f"{url}/pause/", {"reason": "y"}, format="json",
                     HTTP_IDEMPOTENCY_KEY="pause-1")
    assert other.status_code == 422 and "detail" in other.json()
    table = {"tournament": tournament.pk, "number": 9}
    assert api.post("/api/v1/tables/", table, format="json",
                    HTTP_IDEMPOTENCY_KEY="t-9").status_code == 201
    replayed = api.post("/api/v1/tables/", table, format="json", HTTP_IDEMPOTENCY_KEY="t-9")
    assert replayed.status_code == 201 and replayed["Idempotent-Replayed"] == "true"
    warned = [api.post(f"{url}/warning/", {"side": "b", "category": "signs",
                                           "client_id": "device-1"}, format="json")
              for _ in range(2)]
    assert [w.status_code for w in warned] == [201, 201]
    assert warned[0].json()["record"]["id"] == warned[1].json()["record"]["id"]

    naive = api.patch(f"/api/v1/rounds/{party.round_id}/",
                      {"starts_at": "2026-12-01T10:00:00"}, format="json")
    assert (naive.status_code, list(naive.json())) == (400, ["starts_at"])
    started = api.get(f"{url}/").json()["clock"]["started_at"]
    assert re.search(r"(Z|[+-]\d\d:\d\d)$", started)
    draw = api.put(f"/api/v1/rounds/{party.round_id}/draw/",
                   {"parties": [{"table_number": 1, "seats": {"a1": 1, "c1": 2}}]},
                   format="json")
    assert list(draw.json()["parties"]["0"]) == ["seats"]


@pytest.mark.django_db
def test_one_shape_wherever_a_party_appears(api: APIClient, tournament: Any, party: Any) -> None:
    """Ids and numbers, pairs, records, links and moments the same in every answer."""
    url = f"/api/v1/parties/{party.pk}"
    row = api.get("/api/v1/parties/", {"round": party.round_id}).json()["results"][0]
    state = api.get(f"{url}/").json()
    for shown in (row, state):
        assert (shown["round"], shown["table"]) == (party.round_id, party.table_id)
        assert shown["table_number"] == party.table.number
    assert row["pairs"] == state["pairs"]
    draw = api.get(f"/api/v1/rounds/{party.round_id}/draw/").json()["parties"][0]
    assert (draw["table"], draw["pairs"]) == (party.table_id, state["pairs"])

    warned = api.post(f"{url}/warning/", {"seat": "b1", "category": "talking"}, format="json")
    record = warned.json()["record"]
    assert record["player_name"] and record["player_name"] == api.get(
        f"{url}/penalties/").json()[0]["player_name"]
    assert not warned.json()["party"]["clock"]["started_at"].endswith("Z")
    preview = api.post(f"{url}/tiles-preview/", {"tiles": {"a2": ["3-5"]}, "winner": "a"},
                       format="json")
    assert (preview.status_code, list(preview.json())) == (400, ["winner"])
    assert state["links"]["self"].startswith("http://")
    protocol = api.get(state["links"]["protocol"]).json()
    assert protocol["pdf_url"].startswith("http://")

    assert api.get("/api/v1/deals/").json() == {"detail": "Not found."}
    assert api.get("/api/v2/parties/").status_code == 404
    assert api.get(f"{url}").status_code == 308
    pdf = api.get(f"/api/v1/party-protocols/{party.pk}/pdf/", HTTP_ACCEPT="application/pdf")
    assert (pdf.status_code, pdf["Content-Type"]) == (200, "application/pdf")
    root = api.get("/api/v1/").json()
    assert {"tournaments", "parties", "webhooks", "protocols"} <= set(root)

    tournament.public_standings = tournament.public_draw = tournament.public_entrants = False
    tournament.save()
    anonymous = APIClient()
    assert anonymous.get(f"/api/v1/tournaments/{tournament.pk}/standings/").status_code == 404
    assert anonymous.get(f"/api/v1/rounds/{party.round_id}/draw/").status_code == 404
    assert anonymous.get(f"{url}/").status_code == 404
    assert anonymous.get("/api/v1/players/").json()["count"] == 0
    assert api.get(f"/api/v1/tournaments/{tournament.pk}/standings/").status_code == 200
