"""The Classic game, RULES.md section 3: hand sizes, the lone 0-0, a fish pays the difference."""

import pytest

from scoring.rules import ClassicGame, DealFacts, DealScore, RuleError, get_rule_set

CLASSIC = get_rule_set("classic")
CFG = CLASSIC.config()
FOUR = CLASSIC.config(players=4)


def hand(cfg=CFG, **facts):
    return CLASSIC.score_deal(DealFacts(**facts), cfg)


def test_classic_registered_for_two_to_four_players():
    assert isinstance(CLASSIC, ClassicGame)
    assert CLASSIC.sides_for(FOUR) == ("a1", "b1", "a2", "b2")
    with pytest.raises(RuleError) as info:
        CLASSIC.config(players=5)
    assert info.value.field == "players"
    with pytest.raises(RuleError):
        CLASSIC.config(players=1)


def test_seven_tiles_for_two_players_five_for_three_or_four():
    """(rules.md G5) Seven tiles for two players five for three or four."""
    assert CLASSIC.hand_size(CFG) == 7
    assert CLASSIC.hand_size(CLASSIC.config(players=3)) == 5
    assert CLASSIC.hand_size(FOUR) == 5
    assert CLASSIC.hand_size(CLASSIC.config(players=4, tiles_per_hand=6)) == 6


def test_winner_scores_all_the_losers_pips():
    """(rules.md G6) Winner scores all the losers' pips."""
    result = hand(FOUR, outcome="domino", went_out="b2", pips={"a1": 10, "b1": 7, "a2": 3})
    assert result == DealScore("domino", "b2", {"a1": 0, "b1": 0, "a2": 0, "b2": 20})


def test_lone_zero_zero_counts_25():
    """(rules.md G6) Lone zero zero counts 25."""
    result = hand(FOUR, outcome="domino", went_out="b2", pips={"a1": 0, "b1": 7, "a2": 3})
    assert result.points["b2"] == 35
    with_tiles = hand(outcome="domino", went_out="a1", tiles={"b1": [(0, 0)]})
    assert with_tiles.points == {"a1": 25, "b1": 0}
    # 0-0 with other tiles counts nothing extra.
    assert hand(outcome="domino", went_out="a1", tiles={"b1": [(0, 0), (1, 2)]}).points == {
        "a1": 3,
        "b1": 0,
    }


def test_fish_lowest_hand_wins_the_difference():
    """(rules.md G7) Fish lowest hand wins the difference."""
    assert hand(outcome="fish", pips={"a1": 8, "b1": 20}) == DealScore(
        "fish", "a1", {"a1": 12, "b1": 0}
    )
    result = hand(FOUR, outcome="fish", pips={"a1": 8, "b1": 20, "a2": 10, "b2": 5})
    assert result.points == {"a1": 0, "b1": 0, "a2": 0, "b2": 3 + 15 + 5}


def test_fish_with_a_lone_zero_zero_counts_it_25_when_the_regulations_say_so():
    counted = CLASSIC.config(lone_zero_zero_in_fish=True)
    assert hand(counted, outcome="fish", pips={"a1": 0, "b1": 20}).points == {"a1": 0, "b1": 5}


def test_fish_with_a_lone_zero_zero_by_default_counts_its_0_pips_and_wins():
    # the seeds give the 25 to the loser after a domino; in a fish 0 pips is the lowest hand
    assert CFG.lone_zero_zero_in_fish is False
    result = hand(outcome="fish", pips={"a1": 0, "b1": 20})
    assert result == DealScore("fish", "a1", {"a1": 20, "b1": 0})
    with_tiles = hand(FOUR, outcome="fish", tiles={
        "a1": [(0, 0)], "b1": [(1, 2)], "a2": [(3, 4)], "b2": [(5, 6)],
    })
    assert with_tiles.points == {"a1": 3 + 7 + 11, "b1": 0, "a2": 0, "b2": 0}
    # after a domino the lone 0-0 still counts 25 for the winner
    assert hand(outcome="domino", went_out="b1", pips={"a1": 0}).points == {"a1": 0, "b1": 25}


def test_fish_tie_for_lowest_nobody_scores():
    assert hand(outcome="fish", pips={"a1": 9, "b1": 9}).points == {"a1": 0, "b1": 0}


def test_target_agreed():
    cfg = CLASSIC.config(target=300)
    deals = [hand(cfg, outcome="domino", went_out="a1", pips={"b1": 60})] * 4
    totals = CLASSIC.party_totals(deals, [], cfg)
    assert totals.points == {"a1": 240, "b1": 0}
    assert CLASSIC.decide(totals, cfg, time_expired=False, deals_after_expiry=0).state == (
        "continue"
    )


def test_the_game_ends_when_a_player_reaches_the_agreed_target():
    """(rules.md G9) Seed 000: the game ends when a player collects the agreed points (100)."""
    assert CFG.target == 100  # the preset; the organizer agrees another
    first = hand(outcome="domino", went_out="a1", pips={"b1": 60})
    second = hand(outcome="domino", went_out="a1", pips={"b1": 40})

    def decide(deals, cfg=CFG):
        totals = CLASSIC.party_totals(deals, [], cfg)
        return CLASSIC.decide(totals, cfg, time_expired=False, deals_after_expiry=0)

    assert decide([first]).state == "continue"  # 60: not yet
    decision = decide([first, second])
    assert (decision.state, decision.winner, decision.reason) == ("finished", "a1", "target")
    assert decide([first, second], CLASSIC.config(target=300)).state == "continue"
