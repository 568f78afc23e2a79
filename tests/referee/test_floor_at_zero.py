"""Issue #34: ``allow_negative = false`` floors a total at zero at each step, not the final sum.

RULES.md 1: "a fine can take a pair's total below zero [choice]". Where the regulations say it
cannot, the total is floored at zero when the fine is counted, so no debt is carried: a pair at
10 fined 25 has 0, and 30 after a deal of 30 (not 15). The desk, the API, the party page, the
protocol and the standings show the same figures, which add up: deal points + fines + what
the floor gave back = the total.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.signoff.content import protocol_content

pytestmark = pytest.mark.django_db


def won(side: str, points: int) -> dict:
    """A deal won by ``side`` with ``points`` (the quick entry)."""
    return {"outcome": "domino", "side": side, "points": {side: points}}


def test_a_fine_is_floored_when_given_and_no_debt_is_carried(api, party, regs, client,
                                                             referee_user):
    """(rules.md S15) A at 10 fined 25 shows 0, then +30 shows 30; desk, party page,
    protocol and standings agree."""
    regs(allow_negative=False, target=50)
    deal = f"/api/v1/parties/{party.pk}/deal/"
    assert api.post(deal, won("a", 10), format="json").status_code == 201
    fined = api.post(f"/api/v1/parties/{party.pk}/fine/",
                     {"side": "a", "category": "signs", "points": 25}, format="json")
    assert fined.status_code == 201, fined.json()
    totals = fined.json()["party"]["totals"]
    assert totals["points"] == {"a": 0, "b": 0}
    assert (totals["deal_points"]["a"], totals["fine_points"]["a"],
            totals["floored_points"]["a"]) == (10, -25, 15)

    after = api.post(deal, won("a", 30), format="json").json()["party"]["totals"]
    assert after["points"] == {"a": 30, "b": 0}  # not 15: the debt was not carried
    assert after["deal_points"]["a"] + after["fine_points"]["a"] \
        + after["floored_points"]["a"] == 30

    client.force_login(referee_user)
    desk = client.get(reverse("referee:party", args=[party.pk]))
    row = desk.context["s"]["total_row"]
    assert row["floored"] and [(c["points"], c["floored"], c["total"]) for c in row["cells"]] \
        == [(-25, 15, 30), (0, 0, 0)]
    assert "Not below zero" in desk.content.decode()

    # 30 + 25 reaches the target of 50 (with the final sum floored it was 40: no end)
    ended = api.post(deal, won("a", 25), format="json").json()["party"]
    assert (ended["status"], ended["totals"]["points"]) == ("finished", {"a": 55, "b": 0})
    party.refresh_from_db()
    page = client.get(reverse("tournaments:party", args=[party.pk]))
    assert "Not below zero" in page.content.decode()
    # The protocol is printed in the tournament's language (Russian unless set otherwise).
    assert party.round.tournament.language == "ru"
    assert protocol_content(party).result == "55 : 0 (не ниже нуля: A +15)"
    standings = api.get(f"/api/v1/tournaments/{party.round.tournament.pk}/standings/").json()
    first = standings["lines"][0]
    assert first["metrics"]["points_for"] == 55
