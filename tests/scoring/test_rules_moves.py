"""The referee's move-time helper: playable tiles, time allowed, fish, false pass."""

import pytest

from scoring.rules import RuleError, move_advice

# Six of the seven tiles with a 4 are on the table; 2-6 makes the 2 end possible.
FOURS_BUT_2_4 = [(4, 4), (0, 4), (1, 4), (3, 4), (4, 5), (4, 6), (2, 6)]


def refused(field, *args):
    with pytest.raises(RuleError) as info:
        move_advice(*args)
    assert info.value.field == field, str(info.value)
    return info.value


def test_one_move_5_seconds():
    """(rules.md S13) One move 5 seconds."""
    advice = move_advice([(3, 5), (1, 2)], (3, 3), [(3, 3)])
    assert advice.playable == [(3, 5)]
    assert advice.moves == 1
    assert advice.seconds_allowed == 5
    assert advice.can_fish is False
    assert advice.pass_is_false is True


def test_several_moves_20_seconds():
    """(rules.md S13) Several moves 20 seconds."""
    advice = move_advice([(3, 4), (5, 6), (0, 0)], (3, 5), [(3, 5)])
    assert advice.playable == [(3, 4), (5, 6)]
    assert advice.moves == 2
    assert advice.seconds_allowed == 20


def test_one_tile_fitting_both_ends_is_two_moves():
    advice = move_advice([(3, 5)], (3, 5), [(1, 3), (1, 5)])
    assert advice.playable == [(3, 5)]
    assert advice.moves == 2
    assert advice.seconds_allowed == 20


def test_same_number_at_both_ends_is_one_move_per_tile():
    advice = move_advice([(3, 6)], (3, 3), [(3, 3)])
    assert advice.moves == 1
    assert advice.seconds_allowed == 5


def test_fish_possible_60_seconds():
    """(rules.md S13) Fish possible 60 seconds."""
    advice = move_advice([(2, 4), (1, 1)], (4, 2), FOURS_BUT_2_4)
    assert advice.can_fish is True
    assert advice.playable == [(2, 4)]
    assert advice.moves == 2
    assert advice.seconds_allowed == 60


def test_fish_with_a_double():
    # Ends 5 and 5; the 5-5 is the last tile with a 5: both ends show 5 and all seven are out.
    played = [(0, 5), (1, 5), (2, 5), (3, 5), (4, 5), (5, 6)]
    advice = move_advice([(5, 5)], (5, 5), played)
    assert advice.can_fish is True
    assert advice.moves == 1
    assert advice.seconds_allowed == 60


def test_no_fish_while_a_tile_of_the_number_is_still_out():
    played = [tile for tile in FOURS_BUT_2_4 if tile != (4, 5)]
    advice = move_advice([(2, 4), (1, 1)], (4, 2), played)
    assert advice.can_fish is False
    assert advice.seconds_allowed == 20


def test_false_pass_detected():
    """(rules.md S24) False pass detected."""
    assert move_advice([(6, 6), (2, 3)], (1, 3), [(1, 3)]).pass_is_false is True


def test_pass_allowed_without_a_playable_tile():
    advice = move_advice([(6, 6), (2, 2)], (1, 3), [(1, 3)])
    assert advice.playable == []
    assert advice.moves == 0
    assert advice.seconds_allowed == 0
    assert advice.pass_is_false is False


def test_empty_table_any_tile_starts():
    hand = [(6, 6), (0, 1), (2, 5), (3, 3), (1, 4), (0, 6), (2, 4)]
    advice = move_advice(hand, None)
    assert advice.playable == hand
    assert advice.moves == 7
    assert advice.seconds_allowed == 20
    assert move_advice([(2, 5)], None).seconds_allowed == 5


def test_tiles_in_either_orientation():
    assert move_advice([(5, 3)], (3, 3), [(3, 3)]).playable == [(5, 3)]


def test_duplicate_tile_refused():
    err = refused("hand", [(3, 5), (5, 3)], None)
    assert err.params == {"left": 3, "right": 5}
    refused("hand", [(3, 5)], (3, 3), [(3, 3), (3, 5)])
    refused("played", [(1, 1)], (3, 3), [(3, 3), (3, 3)])


def test_tile_out_of_range_refused():
    refused("hand", [(7, 1)], None)
    refused("hand", [(-1, 2)], None)
    refused("hand", [(1, 2, 3)], None)
    refused("hand", ["12"], None)
    refused("played", [(1, 1)], (3, 3), [(3, 9)])


def test_more_than_seven_tiles_refused():
    hand = [(0, n) for n in range(7)] + [(1, 1)]
    err = refused("hand", hand, None)
    assert err.params == {"size": 7}


def test_open_ends_checked():
    refused("open_ends", [(1, 1)], None, [(3, 3)])
    refused("open_ends", [(1, 1)], (3, 7), [(3, 3)])
    refused("open_ends", [(1, 1)], (3, 4), [(3, 3)])
    refused("open_ends", [(1, 1)], (3,), [(3, 3)])
