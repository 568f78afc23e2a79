"""Issue #13 item 9: Kozel recognises a fish once the six non-doubles of a number are out.

Seed 000 (the 2-2 example): 1-2, 2-6, 0-2, 2-3 are on the table, the line ends in 2-4 and 5-2;
"if the 2-2 double was not played but is in the bazaar or a player's hand, it is still a fish".
Sport domino needs all seven tiles of the number out. Engine first, then the referee's
move-time helper on real parties (API and the desk's fragment).
"""

from __future__ import annotations

import pytest

from scoring.rules import get_rule_set, is_fish, move_advice
from tests.referee.test_rule_sets_desk import make_desk

# The table before the move: the line ends in 5-2 (a 2) and 6-4 (a 4).
PLAYED = [(1, 2), (2, 6), (0, 2), (2, 3), (5, 2), (4, 6)]
HAND = [(2, 4), (1, 1)]  # playing 2-4 on the 4 leaves 2 at both ends; 2-2 is unplayed
AFTER = [*PLAYED, (2, 4)]


def test_engine_a_line_blocked_on_2_without_the_2_2_is_a_kozel_fish_only():
    assert is_fish((2, 2), AFTER, fish_needs_double=False)
    assert not is_fish((2, 2), AFTER)  # sport: the 2-2 can still be played
    assert is_fish((2, 2), [*AFTER, (2, 2)])  # with the double out: a fish in any game
    assert not is_fish((2, 4), AFTER, fish_needs_double=False)  # two numbers: no fish
    assert not is_fish((2, 2), PLAYED, fish_needs_double=False)  # 2-4 still in hand


def test_engine_move_advice_sees_the_fish_by_the_rule_sets_rule():
    kozel = get_rule_set("kozel").move_advice(HAND, (2, 4), PLAYED)
    assert kozel.can_fish and kozel.seconds_allowed == 60
    assert kozel.playable == [(2, 4)]
    sport = get_rule_set("sport").move_advice(HAND, (2, 4), PLAYED)
    assert not sport.can_fish and sport.seconds_allowed == 20  # 2-4 fits either end
    assert move_advice(HAND, (2, 4), PLAYED) == sport  # the plain helper: all seven tiles


@pytest.mark.django_db
@pytest.mark.parametrize(("code", "fish"), [("kozel", True), ("sport", False)])
def test_move_advice_api_on_a_party_recognises_the_kozel_fish(make_user, code, fish):
    desk = make_desk(make_user, code)
    response = desk.post("move-advice", {
        "hand": ["2-4", "1-1"], "open_ends": [2, 4], "played": [list(t) for t in PLAYED]})
    assert response.status_code == 200, response.json()
    assert response.json()["can_fish"] is fish
    assert response.json()["seconds_allowed"] == (60 if fish else 20)


@pytest.mark.django_db
def test_move_advice_fragment_on_a_kozel_party_allows_a_minute_for_the_fish(client, make_user):
    desk = make_desk(make_user, "kozel")
    client.force_login(desk.referee)
    html = client.post(f"/referee/party/{desk.party_id}/move-advice/", {
        "hand": ["2-4", "1-1"], "end_1": "2", "end_2": "4",
        "played": ["1-2", "2-6", "0-2", "2-3", "5-2", "4-6"], "seat": "b1",
    }).content.decode()
    assert "60 s allowed" in html
