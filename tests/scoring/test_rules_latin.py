"""The Latin pairs game, RULES.md section 3: partner's pips count, a fish's tie goes to la mano."""

import pytest

from scoring.rules import DealFacts, DealScore, LatinGame, RuleError, get_rule_set

LATIN = get_rule_set("latin")
CFG = LATIN.config()
PIPS = {"a1": 0, "b1": 10, "a2": 6, "b2": 9}


def hand(cfg=CFG, **facts):
    return LATIN.score_deal(DealFacts(**facts), cfg)


def refused(field, cfg=CFG, **facts):
    with pytest.raises(RuleError) as info:
        hand(cfg, **facts)
    assert info.value.field == field, str(info.value)


def test_latin_registered_for_two_pairs():
    assert isinstance(LATIN, LatinGame)
    assert LATIN.sides_for(CFG) == ("a", "b")
    assert LATIN.seats == ("a1", "b1", "a2", "b2")


def test_domino_scores_all_pips_left_including_partners():
    """(rules.md L4) Domino scores all pips left including partners."""
    assert hand(outcome="domino", went_out="a1", pips=PIPS) == DealScore(
        "domino", "a", {"a": 25, "b": 0}
    )
    # Even if the regulations say otherwise for sport domino, the Latin rule counts the partner.
    cfg = LATIN.config(domino_counts_partner=False)
    assert hand(cfg, outcome="domino", went_out="a1", pips=PIPS).points == {"a": 25, "b": 0}


def test_blocked_lowest_total_wins_and_scores_as_usual():
    """(rules.md L6) Blocked lowest total wins and scores as usual."""
    result = hand(outcome="fish", pips={"a1": 3, "b1": 10, "a2": 6, "b2": 9})
    assert result == DealScore("fish", "a", {"a": 28, "b": 0})


def test_blocked_tie_goes_to_the_pair_that_led():
    """(rules.md L7) Blocked tie goes to the pair that led."""
    tie = {"a1": 3, "b1": 10, "a2": 10, "b2": 3}
    assert hand(outcome="fish", pips=tie, led="b2") == DealScore("fish", "b", {"a": 0, "b": 26})
    assert hand(outcome="fish", pips=tie, led="a2").winner == "a"
    assert hand(outcome="fish", pips=tie, led="a2", winner="a").points == {"a": 26, "b": 0}
    refused("winner", outcome="fish", pips=tie, led="a2", winner="b")


def test_blocked_tie_needs_who_led():
    refused("led", outcome="fish", pips={"a1": 3, "b1": 10, "a2": 10, "b2": 3})
    refused("led", outcome="fish", pips={"a": 13, "b": 13}, led="c1")


def test_nearest_after_la_mano():
    """(rules.md L8) Nearest after la mano."""
    from scoring.rules.counts import nearest_after

    seats = ("a1", "b1", "c1")
    by_seat = {seat: seat for seat in seats}.__getitem__
    # Three players: b1 and c1 tie, a1 led: b1 sits nearest after him.
    assert nearest_after("a1", {"b1", "c1"}, seats, by_seat) == "b1"
    assert nearest_after("c1", {"a1", "b1"}, seats, by_seat) == "a1"


def test_every_latin_deal_has_a_winner():
    refused("winner", outcome="fish", points={"a": 0, "b": 0})
    assert hand(outcome="fish", winner="b", points={"b": 30}).points == {"a": 0, "b": 30}
