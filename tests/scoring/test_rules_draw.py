"""The Draw game, RULES.md section 3: the end of a hand scores, 2–4 players each for himself."""

import pytest

from scoring.rules import DealFacts, DealScore, DrawGame, RuleError, get_rule_set

DRAW = get_rule_set("draw")
CFG = DRAW.config()
THREE = DRAW.config(players=3)


def hand(cfg=CFG, **facts):
    return DRAW.score_deal(DealFacts(**facts), cfg)


def refused(field, cfg=CFG, **facts):
    with pytest.raises(RuleError) as info:
        hand(cfg, **facts)
    assert info.value.field == field, str(info.value)


def test_draw_registered_players_are_sides():
    assert isinstance(DRAW, DrawGame)
    assert (CFG.target, CFG.players) == (100, 2)
    assert DRAW.sides_for(CFG) == ("a1", "b1")
    assert DRAW.sides_for(THREE) == ("a1", "b1", "a2")
    assert DRAW.side_of("a2") == "a2"


def test_going_out_scores_the_opponents_pips():
    """(rules.md G1) Going out scores the opponents' pips."""
    assert hand(outcome="domino", went_out="b1", pips={"a1": 17}) == DealScore(
        "domino", "b1", {"a1": 0, "b1": 17}
    )
    result = hand(THREE, outcome="domino", went_out="a2", pips={"a1": 9, "b1": 14})
    assert result.points == {"a1": 0, "b1": 0, "a2": 23}


def test_no_points_during_play():
    # Only the end of a hand scores: the Draw game has no plays to enter.
    result = hand(outcome="domino", went_out="b1", pips={"a1": 17})
    assert result.play_points is None
    refused("plays", outcome="domino", went_out="b1", pips={"a1": 17}, plays=[("b1", 10)])


def test_blocked_lowest_total_wins_the_others_pips():
    """(rules.md G1) Blocked lowest total wins the others' pips."""
    result = hand(THREE, outcome="fish", pips={"a1": 9, "b1": 14, "a2": 4})
    assert result == DealScore("fish", "a2", {"a1": 0, "b1": 0, "a2": 23})


def test_blocked_tie_for_lowest_nobody_scores():
    result = hand(THREE, outcome="fish", pips={"a1": 4, "b1": 14, "a2": 4})
    assert result.outcome == "drawn_fish"
    assert result.points == {"a1": 0, "b1": 0, "a2": 0}
    assert result.carry == 22
    refused("winner", THREE, outcome="fish", winner="a1", pips={"a1": 4, "b1": 14, "a2": 4})


def test_blocked_tie_may_carry_over_by_setting():
    cfg = DRAW.config(drawn_fish="carry")
    drawn = hand(cfg, outcome="fish", pips={"a1": 8, "b1": 8})
    won = hand(cfg, outcome="domino", went_out="a1", pips={"b1": 5})
    assert DRAW.party_totals([drawn, won], [], cfg).points == {"a1": 21, "b1": 0}


def test_target_ends_the_party():
    deals = [hand(outcome="domino", went_out="a1", pips={"b1": 60})] * 2
    totals = DRAW.party_totals(deals, [], CFG)
    decision = DRAW.decide(totals, CFG, time_expired=False, deals_after_expiry=0)
    assert (decision.state, decision.winner) == ("finished", "a1")


def test_entry_checked():
    refused("pips", outcome="domino", went_out="a1")
    refused("pips", THREE, outcome="fish", pips={"a1": 9, "b1": 14})
    refused("pips", outcome="fish", pips={"a1": 9, "b1": 14, "b2": 1})
    refused("went_out", outcome="domino", went_out="a2", pips={"b1": 3})
    refused("pips", outcome="domino", went_out="a1", pips={"a1": 2, "b1": 3})
    refused("pips", outcome="fish", pips={"a1": 100, "b1": 100})


def test_tiles_give_the_pips():
    result = hand(outcome="domino", went_out="a1", tiles={"b1": [(3, 4), (6, 6)]})
    assert result.points == {"a1": 19, "b1": 0}
    refused("pips", outcome="domino", went_out="a1", tiles={"b1": [(3, 4)]}, pips={"b1": 8})
    refused("tiles", outcome="fish", tiles={"a1": [(3, 4)], "b1": [(4, 3)]})


def test_quick_entry_only_the_winner_scores():
    result = hand(outcome="domino", went_out="a1", points={"a1": 12})
    assert result.points == {"a1": 12, "b1": 0}
    refused("points_b1", outcome="domino", went_out="a1", points={"a1": 12, "b1": 1})
    refused("winner", outcome="fish", points={"a1": 12})
    assert hand(outcome="fish", winner="b1", points={"b1": 7}).points == {"a1": 0, "b1": 7}


def test_fines_in_a_game_of_three():
    from scoring.rules import FineFact

    totals = DRAW.party_totals([], [FineFact("b1", 10, "award")], THREE)
    assert totals.points == {"a1": 10, "b1": 0, "a2": 10}
    assert DRAW.forfeit("a2", THREE) == {"a1": 0, "b1": 0, "a2": 100}  # the Draw target


@pytest.mark.parametrize("code", ["draw", "block"])
def test_the_first_to_the_agreed_target_wins(code):
    """(rules.md G10) Seed 003: the first to the agreed points (100–500; 100 preset) wins."""
    rule_set = get_rule_set(code)
    cfg = rule_set.config(players=3)
    assert cfg.target == 100
    deals = [
        rule_set.score_deal(DealFacts("domino", went_out="b1", pips={"a1": 30, "a2": 25}), cfg),
        rule_set.score_deal(DealFacts("domino", went_out="b1", pips={"a1": 40, "a2": 10}), cfg),
    ]

    def decide(count, cfg=cfg):
        totals = rule_set.party_totals(deals[:count], [], cfg)
        return rule_set.decide(totals, cfg, time_expired=False, deals_after_expiry=0)

    assert decide(1).state == "continue"  # 55
    decision = decide(2)  # 105
    assert (decision.state, decision.winner, decision.reason) == ("finished", "b1", "target")
    assert decide(2, rule_set.config(players=3, target=500)).state == "continue"
