"""A deal of every rule set can be annulled by its referee through the API (it stays on record,
scores nothing, and the party's totals are as if it had not been played); Kozel, whose deals
score per seat, answered 500 "Unknown side: a" before."""

from __future__ import annotations

import pytest

from scoring.models import Deal
from scoring.rules import RULE_SETS

pytestmark = pytest.mark.django_db

DEALS = {
    "sport": {"outcome": "domino", "side": "a", "points": {"a": 30}},
    "udl": {"outcome": "stopped", "plays": [["b1", 15]]},
    "allfives": {"outcome": "domino", "seat": "a1", "pips": {"b1": 12},
                 "plays": [["a1", 10], ["b1", 15]]},
    "draw": {"outcome": "domino", "seat": "b1", "pips": {"a1": 12}},
    "block": {"outcome": "domino", "seat": "b1", "pips": {"a1": 12}},
    "classic": {"outcome": "domino", "seat": "b1", "pips": {"a1": 12}},
    "latin": {"outcome": "fish", "pips": {"a1": 5, "a2": 5, "b1": 4, "b2": 6}, "led": "b2"},
    "kozel": {"outcome": "domino", "seat": "b1", "points": {"a1": 5, "a2": 13, "b2": 20}},
}
"""One valid deal of each rule set, as the API takes it."""


def test_every_rule_set_has_a_deal_here():
    assert set(DEALS) == set(RULE_SETS)


@pytest.mark.parametrize("code", sorted(DEALS))
def test_a_deal_is_annulled_and_scores_nothing(desk, code):
    table = desk(code)
    before = table.state()["totals"]["points"]
    recorded = table.post("deal", DEALS[code])
    assert recorded.status_code == 201, recorded.json()
    deal = Deal.objects.get(party_id=table.party_id)
    assert table.state()["totals"]["points"] != before  # the deal scored

    answer = table.api.post(f"/api/v1/deals/{deal.pk}/annul/", {"reason": "Не тот стол"},
                            format="json")
    assert answer.status_code == 200, answer.json()
    deal.refresh_from_db()
    assert deal.outcome == Deal.Outcome.ANNULLED
    assert table.state()["totals"]["points"] == before  # as if it had not been played
