"""Kozel's fish (seed 000, the 2-2 example) and its move helper (issues #13 item 9, #34).

Seed 000: 1-2, 2-6, 0-2, 2-3 are on the table, the line ends in 2-4 and 5-2; "if the 2-2
double was not played but is in the bazaar or a player's hand, it is still a fish". The
players see the fish at the table; the desk takes it with the 2-2 still in a hand and counts
that hand as any other. The seeds give Kozel no time per move, so it has no move-time helper
(it had sport's 5/20/60 s): the API refuses the advice, the desk shows no helper.
"""

from __future__ import annotations

import pytest

from scoring.models import Deal
from tests.referee.test_rule_sets_desk import make_desk

pytestmark = pytest.mark.django_db

# The table before the move: the line ends in 5-2 (a 2) and 6-4 (a 4).
PLAYED = [(1, 2), (2, 6), (0, 2), (2, 3), (5, 2), (4, 6)]


def test_a_fish_with_the_blocking_double_still_in_a_hand_is_scored_as_any_fish(make_user):
    """(rules.md K5) Seed 000's 2-2 example: the 2-2 in a hand, the deal is a fish all the same."""
    desk = make_desk(make_user, "kozel")
    desk.deal(outcome="fish", fish_by="a1", tiles={
        "a1": [[1, 1]], "b1": [[2, 2], [0, 1]], "a2": [[3, 3], [0, 0]], "b2": [[5, 5], [6, 6]],
    })
    deal = Deal.objects.get(party_id=desk.party_id)
    assert deal.outcome == "fish"
    assert deal.scores == {"a1": 2, "b1": 5, "a2": 6, "b2": 22}  # 0-0 with 3-3 counts 0 + 6
    state = desk.state()
    assert state["kozel"]["memorized"]["b1"] == 5  # the holder of the 2-2 counts it: 4 + 1


def test_kozel_has_no_move_helper_on_the_api_or_the_desk(make_user, client):
    """(rules.md K12) Seeds 000 and 002 give Kozel no time per move: no helper."""
    desk = make_desk(make_user, "kozel")
    response = desk.post("move-advice", {
        "hand": ["2-4", "1-1"], "open_ends": [2, 4], "played": [list(t) for t in PLAYED]})
    assert response.status_code == 400 and "rule_set" in response.json()
    client.force_login(desk.referee)
    screen = client.get(f"/referee/party/{desk.party_id}/").content.decode()
    assert 'id="helper"' not in screen and "Move-time helper" not in screen


def test_sport_keeps_its_helper_and_needs_the_double_out_for_a_fish(make_user, client):
    desk = make_desk(make_user, "sport")
    response = desk.post("move-advice", {
        "hand": ["2-4", "1-1"], "open_ends": [2, 4], "played": [list(t) for t in PLAYED]})
    assert response.status_code == 200, response.json()
    assert response.json()["can_fish"] is False and response.json()["seconds_allowed"] == 20
    client.force_login(desk.referee)
    assert 'id="helper"' in client.get(f"/referee/party/{desk.party_id}/").content.decode()
