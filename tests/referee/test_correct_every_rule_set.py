"""A deal of every rule set can be corrected by its referee through the API: the party's totals
are then those of the corrected deal, as if it had been recorded so, and the old values stay in
the event log (per-seat games included)."""

from __future__ import annotations

import pytest

from scoring.models import Deal
from tests.referee.test_annul_every_rule_set import DEALS

pytestmark = pytest.mark.django_db

CORRECTED = {
    "sport": {"outcome": "domino", "side": "b", "points": {"b": 25}},
    "udl": {"outcome": "stopped", "plays": [["a1", 20]]},
    "allfives": {"outcome": "domino", "seat": "b1", "pips": {"a1": 9},
                 "plays": [["b1", 20]]},
    "draw": {"outcome": "domino", "seat": "a1", "pips": {"b1": 17}},
    "block": {"outcome": "domino", "seat": "a1", "pips": {"b1": 17}},
    "classic": {"outcome": "domino", "seat": "a1", "pips": {"b1": 17}},
    "latin": {"outcome": "fish", "pips": {"a1": 3, "a2": 4, "b1": 9, "b2": 8}, "led": "a1"},
    "kozel": {"outcome": "domino", "seat": "a1", "points": {"b1": 9, "a2": 4, "b2": 11}},
}
"""Another valid deal of each rule set: what the first one is corrected to."""


def test_every_rule_set_has_a_correction_here():
    assert set(CORRECTED) == set(DEALS)


@pytest.mark.parametrize("code", sorted(CORRECTED))
def test_a_deal_is_corrected_and_scores_as_corrected(desk, code):
    straight = desk(code)  # the corrected deal, recorded so from the start
    assert straight.post("deal", CORRECTED[code]).status_code == 201
    expected = straight.state()["totals"]["points"]

    table = desk(code)
    recorded = table.post("deal", DEALS[code])
    assert recorded.status_code == 201, recorded.json()
    first = table.state()["totals"]["points"]
    assert first != expected
    deal = Deal.objects.get(party_id=table.party_id)

    answer = table.api.post(f"/api/v1/deals/{deal.pk}/correct/",
                            {**CORRECTED[code], "reason": "Перепутали сторону"}, format="json")
    assert answer.status_code == 200, answer.json()
    assert table.state()["totals"]["points"] == expected
    logged = table.party.events.get(kind="deal_corrected")
    assert logged.reason == "Перепутали сторону" and logged.data["before"] != logged.data["after"]


@pytest.mark.parametrize("code", sorted(CORRECTED))
def test_the_desks_correction_page_opens_for_every_rule_set(client, desk, code):
    table = desk(code)
    assert table.post("deal", DEALS[code]).status_code == 201
    deal = Deal.objects.get(party_id=table.party_id)
    client.force_login(table.referee)
    page = client.get(f"/referee/deal/{deal.pk}/correct/")
    assert page.status_code == 200
    assert 'name="reason"' in page.content.decode()
