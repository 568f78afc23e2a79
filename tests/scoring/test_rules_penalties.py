"""Fines and repeated warnings in sport domino."""

import pytest

from scoring.rules import DealScore, FineFact, RuleError, RulesConfig, get_rule_set

SPORT = get_rule_set("sport")
CFG = RulesConfig()
DEALS = [
    DealScore("domino", "a", {"a": 40, "b": 0}),
    DealScore("fish", "b", {"a": 0, "b": 10}),
]


def test_fine_deducted_from_offender():
    result = SPORT.party_totals(DEALS, [FineFact("a", 25, "deduct")], CFG)
    assert result.points == {"a": 15, "b": 10}
    assert result.deal_points == {"a": 40, "b": 10}
    assert result.fine_points == {"a": -25, "b": 0}


def test_fine_awarded_to_opponents():
    """(rules.md S14) Fine awarded to opponents."""
    result = SPORT.party_totals(DEALS, [FineFact("a", 25, "award")], CFG)
    assert result.points == {"a": 40, "b": 35}
    assert result.fine_points == {"a": 0, "b": 25}


def test_fine_uses_mode_recorded_on_the_fine():
    # The regulations' current mode does not rewrite fines given earlier.
    cfg = RulesConfig(fine_mode="award")
    result = SPORT.party_totals(DEALS, [FineFact("b", 25, "deduct")], cfg)
    assert result.points == {"a": 40, "b": -15}


def test_fines_add_up():
    fines = [FineFact("b", 25, "deduct"), FineFact("b", 25, "deduct"), FineFact("a", 5, "award")]
    result = SPORT.party_totals(DEALS, fines, CFG)
    assert result.fine_points == {"a": 0, "b": -45}
    assert result.points == {"a": 40, "b": -35}


def test_fine_may_go_below_zero():
    """(rules.md S15) By default (allow_negative) a fine takes a total below zero."""
    result = SPORT.party_totals([], [FineFact("a", 25, "deduct")], CFG)
    assert result.points == {"a": -25, "b": 0}


def test_fine_clamped_at_zero_when_negative_not_allowed():
    cfg = RulesConfig(allow_negative=False)
    result = SPORT.party_totals(DEALS, [FineFact("b", 25, "deduct")], cfg)
    assert result.points == {"a": 40, "b": 0}
    assert result.fine_points == {"a": 0, "b": -25}  # what the fine took stays visible


def test_the_floor_at_zero_applies_at_each_step_not_to_the_final_sum():
    """(rules.md S15) Without allow_negative a pair at 10 fined 25 (while deal 2 was in play)
    has 0, then 30 after a deal of 30: the debt is not carried. The figures add up."""
    cfg = RulesConfig(allow_negative=False)
    first = DealScore("domino", "a", {"a": 10, "b": 0}, number=1)
    second = DealScore("domino", "a", {"a": 30, "b": 0}, number=2)
    fine = FineFact("a", 25, "deduct", deal=2)
    assert SPORT.party_totals([first], [fine], cfg).points == {"a": 0, "b": 0}
    result = SPORT.party_totals([first, second], [fine], cfg)
    assert result.points == {"a": 30, "b": 0}
    assert (result.deal_points["a"], result.fine_points["a"], result.floored["a"]) == (40, -25, 15)
    assert result.running == [{"a": 10, "b": 0}, {"a": 40, "b": 0}]
    # a fine given after deal 2 (deal 3 in play) is counted after it: 40 - 25
    later = SPORT.party_totals([first, second], [FineFact("a", 25, "deduct", deal=3)], cfg)
    assert later.points == {"a": 15, "b": 0} and later.floored == {"a": 0, "b": 0}
    # negative totals allowed: the order changes nothing
    assert SPORT.party_totals([first, second], [fine], CFG).points == {"a": 15, "b": 0}


def test_fine_unknown_mode_refused():
    with pytest.raises(RuleError) as info:
        SPORT.party_totals(DEALS, [FineFact("a", 25, "double")], CFG)
    assert info.value.field == "mode"


def test_fine_negative_points_refused():
    with pytest.raises(RuleError) as info:
        SPORT.party_totals(DEALS, [FineFact("a", -25, "deduct")], CFG)
    assert info.value.field == "points"


def test_fine_from_regulations():
    assert SPORT.fine("b", CFG) == FineFact("b", 25, "deduct")
    cfg = RulesConfig(fine_points=30, fine_mode="award")
    assert SPORT.fine("a", cfg) == FineFact("a", 30, "award")
    assert SPORT.fine("a", cfg, points=10) == FineFact("a", 10, "award")
    with pytest.raises(RuleError):
        SPORT.fine("x", cfg)


def test_repeated_warning_becomes_fine():
    """(rules.md S14) Repeated warning becomes fine."""
    assert SPORT.fine_for_warning(0, CFG) is False  # the first violation: a warning
    assert SPORT.fine_for_warning(1, CFG) is True  # repeated: a fine
    assert SPORT.fine_for_warning(2, CFG) is True


def test_warnings_before_fine_is_a_setting():
    strict = RulesConfig(warnings_before_fine=0)
    assert SPORT.fine_for_warning(0, strict) is True
    lenient = RulesConfig(warnings_before_fine=2)
    assert SPORT.fine_for_warning(1, lenient) is False
    assert SPORT.fine_for_warning(2, lenient) is True


def test_negative_warning_count_refused():
    with pytest.raises(RuleError):
        SPORT.fine_for_warning(-1, CFG)
