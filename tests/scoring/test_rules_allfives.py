"""All Fives (Muggins), RULES.md section 3: plays on multiples of five, rounding, blocked hands."""

import pytest

from scoring.rules import AllFives, DealFacts, DealScore, RuleError, get_rule_set
from scoring.rules.allfives import MAX_PLAY_POINTS
from scoring.rules.counts import round_to_five

FIVES = get_rule_set("allfives")
CFG = FIVES.config()


def hand(cfg=CFG, **facts):
    return FIVES.score_deal(DealFacts(**facts), cfg)


def refused(field, cfg=CFG, **facts):
    with pytest.raises(RuleError) as info:
        hand(cfg, **facts)
    assert info.value.field == field, str(info.value)
    return info.value


def test_all_fives_registered_for_two_players():
    """(rules.md G3) All fives registered for two players."""
    assert isinstance(FIVES, AllFives)
    assert FIVES.sides_for(CFG) == ("a", "b")
    assert FIVES.seats_for(CFG) == ("a1", "b1")
    assert FIVES.side_of("b1") == "b"
    assert CFG.target == 100
    assert CFG.games_to_win == 1
    assert FIVES.hand_size(CFG) == 7
    assert FIVES.hand_size(FIVES.config(tiles_per_hand=9)) == 9


@pytest.mark.parametrize(
    ("value", "rounded"), [(0, 0), (2, 0), (3, 5), (12, 10), (13, 15), (25, 25), (67, 65)]
)
def test_rounding_to_the_nearest_five(value, rounded):
    assert round_to_five(value) == rounded


def test_plays_score_multiples_of_five_during_the_hand():
    """(rules.md G3) Plays score multiples of five during the hand."""
    result = hand(outcome="domino", went_out="a1", pips={"b1": 0}, plays=[("a", 10), ("b1", 15)])
    # b holds a lone 0-0 (0 pips): the end count is 0; the plays still count.
    assert result == DealScore("domino", "a", {"a": 10, "b": 15}, play_points={"a": 10, "b": 15})


@pytest.mark.parametrize("value", [0, 3, 12, MAX_PLAY_POINTS + 5, -5, "10", 7.5])
def test_plays_must_be_multiples_of_five(value):
    """(rules.md G3) Plays must be multiples of five."""
    error = refused("plays", outcome="domino", went_out="a1", pips={"b1": 10}, plays=[("a", value)])
    assert "multiple of five" in error.message


def test_plays_must_name_a_player():
    refused("plays", outcome="domino", went_out="a1", pips={"b1": 10}, plays=[("c", 10)])
    refused("plays", outcome="domino", went_out="a1", pips={"b1": 10}, plays=[10, 15])
    refused("plays", outcome="domino", went_out="a1", pips={"b1": 10}, plays="a10")


def test_most_a_play_can_score():
    assert MAX_PLAY_POINTS == 45  # four open ends, each at most a double six
    assert hand(outcome="stopped", plays=[("a", 45)]).points == {"a": 45, "b": 0}


def test_domino_scores_opponents_pips_rounded_to_five():
    """(rules.md G4) Domino scores opponents' pips rounded to five."""
    assert hand(outcome="domino", went_out="b1", pips={"a1": 13}).points == {"a": 0, "b": 15}
    assert hand(outcome="domino", went_out="b1", pips={"a": 12}).points == {"a": 0, "b": 10}
    assert hand(outcome="domino", winner="a", pips={"b": 22}).points == {"a": 20, "b": 0}


def test_blocked_lower_player_scores_the_difference_rounded():
    """(rules.md G4) Blocked lower player scores the difference rounded."""
    result = hand(outcome="fish", pips={"a1": 9, "b1": 22})
    assert result == DealScore("fish", "a", {"a": 15, "b": 0}, play_points={"a": 0, "b": 0})
    assert hand(outcome="fish", pips={"a": 30, "b": 18}).points == {"a": 0, "b": 10}


def test_blocked_with_equal_pips_nobody_scores_the_end():
    result = hand(outcome="fish", pips={"a": 13, "b": 13}, plays=[("b", 5)])
    assert result.outcome == "drawn_fish"
    assert result.winner is None
    assert result.points == {"a": 0, "b": 5}


def test_quick_entry_of_the_end_count_is_a_multiple_of_five():
    result = hand(outcome="domino", winner="b", points={"b": 25}, plays=[("a", 5)])
    assert result.points == {"a": 5, "b": 25}
    refused("points_b", outcome="domino", winner="b", points={"b": 23})
    refused("points_a", outcome="domino", winner="b", points={"a": 5, "b": 20})


def test_points_entered_with_pips_are_the_end_count():
    result = hand(outcome="domino", went_out="a1", pips={"b1": 13}, points={"a": 15})
    assert result.points == {"a": 15, "b": 0}
    refused("points_a", outcome="domino", went_out="a1", pips={"b1": 13}, points={"a": 13})


def test_stopped_hand_scores_only_its_plays():
    result = hand(outcome="stopped", plays=[("a", 10), ("a", 20)])
    assert result.outcome == "stopped"
    assert result.points == {"a": 30, "b": 0}
    refused("pips", outcome="stopped", pips={"a": 3, "b": 4})


def test_annulled_hand_scores_nothing():
    assert hand(outcome="annulled").points == {"a": 0, "b": 0}
    refused("plays", outcome="annulled", plays=[("a", 10)])


def test_game_reaches_the_target():
    deals = [
        hand(outcome="domino", went_out="a1", pips={"b1": 48}, plays=[("a", 30), ("b", 10)]),
        hand(outcome="domino", went_out="a1", pips={"b1": 25}),
    ]
    totals = FIVES.party_totals(deals, [], CFG)
    assert totals.points == {"a": 105, "b": 10}
    assert totals.running == [{"a": 80, "b": 10}, {"a": 105, "b": 10}]
    assert totals.game_wins == {"a": 1, "b": 0}
    decision = FIVES.decide(totals, CFG, time_expired=False, deals_after_expiry=0)
    assert (decision.state, decision.winner, decision.reason) == ("finished", "a", "target")


def test_target_is_a_setting():
    cfg = FIVES.config(target=300)
    deals = [hand(cfg, outcome="domino", went_out="a1", pips={"b1": 100})]
    totals = FIVES.party_totals(deals, [], cfg)
    assert FIVES.decide(totals, cfg, time_expired=False, deals_after_expiry=0).state == "continue"


def test_match_of_several_games_when_set():
    cfg = FIVES.config(target=50, games_to_win=2)
    game_1 = hand(cfg, outcome="domino", went_out="a1", pips={"b1": 60})
    game_2 = hand(cfg, outcome="domino", went_out="b1", pips={"a1": 60}, game=2)
    totals = FIVES.party_totals([game_1, game_2], [], cfg)
    assert [g.winner for g in totals.games] == ["a", "b"]
    decision = FIVES.decide(totals, cfg, time_expired=False, deals_after_expiry=0)
    assert (decision.state, decision.winner) == ("next_game", "b")


def test_party_of_plain_totals_is_one_game():
    from scoring.rules import Totals

    totals = Totals(points={"a": 100, "b": 5}, deal_points={"a": 100, "b": 5}, fine_points={})
    decision = FIVES.decide(totals, CFG, time_expired=False, deals_after_expiry=0)
    assert (decision.state, decision.winner) == ("finished", "a")


def test_game_number_checked():
    refused("game", outcome="domino", went_out="a1", pips={"b1": 10}, game=0)


def test_a_game_before_the_game_in_play_is_over_before_the_next_hand():
    """Game 1 won on its clock (30 : 10, no target) is closed and counted as soon as game 2
    is in play, before game 2's first hand."""
    cfg = FIVES.config(games_to_win=3)
    hands = [DealScore("stopped", None, {"a": 30, "b": 10}, play_points={"a": 30, "b": 10})]
    still = FIVES.party_totals(hands, [], cfg)
    assert still.games[-1].closed is False and still.game_wins == {"a": 0, "b": 0}
    moved = FIVES.party_totals(hands, [], cfg, game_in_play=2)
    games = [(g.number, g.closed, g.winner) for g in moved.games]
    assert games == [(1, True, "a"), (2, False, None)]
    assert moved.game_wins == {"a": 1, "b": 0}
    assert moved.points == {"a": 30, "b": 10}


def test_the_match_winner_takes_the_last_game_won_on_time():
    """A match decided on the clock: its winner takes the last game, which neither the target
    nor a later game closed."""
    cfg = FIVES.config(games_to_win=3)
    hands = [DealScore("stopped", None, {"a": 5, "b": 20}, play_points={"a": 5, "b": 20})]
    totals = FIVES.party_totals(hands, [], cfg, match_winner="b")
    assert (totals.games[-1].closed, totals.games[-1].winner) == (True, "b")
    assert totals.game_wins == {"a": 0, "b": 1}
    with pytest.raises(RuleError):
        FIVES.party_totals(hands, [], cfg, match_winner="c")
