"""Read endpoints for deals, penalties and rulings: visible parties only."""

from __future__ import annotations

import pytest

from referee.services import give_warning
from scoring.services import record_deal

pytestmark = pytest.mark.django_db

DOMINO_A = {"outcome": "domino", "went_out": "a1", "pips": {"a1": 0, "a2": 10, "b1": 20, "b2": 30}}


def _records(client, name, party):
    response = client.get(f"/api/{name}/", {"party": party.pk})
    assert response.status_code == 200
    return response.json()["results"]


def test_deals_and_penalties_of_a_public_party_are_readable(client, party):
    record_deal(party.pk, **DOMINO_A)
    give_warning(party.pk, side="b", category="talking")
    deals = _records(client, "deals", party)
    assert [(d["number"], d["points_a"], d["points_b"], d["winner"]) for d in deals] == [
        (1, 60, 0, "a")
    ]
    penalties = _records(client, "penalties", party)
    assert [(p["kind"], p["category"], p["side"]) for p in penalties] == [
        ("warning", "talking", "b")
    ]
    assert _records(client, "rulings", party) == []


def test_records_of_a_hidden_tournament_do_not_leak(client, party, make_user):
    record_deal(party.pk, **DOMINO_A)
    tournament = party.round.tournament
    tournament.public = False
    tournament.save()
    assert _records(client, "deals", party) == []
    client.force_login(make_user())
    assert _records(client, "deals", party) == []
    assert client.get("/api/deals/").json()["count"] == 0


def test_records_of_a_draft_round_are_for_organizers_only(client, party, organizer):
    record_deal(party.pk, **DOMINO_A)
    party.round.status = "draft"
    party.round.save()
    assert _records(client, "deals", party) == []
    client.force_login(organizer)
    assert len(_records(client, "deals", party)) == 1
