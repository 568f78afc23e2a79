"""UDL singles, RULES.md section 2: games, matches, on the board, blocked ties, penalties."""

import pytest

from scoring.rules import (
    DealFacts,
    FineFact,
    MatchTotals,
    RuleError,
    UdlSingles,
    get_rule_set,
    penalty_for,
)
from scoring.rules.udl import (
    DISQUALIFIED_FROM_MATCH,
    DISQUALIFIED_FROM_TOURNAMENT,
    EXPOSED_TILE,
    POINTS_TO_OPPONENT,
    REMOVED_FROM_TOURNAMENT,
    UDL_PENALTIES,
    WARNING,
)

UDL = get_rule_set("udl")
CFG = UDL.config()


def hand(game=1, cfg=CFG, **facts):
    return UDL.score_deal(DealFacts(game=game, **facts), cfg)


def won_game(side, game):
    """A hand that wins a game at the target of 150 for ``side``."""
    other = "b" if side == "a" else "a"
    return hand(game, outcome="domino", went_out=f"{side}1", pips={other: 150}, plays=[(side, 5)])


def totals(deals, fines=()):
    return UDL.party_totals(deals, list(fines), CFG)


def decide(result, *, time_expired=False, after=0, match_time_expired=False):
    return UDL.decide(
        result,
        CFG,
        time_expired=time_expired,
        deals_after_expiry=after,
        match_time_expired=match_time_expired,
    )


def test_udl_singles_registered_with_its_preset():
    """(rules.md U3) UDL singles registered with its preset."""
    assert isinstance(UDL, UdlSingles)
    assert UDL.sides_for(CFG) == ("a", "b")
    assert (CFG.games_to_win, CFG.game_minutes, CFG.party_minutes) == (3, 15, 45)
    assert (CFG.udl_slow_play_points, CFG.fine_mode, CFG.warnings_before_fine) == (20, "award", 1)


# -- slow play and the other violations ----------------------------------------------------


def test_slow_play_first_a_warning_then_20_points_to_the_opponent():
    """(rules.md U2) Slow play first a warning then 20 points to the opponent."""
    assert penalty_for("slow_play", 0).kind == WARNING
    second = penalty_for("slow_play", 1)
    assert (second.kind, second.points, second.ends_match) == (POINTS_TO_OPPONENT, 20, False)
    assert penalty_for("slow_play", 5).points == 20
    # The same through the rule set's generic escalation and fine:
    assert UDL.fine_for_warning(0, CFG) is False
    assert UDL.fine_for_warning(1, CFG) is True
    assert UDL.fine("a", CFG) == FineFact("a", 20, "award")
    fine = UDL.slow_play_fine("a", CFG, game=2)
    assert fine == FineFact("a", 20, "award", game=2)
    result = totals([hand(2, outcome="stopped", plays=[("a", 10)])], [fine])
    assert result.current.points == {"a": 10, "b": 20}  # paid to the opponent, in that game


def test_slow_play_points_are_a_setting():
    """(rules.md U2) Slow play points are a setting."""
    cfg = UDL.config(udl_slow_play_points=30)
    assert penalty_for("slow_play", 1, cfg).points == 30
    assert UDL.penalty_for("slow_play", 1, cfg).points == 30
    assert UDL.slow_play_fine("b", cfg).points == 30


@pytest.mark.parametrize(
    ("violation", "kind", "ends_match", "ends_tournament"),
    [
        ("slamming", DISQUALIFIED_FROM_TOURNAMENT, True, True),
        ("hiding_tiles", DISQUALIFIED_FROM_MATCH, True, False),
        ("misconduct", REMOVED_FROM_TOURNAMENT, True, True),
        ("leaving", DISQUALIFIED_FROM_TOURNAMENT, True, True),
        ("out_of_turn", EXPOSED_TILE, False, False),
    ],
)
def test_violations_without_warning(violation, kind, ends_match, ends_tournament):
    """(rules.md U5) Violations without warning."""
    for earlier in (0, 1):
        consequence = penalty_for(violation, earlier)
        assert consequence.kind == kind
        assert consequence.ends_match is ends_match
        assert consequence.ends_tournament is ends_tournament
        assert consequence.points == 0
    assert UDL_PENALTIES[violation][0] == kind


def test_unknown_violation_refused():
    with pytest.raises(RuleError) as info:
        penalty_for("sneezing")
    assert info.value.field == "violation"
    with pytest.raises(RuleError):
        penalty_for("slow_play", -1)


def test_disqualification_ends_the_match():
    """(rules.md U5) Disqualification ends the match."""
    decision = UDL.finish("b", "disqualification")
    assert (decision.state, decision.winner, decision.reason) == (
        "finished",
        "b",
        "disqualification",
    )


# -- scoring -------------------------------------------------------------------------------


def test_equal_blocked_pips_nobody_scores():
    """(rules.md U9) Equal blocked pips nobody scores."""
    result = hand(outcome="fish", pips={"a1": 17, "b1": 17})
    assert result.outcome == "drawn_fish"
    assert result.points == {"a": 0, "b": 0}
    game = totals([hand(outcome="stopped", plays=[("a", 10)]), result])
    assert game.points == {"a": 10, "b": 0}


def test_on_the_board_no_points_no_collecting():
    # Nothing on the board for a: his domino does not collect b's 23 pips.
    """(rules.md U10) On the board no points no collecting."""
    result = totals([hand(outcome="domino", went_out="a1", pips={"b1": 23})])
    assert result.points == {"a": 0, "b": 0}
    assert result.deal_points == {"a": 0, "b": 0}


def test_on_the_board_a_play_in_the_same_hand_counts():
    result = totals([hand(outcome="domino", went_out="a1", pips={"b1": 23}, plays=[("a", 10)])])
    assert result.points == {"a": 35, "b": 0}


def test_on_the_board_points_from_an_earlier_hand_count():
    first = hand(outcome="stopped", plays=[("a", 5)])
    result = totals([first, hand(outcome="domino", went_out="a1", pips={"b1": 23})])
    assert result.points == {"a": 30, "b": 0}


def test_on_the_board_is_per_game():
    game_1 = won_game("a", 1)
    game_2 = hand(2, outcome="domino", went_out="a1", pips={"b1": 23})
    result = totals([game_1, game_2])
    assert result.games[1].points == {"a": 0, "b": 0}


def test_all_fives_has_no_on_the_board_rule():
    fives = get_rule_set("allfives")
    deal = fives.score_deal(DealFacts("domino", went_out="a1", pips={"b1": 23}), fives.config())
    assert fives.party_totals([deal], [], fives.config()).points == {"a": 25, "b": 0}


# -- games and the match -------------------------------------------------------------------


def test_first_to_three_game_wins_takes_the_match():
    """(rules.md U3) First to three game wins takes the match."""
    deals = [won_game("a", 1), won_game("b", 2), won_game("a", 3), won_game("b", 4)]
    result = totals(deals)
    assert isinstance(result, MatchTotals)
    assert result.game_wins == {"a": 2, "b": 2}
    assert [game.winner for game in result.games] == ["a", "b", "a", "b"]
    decision = decide(result)
    assert (decision.state, decision.winner) == ("next_game", "b")  # 2 : 2, a fifth game

    result = totals([*deals, won_game("a", 5)])
    assert result.game_wins == {"a": 3, "b": 2}
    decision = decide(result)
    assert (decision.state, decision.winner, decision.reason) == ("finished", "a", "target")


def test_three_straight_games():
    result = totals([won_game("b", 1), won_game("b", 2), won_game("b", 3)])
    assert decide(result).winner == "b"
    assert decide(result).finished


def test_game_at_time_higher_score_wins():
    """(rules.md U3) Game at time higher score wins."""
    game = [hand(outcome="stopped", plays=[("a", 20), ("b", 10)])]
    result = totals(game)
    assert decide(result).state == "continue"
    assert decide(result, time_expired=True, after=0).state == "last_deal"
    decision = decide(result, time_expired=True, after=1)
    assert (decision.state, decision.winner, decision.reason) == ("next_game", "a", "time")
    # The next game's hands close this one for a.
    closed = totals([*game, hand(2, outcome="stopped", plays=[("b", 5)])])
    assert closed.game_wins == {"a": 1, "b": 0}
    assert closed.current.number == 2


def test_overtime_on_a_tie_at_time_until_first_score():
    """(rules.md U3) Overtime on a tie at time until first score."""
    level = [hand(outcome="stopped", plays=[("a", 20), ("b", 20)])]
    decision = decide(totals(level), time_expired=True, after=1)
    assert decision.state == "overtime"
    scoreless = hand(outcome="fish", pips={"a": 10, "b": 10})
    assert decide(totals([*level, scoreless]), time_expired=True, after=2).state == "overtime"
    first_score = hand(outcome="stopped", plays=[("b", 5)])
    decision = decide(totals([*level, scoreless, first_score]), time_expired=True, after=3)
    assert (decision.state, decision.winner) == ("next_game", "b")


def test_decide_game_alone():
    assert (
        UDL.decide_game({"a": 150, "b": 40}, CFG, time_expired=False, hands_after=0).winner == "a"
    )
    assert (
        UDL.decide_game({"a": 155, "b": 155}, CFG, time_expired=False, hands_after=0).state
        == "overtime"
    )
    assert UDL.decide_game({"a": 5, "b": 0}, CFG, time_expired=True, hands_after=0).state == (
        "last_deal"
    )


def test_match_time_out_more_game_wins_takes_it():
    result = totals([won_game("a", 1), won_game("a", 2), won_game("b", 3)])
    assert result.game_wins == {"a": 2, "b": 1}
    decision = decide(result, match_time_expired=True)
    assert (decision.state, decision.winner, decision.reason) == ("finished", "a", "time")


def test_games_must_be_numbered_from_one():
    with pytest.raises(RuleError) as info:
        hand(0, outcome="stopped", plays=[("a", 5)])
    assert info.value.field == "game"
