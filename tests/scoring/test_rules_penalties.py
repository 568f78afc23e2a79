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
    result = SPORT.party_totals([], [FineFact("a", 25, "deduct")], CFG)
    assert result.points == {"a": -25, "b": 0}


def test_fine_clamped_at_zero_when_negative_not_allowed():
    cfg = RulesConfig(allow_negative=False)
    result = SPORT.party_totals(DEALS, [FineFact("b", 25, "deduct")], cfg)
    assert result.points == {"a": 40, "b": 0}
    assert result.fine_points == {"a": 0, "b": -25}  # what the fine took stays visible


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
