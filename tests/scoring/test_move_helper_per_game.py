"""Issue #13 item 7: each rule set's own move-time helper, or none.

Sport domino: 5 s / 20 s / 1 min for a fish, at most 7 tiles, a pass with a fitting tile is a
false pass. UDL (rule 10): 15 s a play; a player without a move draws (his hand grows past 7)
and has 15 s once a playable tile is drawn; the spinner opens four ends; no false-pass ruling.
Games whose rules set no time per move (All Fives, Draw, Block, Classic, Latin, and Kozel:
issue #34, seeds 000 and 002 give it none, not sport's 5/20/60 s) have no helper.
"""

from __future__ import annotations

import pytest

from scoring.rules import RuleError, get_rule_set

SPORT, UDL = (get_rule_set(code) for code in ("sport", "udl"))


def test_a_udl_play_gets_15_seconds_whether_one_or_several_moves():
    """(rules.md U2) A UDL play gets 15 seconds whether one or several moves."""
    one = UDL.move_advice([(3, 5), (1, 2)], (3, 3), [(3, 3)])
    several = UDL.move_advice([(3, 4), (5, 6)], (3, 5), [(3, 5)])
    assert (one.moves, one.seconds_allowed) == (1, 15)
    assert (several.moves, several.seconds_allowed) == (2, 15)
    assert "15 s per play" in one.rule


def test_a_udl_hand_after_drawing_holds_more_than_seven_tiles():
    """(rules.md U11) A UDL hand after drawing holds more than seven tiles."""
    hand = [(0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (6, 6)]
    advice = UDL.move_advice(hand, (4, 5), [(4, 5)])
    assert advice.moves == 0 and advice.must_draw
    assert advice.seconds_after_draw == 15
    assert not advice.pass_is_false  # the player draws: no false pass is reported


def test_a_udl_player_with_nothing_left_to_draw_passes():
    advice = UDL.move_advice([(0, 1)], (4, 5), [(4, 5)], boneyard_empty=True)
    assert not advice.must_draw and advice.seconds_allowed == 0


def test_a_spinner_gives_four_open_ends():
    # 5-5 spinner with 5-2, 5-3 and 5-4 out: the ends 2, 3, 4 and 5.
    played = [(5, 5), (2, 5), (3, 5), (4, 5)]
    advice = UDL.move_advice([(0, 4), (1, 5), (6, 6)], (2, 3, 4, 5), played)
    assert advice.playable == [(0, 4), (1, 5)]
    assert advice.moves == 2


def test_sport_refuses_an_eighth_tile_and_four_ends():
    with pytest.raises(RuleError) as info:
        SPORT.move_advice([(0, n) for n in range(7)] + [(1, 1)], (2, 3), [(2, 3)])
    assert info.value.field == "hand"
    with pytest.raises(RuleError) as info:
        SPORT.move_advice([(0, 2)], (2, 3, 4, 5), [(2, 3), (3, 4), (4, 5)])
    assert info.value.field == "open_ends"


def test_sport_keeps_its_seconds_and_false_pass():
    """(rules.md S13) Sport keeps its seconds and false pass."""
    advice = SPORT.move_advice([(3, 5), (1, 2)], (3, 3), [(3, 3)])
    assert (advice.seconds_allowed, advice.pass_is_false, advice.must_draw) == (5, True, False)


@pytest.mark.parametrize("code", ["allfives", "draw", "block", "classic", "latin", "kozel"])
def test_games_without_a_time_per_move_have_no_helper(code):
    rule_set = get_rule_set(code)
    assert rule_set.helper_for(rule_set.config()) is None
    with pytest.raises(RuleError) as info:
        rule_set.move_advice([(1, 2)], (1, 3), [(1, 3)])
    assert info.value.field == "rule_set"
