"""Scoring one deal of sport domino: domino, fish, quick entry, referee, annulled."""

import pytest

from scoring.rules import DealFacts, DealScore, RuleError, RulesConfig, get_rule_set

SPORT = get_rule_set("sport")
CFG = RulesConfig()


def score(cfg=CFG, **facts):
    return SPORT.score_deal(DealFacts(**facts), cfg)


def refused(field, cfg=CFG, **facts):
    with pytest.raises(RuleError) as info:
        score(cfg, **facts)
    assert info.value.field == field, str(info.value)
    return info.value


# -- domino ------------------------------------------------------------------------------


def test_domino_counts_partner_pips():
    """(rules.md S4) Domino counts partner pips."""
    result = score(outcome="domino", went_out="a1", pips={"a1": 0, "a2": 12, "b1": 20, "b2": 7})
    assert result == DealScore("domino", "a", {"a": 39, "b": 0})


def test_domino_without_partner_pips():
    """(rules.md S4) Domino without partner pips."""
    cfg = RulesConfig(domino_counts_partner=False)
    result = score(cfg, outcome="domino", went_out="b2", pips={"a1": 9, "a2": 4, "b1": 30})
    assert result == DealScore("domino", "b", {"a": 0, "b": 13})


def test_domino_pips_per_side():
    result = score(outcome="domino", winner="b", pips={"a": 25, "b": 10})
    assert result.points == {"a": 0, "b": 35}
    cfg = RulesConfig(domino_counts_partner=False)
    assert score(cfg, outcome="domino", winner="b", pips={"a": 25, "b": 10}).points == {
        "a": 0,
        "b": 25,
    }


def test_domino_went_out_seat_may_be_left_out_of_pips():
    result = score(outcome="domino", went_out="b1", pips={"a1": 3, "a2": 4, "b2": 5})
    assert result.winner == "b"
    assert result.points == {"a": 0, "b": 12}


def test_domino_needs_went_out_or_winner():
    refused("went_out", outcome="domino", pips={"a": 10, "b": 5})


def test_domino_went_out_must_be_a_seat():
    refused("went_out", outcome="domino", went_out="c3", pips={"a": 10, "b": 5})


def test_domino_winner_must_match_went_out():
    refused("winner", outcome="domino", went_out="a2", winner="b", pips={"a": 10, "b": 5})


def test_domino_went_out_has_zero_pips():
    err = refused(
        "pips", outcome="domino", went_out="a1", pips={"a1": 3, "a2": 0, "b1": 1, "b2": 2}
    )
    assert err.params["seat"] == "a1"


def test_domino_by_winner_needs_a_winning_seat_with_zero_pips():
    refused("pips", outcome="domino", winner="a", pips={"a1": 3, "a2": 2, "b1": 1, "b2": 2})
    assert score(
        outcome="domino", winner="a", pips={"a1": 3, "a2": 0, "b1": 1, "b2": 2}
    ).points == {"a": 6, "b": 0}


def test_domino_losers_always_hold_pips():
    refused("pips", outcome="domino", went_out="a1", pips={"a2": 5, "b1": 0, "b2": 0})


def test_domino_needs_pips_or_points():
    refused("pips", outcome="domino", went_out="a1")


# -- fish --------------------------------------------------------------------------------


def test_fish_fewer_pips_wins_all_pips():
    """(rules.md S5) Fish fewer pips wins all pips."""
    result = score(outcome="fish", pips={"a1": 10, "a2": 12, "b1": 5, "b2": 8})
    assert result == DealScore("fish", "b", {"a": 0, "b": 35})


def test_fish_winner_pips_count_even_without_partner_setting():
    # domino_counts_partner is about a domino only: a fish scores all four hands.
    cfg = RulesConfig(domino_counts_partner=False)
    assert score(cfg, outcome="fish", pips={"a": 20, "b": 30}).points == {"a": 50, "b": 0}


def test_fish_winner_must_be_the_side_with_fewer_pips():
    err = refused("winner", outcome="fish", winner="a", pips={"a": 30, "b": 20})
    assert err.params == {"side": "b"}


def test_fish_has_nobody_who_went_out():
    refused("went_out", outcome="fish", went_out="a1", pips={"a": 30, "b": 20})


def test_drawn_fish_nobody_scores():
    """(rules.md S6) Drawn fish nobody scores."""
    result = score(outcome="fish", pips={"a1": 10, "a2": 5, "b1": 7, "b2": 8})
    assert result.outcome == "drawn_fish"
    assert result.winner is None
    assert result.points == {"a": 0, "b": 0}
    assert result.carry == 30


def test_drawn_fish_refuses_a_winner():
    refused("winner", outcome="fish", winner="a", pips={"a": 15, "b": 15})


def test_fish_needs_pips_or_points():
    refused("pips", outcome="fish")


# -- limits on the input -----------------------------------------------------------------


def test_deal_over_168_refused_names_field():
    """(rules.md S1) Deal over 168 refused names field."""
    err = refused("pips", outcome="fish", pips={"a1": 50, "a2": 50, "b1": 40, "b2": 29})
    assert err.params["total"] == 169
    err = refused("points_a", outcome="domino", winner="a", points={"a": 169})
    assert err.params["max"] == 168
    refused("points_b", outcome="referee", points={"a": 60, "b": 109})


def test_deal_of_exactly_168_accepted():
    """(rules.md S1) Deal of exactly 168 accepted."""
    assert score(outcome="fish", pips={"a": 84, "b": 84}).carry == 168
    assert score(outcome="domino", winner="a", points={"a": 168}).points == {"a": 168, "b": 0}


def test_max_deal_points_is_a_setting():
    cfg = RulesConfig(max_deal_points=100)
    refused("pips", cfg, outcome="fish", pips={"a": 50, "b": 51})


def test_negative_pips_refused():
    err = refused("pips", outcome="fish", pips={"a1": -1, "a2": 5, "b1": 7, "b2": 8})
    assert err.params["key"] == "a1"


def test_non_integer_pips_refused():
    refused("pips", outcome="fish", pips={"a": 1.5, "b": 5})
    refused("pips", outcome="fish", pips={"a": "7", "b": 5})
    refused("pips", outcome="fish", pips={"a": True, "b": 5})


def test_pips_per_seat_and_side_not_mixed():
    refused("pips", outcome="fish", pips={"a": 10, "b1": 5, "b2": 5})


def test_unknown_pips_key_refused():
    err = refused("pips", outcome="fish", pips={"a": 10, "c": 5})
    assert err.params["key"] == "c"


def test_missing_pips_refused():
    refused("pips", outcome="fish", pips={"a1": 10, "a2": 5, "b1": 7})
    refused("pips", outcome="fish", pips={"a": 10})


def test_unknown_outcome_refused():
    refused("outcome", outcome="draw")


# -- quick entry -------------------------------------------------------------------------


def test_quick_entry_domino():
    assert score(outcome="domino", winner="b", points={"a": 0, "b": 44}) == DealScore(
        "domino", "b", {"a": 0, "b": 44}
    )


def test_quick_entry_loser_scores_zero():
    refused("points_a", outcome="domino", winner="b", points={"a": 5, "b": 44})
    refused("points_b", outcome="fish", winner="a", points={"a": 5, "b": 44})


def test_quick_entry_winner_scores_more_than_zero():
    refused("points_a", outcome="domino", went_out="a2", points={"a": 0, "b": 0})
    refused("points_b", outcome="fish", winner="b", points={"b": 0})


def test_quick_entry_negative_points_refused():
    refused("points_a", outcome="domino", winner="a", points={"a": -5})


def test_quick_entry_fish():
    assert score(outcome="fish", winner="a", points={"a": 30}).points == {"a": 30, "b": 0}


def test_quick_entry_drawn_fish_without_winner():
    result = score(outcome="fish", points={"a": 0, "b": 0})
    assert result == DealScore("drawn_fish", None, {"a": 0, "b": 0})
    refused("winner", outcome="fish", points={"a": 30, "b": 0})


def test_quick_drawn_fish_needs_pips_when_points_carry():
    refused("pips", RulesConfig(drawn_fish="carry"), outcome="fish", points={"a": 0, "b": 0})


def test_points_with_pips_must_match():
    ok = score(outcome="fish", pips={"a": 10, "b": 20}, points={"a": 30, "b": 0})
    assert ok.points == {"a": 30, "b": 0}
    err = refused("points_a", outcome="fish", pips={"a": 10, "b": 20}, points={"a": 25})
    assert err.params == {"expected": 30}


# -- referee and annulled ----------------------------------------------------------------


def test_referee_deal_default_false_pass_points():
    assert score(outcome="referee") == DealScore("referee", None, {"a": 0, "b": 0})
    cfg = RulesConfig(false_pass_points_a=10, false_pass_points_b=0)
    assert score(cfg, outcome="referee") == DealScore("referee", "a", {"a": 10, "b": 0})


def test_referee_deal_points_as_entered():
    assert score(outcome="referee", points={"a": 12, "b": 20}).points == {"a": 12, "b": 20}
    refused("points_b", outcome="referee", points={"a": 12, "b": -1})


def test_annulled_deal_scores_nothing():
    assert score(outcome="annulled", went_out="a1", pips={"a": 10, "b": 5}) == DealScore(
        "annulled", None, {"a": 0, "b": 0}
    )
