"""A party of sport domino: totals from deals, carry-over, the end of the party, forfeits."""

import pytest

from scoring.rules import (
    DealFacts,
    DealScore,
    FineFact,
    RuleError,
    RulesConfig,
    Totals,
    get_rule_set,
)

SPORT = get_rule_set("sport")
CFG = RulesConfig()


def won(side, points, outcome="domino"):
    other = "b" if side == "a" else "a"
    return DealScore(outcome, side, {side: points, other: 0})


def drawn(carry):
    return DealScore("drawn_fish", None, {"a": 0, "b": 0}, carry=carry)


def totals(a, b):
    return Totals(
        points={"a": a, "b": b}, deal_points={"a": a, "b": b}, fine_points={"a": 0, "b": 0}
    )


def decide(a, b, cfg=CFG, *, time_expired=False, deals_after_expiry=0):
    return SPORT.decide(
        totals(a, b), cfg, time_expired=time_expired, deals_after_expiry=deals_after_expiry
    )


# -- totals ------------------------------------------------------------------------------


def test_party_totals_sum_deals_with_running_totals():
    deals = [won("a", 30), won("b", 45, "fish"), won("a", 12)]
    result = SPORT.party_totals(deals, [], CFG)
    assert result.points == {"a": 42, "b": 45}
    assert result.deal_points == {"a": 42, "b": 45}
    assert result.fine_points == {"a": 0, "b": 0}
    assert result.running == [{"a": 30, "b": 0}, {"a": 30, "b": 45}, {"a": 42, "b": 45}]
    assert result.carry == 0


def test_party_totals_of_no_deals():
    result = SPORT.party_totals([], [], CFG)
    assert result.points == {"a": 0, "b": 0}
    assert result.running == []


def test_drawn_fish_nobody_scores_in_totals():
    result = SPORT.party_totals([drawn(40), won("b", 20)], [], CFG)
    assert result.points == {"a": 0, "b": 20}
    assert result.carry == 0


def test_drawn_fish_carries_to_next_deal():
    """(rules.md S6) Drawn fish carries to next deal."""
    cfg = RulesConfig(drawn_fish="carry")
    drawn_deal = SPORT.score_deal(DealFacts("fish", pips={"a": 20, "b": 20}), cfg)
    result = SPORT.party_totals([won("a", 10), drawn_deal, won("b", 25)], [], cfg)
    assert result.points == {"a": 10, "b": 65}
    assert result.running == [{"a": 10, "b": 0}, {"a": 10, "b": 0}, {"a": 10, "b": 65}]
    assert result.carry == 0


def test_drawn_fish_carry_accumulates():
    cfg = RulesConfig(drawn_fish="carry")
    result = SPORT.party_totals([drawn(30), drawn(22), won("a", 8, "fish")], [], cfg)
    assert result.points == {"a": 60, "b": 0}


def test_drawn_fish_carry_waits_past_annulled_and_referee_deals():
    cfg = RulesConfig(drawn_fish="carry")
    deals = [
        drawn(30),
        DealScore("annulled", None, {"a": 0, "b": 0}),
        DealScore("referee", "b", {"a": 0, "b": 5}),
    ]
    result = SPORT.party_totals(deals, [], cfg)
    assert result.points == {"a": 0, "b": 5}
    assert result.carry == 30
    result = SPORT.party_totals([*deals, won("a", 10)], [], cfg)
    assert result.points == {"a": 40, "b": 5}
    assert result.carry == 0


# -- the end of a party ------------------------------------------------------------------


def test_target_reached_finishes_party():
    """(rules.md S2) Target reached finishes party."""
    decision = decide(205, 150)
    assert (decision.state, decision.winner, decision.reason) == ("finished", "a", "target")
    assert decision.finished
    assert decide(120, 200) == decide(120, 200, time_expired=True, deals_after_expiry=0)
    assert decide(120, 200).winner == "b"


def test_below_target_continue():
    decision = decide(199, 150)
    assert (decision.state, decision.winner, decision.reason) == ("continue", None, None)
    assert not decision.finished


def test_target_is_a_setting():
    """(rules.md S2) Target is a setting."""
    assert decide(105, 20, RulesConfig(target=100)).state == "finished"
    assert decide(105, 20).state == "continue"


def test_both_over_target_higher_wins():
    decision = decide(210, 230)
    assert (decision.state, decision.winner) == ("finished", "b")


def test_level_scores_extra_deal():
    """(rules.md S7) Level scores extra deal."""
    assert decide(210, 210).state == "extra_deal"
    assert decide(210, 210).winner is None
    assert decide(150, 150, time_expired=True, deals_after_expiry=1).state == "extra_deal"
    assert decide(150, 150, time_expired=True, deals_after_expiry=3).state == "extra_deal"


def test_time_expired_during_deal_last_deal_then_finish():
    """(rules.md S8) The time ran out during a deal: it is the last; then the higher side wins."""
    assert decide(120, 90, time_expired=True, deals_after_expiry=0).state == "last_deal"
    decision = decide(120, 130, time_expired=True, deals_after_expiry=1)
    assert (decision.state, decision.winner, decision.reason) == ("finished", "b", "time")


def test_time_not_expired_keeps_playing():
    assert decide(120, 130, time_expired=False, deals_after_expiry=1).state == "continue"


def test_negative_deals_after_expiry_refused():
    with pytest.raises(RuleError) as info:
        decide(1, 2, time_expired=True, deals_after_expiry=-1)
    assert info.value.field == "deals_after_expiry"


def test_decide_uses_totals_with_fines():
    result = SPORT.party_totals([won("a", 160), won("a", 45)], [FineFact("a", 25, "deduct")], CFG)
    assert result.points["a"] == 180
    assert SPORT.decide(result, CFG, time_expired=False, deals_after_expiry=0).state == "continue"


def test_finish_by_ruling():
    decision = SPORT.finish("b", "disqualification")
    assert (decision.state, decision.winner, decision.reason) == (
        "finished",
        "b",
        "disqualification",
    )
    with pytest.raises(RuleError):
        SPORT.finish("b", "boredom")


# -- forfeits ----------------------------------------------------------------------------


def test_forfeit_200_0():
    assert SPORT.forfeit("a", CFG) == {"a": 200, "b": 0}
    assert SPORT.forfeit("b", CFG) == {"a": 0, "b": 200}


def test_forfeit_points_are_a_setting():
    cfg = RulesConfig(forfeit_winner_points=150, forfeit_loser_points=10)
    assert SPORT.forfeit("b", cfg) == {"a": 10, "b": 150}


def test_forfeit_unknown_side_refused():
    with pytest.raises(RuleError) as info:
        SPORT.forfeit("c", CFG)
    assert info.value.field == "winner"
