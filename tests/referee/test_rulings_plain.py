"""The referee's plain rules without a database: escalation, the UDL preset, tiles in hand."""

import pytest

from referee.rulings import (
    ALL_TILES,
    PenaltyPreset,
    decide_violation,
    fine_decision,
    parse_tile,
    preview_hands,
    read_hands,
)
from scoring.rules import RuleError, RulesConfig, get_rule_set

SPORT = get_rule_set("sport")
SPORT_PRESET = PenaltyPreset()
UDL = PenaltyPreset(code="udl")


def decide(before, category="talking", preset=SPORT_PRESET, **cfg):
    return decide_violation(
        SPORT, RulesConfig(**cfg), preset, side="a", category=category, warnings_before=before
    )


def test_first_violation_is_a_warning_repeat_is_a_fine():
    """(rules.md S17) First violation is a warning repeat is a fine."""
    assert decide(0).kind == "warning"
    second = decide(1)
    assert (second.kind, second.points, second.mode) == ("fine", 25, "deduct")
    assert decide(5).kind == "fine"


def test_warnings_before_fine_setting_two_allows_two_warnings():
    assert [decide(n, warnings_before_fine=2).kind for n in range(4)] == [
        "warning", "warning", "fine", "fine",
    ]


def test_warnings_before_fine_zero_fines_at_once():
    assert decide(0, warnings_before_fine=0).kind == "fine"


def test_fine_follows_regulations_points_and_mode():
    fine = decide(1, fine_points=40, fine_mode="award")
    assert (fine.points, fine.mode) == (40, "award")


def test_udl_second_slow_play_pays_twenty_to_the_opponent():
    assert decide(0, "move_time", UDL).kind == "warning"
    second = decide(1, "move_time", UDL, fine_points=25, fine_mode="deduct")
    assert (second.kind, second.points, second.mode) == ("fine", 20, "award")


def test_udl_preset_leaves_other_violations_to_the_regulations():
    fine = decide(1, "talking", UDL, warnings_before_fine=1)
    assert (fine.points, fine.mode) == (25, "deduct")
    assert decide(1, "talking", UDL, warnings_before_fine=2).kind == "warning"


def test_udl_slow_play_points_are_a_setting():
    fine = decide(1, "move_time", UDL, udl_slow_play_points=30)
    assert fine.points == 30 and fine.mode == "award"


def test_unknown_preset_is_refused():
    with pytest.raises(RuleError) as err:
        PenaltyPreset(code="chess")
    assert err.value.field == "penalty_preset"


def test_direct_fine_may_name_points_but_not_zero():
    assert fine_decision(SPORT, RulesConfig(), "b", 10).points == 10
    with pytest.raises(RuleError):
        fine_decision(SPORT, RulesConfig(), "b", 0)


def test_violation_of_unknown_side_is_refused():
    with pytest.raises(RuleError):
        decide_violation(SPORT, RulesConfig(), SPORT_PRESET, side="c", category="talking",
                         warnings_before=0)


def test_double_six_set_has_28_tiles():
    assert len(ALL_TILES) == 28 and len(set(ALL_TILES)) == 28
    assert sum(a + b for a, b in ALL_TILES) == 168


@pytest.mark.parametrize(("text", "tile"), [("3-5", (3, 5)), ("5-3", (3, 5)), ("66", (6, 6)),
                                            ([0, 4], (0, 4)), ("2|1", (1, 2))])
def test_parse_tile(text, tile):
    assert parse_tile(text) == tile


@pytest.mark.parametrize("bad", ["7-1", "3", "1-2-3", "a-b", 12, None, [True, 1]])
def test_parse_tile_refuses_impossible_tiles(bad):
    with pytest.raises(RuleError):
        parse_tile(bad)


def test_no_tile_in_two_hands():
    with pytest.raises(RuleError) as err:
        read_hands({"a1": ["3-5"], "b1": ["5-3"]}, ("a1", "b1", "a2", "b2"))
    assert "twice" in str(err.value)


def test_hand_of_more_than_seven_tiles_is_refused():
    with pytest.raises(RuleError):
        read_hands({"a1": [f"0-{n}" for n in range(7)] + ["1-1"]}, ("a1",))


def test_preview_sums_tiles_and_finds_the_fish_winner():
    result = preview_hands(
        SPORT, RulesConfig(), {"a1": ["0-1"], "a2": ["1-1"], "b1": ["6-6"], "b2": ["2-3", "0-0"]}
    )
    assert result.pips == {"a1": 1, "b1": 12, "a2": 2, "b2": 5}
    assert result.by_side == {"a": 3, "b": 17}
    assert result.winner == "a" and result.points == {"a": 20, "b": 0}


def test_preview_of_a_domino_counts_all_hands():
    result = preview_hands(
        SPORT, RulesConfig(), {"a2": ["4-4"], "b1": ["6-5"], "b2": ["1-0"]},
        outcome="domino", went_out="a1",
    )
    assert result.winner == "a" and result.points == {"a": 20, "b": 0}


def test_preview_reports_a_deal_the_rules_refuse():
    result = preview_hands(SPORT, RulesConfig(), {"a1": ["1-1"]}, outcome="domino", went_out="a1")
    assert result.error is not None and result.error.field == "pips"
