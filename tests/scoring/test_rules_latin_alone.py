"""The Latin game for 2, 3 or 4 players alone, seed 004 (issue #13 item 11), engine only.

Seed 004: "В игру могут играть 2, 3 или 4 игрока, даже парами"; seven tiles each, the rest
stays in the bank; "в одиночку подсчитайте очки своих оппонентов"; a blocked deal goes to the
lowest hand, scored as usual; "в случае ничьей побеждает игрок или пара, которые были «в
руке» или находились ближе всего к игроку, который был «в руке»". Seats play in the order
a1, b1, a2, b2 (counter-clockwise), so "nearest after la mano" follows that order.
"""

import pytest

from scoring.rules import (
    FINISHED,
    DealFacts,
    DealScore,
    FineFact,
    LatinAlone,
    LatinGame,
    RuleError,
    get_rule_set,
)
from scoring.rules.latin import plays_alone

LATIN = get_rule_set("latin")


def cfg(players: int, **settings):
    """Latin regulations with ``players`` at a table (four: alone unless said otherwise)."""
    settings.setdefault("latin_individual", players == 4)
    return LATIN.config(players=players, **settings)


def hand(players: int, **facts) -> DealScore:
    """Score one deal of the Latin game with ``players`` playing alone."""
    return LATIN.score_deal(DealFacts(**facts), cfg(players))


def refused(field: str, players: int, **facts) -> None:
    """The deal is refused, naming ``field``."""
    with pytest.raises(RuleError) as info:
        hand(players, **facts)
    assert info.value.field == field, str(info.value)


def test_seed_004_two_three_or_four_players_alone_or_four_in_pairs():
    """(rules.md L1) Seed 004 two three or four players alone or four in pairs."""
    assert isinstance(LATIN, LatinGame)
    assert LATIN.sides_for(LATIN.config()) == ("a", "b")  # the preset: four in two pairs
    assert not plays_alone(LATIN.config())
    for players, seats in ((2, ("a1", "b1")), (3, ("a1", "b1", "a2")), (4, LATIN.seats)):
        rules = cfg(players)
        assert plays_alone(rules)
        assert LATIN.seats_for(rules) == seats
        assert LATIN.sides_for(rules) == seats  # every player is his own side
        assert LATIN.side_size(rules) == 1
        assert LATIN.per_seat(rules)
    # Two or three players always play alone, whatever the four-player setting says.
    assert LATIN.sides_for(cfg(3, latin_individual=False)) == ("a1", "b1", "a2")


def test_seed_004_seven_tiles_each_the_rest_in_the_bank():
    """(rules.md L2) Seed 004 seven tiles each the rest in the bank."""
    for players in (2, 3, 4):
        assert LATIN.hand_size(cfg(players)) == 7
    assert LatinAlone.draws  # who cannot play steals from the bank


def test_seed_004_alone_domino_scores_the_opponents_pips():
    """(rules.md L5) Seed 004 alone domino scores the opponents' pips."""
    assert hand(2, outcome="domino", went_out="b1", pips={"a1": 17}) == DealScore(
        "domino", "b1", {"a1": 0, "b1": 17}
    )
    three = hand(3, outcome="domino", went_out="a2", pips={"a1": 9, "b1": 14})
    assert three == DealScore("domino", "a2", {"a1": 0, "b1": 0, "a2": 23})
    four = hand(4, outcome="domino", went_out="a1", pips={"b1": 10, "a2": 6, "b2": 9})
    # Alone, a1's "partner" a2 is an opponent like the others: all 25 pips count.
    assert four.points == {"a1": 25, "b1": 0, "a2": 0, "b2": 0}


def test_seed_004_alone_fish_lowest_hand_wins_the_opponents_pips():
    """(rules.md L6) Seed 004 alone fish lowest hand wins the opponents' pips."""
    three = hand(3, outcome="fish", pips={"a1": 12, "b1": 4, "a2": 20})
    assert three == DealScore("fish", "b1", {"a1": 0, "b1": 32, "a2": 0})
    two = hand(2, outcome="fish", pips={"a1": 8, "b1": 11}, led="b1")
    assert two.points == {"a1": 11, "b1": 0}  # no tie: who led does not matter


def test_seed_004_alone_fish_tie_goes_to_la_mano():
    """(rules.md L7) Seed 004 alone fish tie goes to la mano."""
    tie = {"a1": 7, "b1": 7}
    assert hand(2, outcome="fish", pips=tie, led="b1") == DealScore(
        "fish", "b1", {"a1": 0, "b1": 7}
    )
    assert hand(2, outcome="fish", pips=tie, led="a1").winner == "a1"
    four = hand(4, outcome="fish", pips={"a1": 5, "b1": 9, "a2": 5, "b2": 12}, led="a2")
    assert four == DealScore("fish", "a2", {"a1": 0, "b1": 0, "a2": 26, "b2": 0})


def test_seed_004_alone_fish_tie_goes_to_the_player_nearest_after_la_mano():
    # Three players: a1 led with the highest hand; b1 and a2 tie: b1 plays right after him.
    """(rules.md L8) Seed 004 alone fish tie goes to the player nearest after la mano."""
    three = hand(3, outcome="fish", pips={"a1": 20, "b1": 6, "a2": 6}, led="a1")
    assert three == DealScore("fish", "b1", {"a1": 0, "b1": 26, "a2": 0})
    # b1 led: a2 follows him, then a1.
    assert hand(3, outcome="fish", pips={"a1": 6, "b1": 20, "a2": 6}, led="b1").winner == "a2"
    # Four players: b2 led; a1 and b1 tie; going round from b2, a1 comes first.
    four = hand(4, outcome="fish", pips={"a1": 3, "b1": 3, "a2": 8, "b2": 10}, led="b2")
    assert four == DealScore("fish", "a1", {"a1": 21, "b1": 0, "a2": 0, "b2": 0})


def test_seed_004_alone_fish_tie_needs_who_led_at_the_table():
    refused("led", 2, outcome="fish", pips={"a1": 7, "b1": 7})
    refused("led", 3, outcome="fish", pips={"a1": 7, "b1": 7, "a2": 9}, led="b2")  # no b2
    refused("led", 4, outcome="fish", pips={"a1": 7, "b1": 7, "a2": 9, "b2": 9}, led="a")
    refused("winner", 2, outcome="fish", pips={"a1": 7, "b1": 7}, led="a1", winner="b1")
    # Entered with points only, the referee names the winner as for any fish.
    assert hand(3, outcome="fish", winner="a2", points={"a2": 30}).winner == "a2"


def test_seed_004_alone_the_first_player_to_the_target_wins():
    """(rules.md L9) Seed 004 alone the first player to the target wins."""
    rules = cfg(3, target=50)
    deals = [
        hand(3, outcome="domino", went_out="a1", pips={"b1": 20, "a2": 10}),
        hand(3, outcome="fish", pips={"a1": 20, "b1": 6, "a2": 6}, led="a1"),
        hand(3, outcome="domino", went_out="b1", pips={"a1": 20, "a2": 10}),
    ]
    totals = LATIN.party_totals(deals, [FineFact("a2", 5)], rules)
    assert totals.points == {"a1": 30, "b1": 56, "a2": -5}
    decision = LATIN.decide(totals, rules, time_expired=False, deals_after_expiry=0)
    assert (decision.state, decision.winner) == (FINISHED, "b1")


def test_seed_004_alone_sides_for_rulings_and_forfeits():
    rules = cfg(4)
    assert LATIN.check_side("b2", "side") == "b2"  # a warning to a player alone
    assert LATIN.fine("b2", rules).side == "b2"
    assert LATIN.forfeit("a2", rules) == {"a1": 0, "b1": 0, "a2": 200, "b2": 0}
    assert LATIN.opponents("a1", rules) == ("b1", "a2", "b2")
    with pytest.raises(RuleError):
        LATIN.check_side("b2", "side", LATIN.sides_for(cfg(2)))
