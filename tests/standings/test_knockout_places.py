"""A bracket's results: where winners and semi-final losers go, and the final placings."""

from __future__ import annotations

from scoring.standings.knockout import (
    MatchResult,
    Slot,
    final_placings,
    loser_goes,
    round_key,
    winner_goes,
)


def test_a_winner_goes_to_the_next_rounds_slot_and_a_semi_loser_to_third_place() -> None:
    assert winner_goes(1, 0, 3) == Slot(2, 0, "a")
    assert winner_goes(1, 3, 3) == Slot(2, 1, "b")
    assert winner_goes(3, 0, 3) is None
    assert loser_goes(2, 1, 3, third_place=True) == Slot(3, 0, "b", third_place=True)
    assert loser_goes(2, 1, 3, third_place=False) is None
    assert loser_goes(1, 1, 3, third_place=True) is None
    assert [round_key(r, 4) for r in (1, 2, 3, 4)] == [
        ("round_of", 16), ("quarter_finals", 0), ("semi_finals", 0), ("final", 0)]


def _eight_played() -> list[MatchResult]:
    # seeds 1..8 are entrants 1..8; the quarter-finals are won by 1, 5, 7, 3
    return [
        MatchResult(1, 1, 8, 1), MatchResult(1, 4, 5, 5),
        MatchResult(1, 2, 7, 7), MatchResult(1, 3, 6, 3),
        MatchResult(2, 1, 5, 5), MatchResult(2, 7, 3, 3),
        MatchResult(3, 5, 3, 3),
        MatchResult(3, 1, 7, 1, third_place=True),
    ]


def test_places_one_to_four_from_the_bracket_then_by_round_then_by_qualifying_rank() -> None:
    previous = list(range(1, 13))  # qualifying standings: entrants 1..12
    order = final_placings(_eight_played(), 3, previous)
    assert order[:4] == [3, 5, 1, 7]
    assert order[4:8] == [2, 4, 6, 8]  # quarter-final losers by qualifying rank
    assert order[8:] == [9, 10, 11, 12]


def test_without_a_third_place_match_the_semi_losers_go_by_qualifying_rank() -> None:
    played = [m for m in _eight_played() if not m.third_place]
    order = final_placings(played, 3, [7, 1, 2, 3, 4, 5, 6, 8])
    assert order[:4] == [3, 5, 7, 1]


def test_a_bye_is_no_defeat_and_an_unfinished_bracket_keeps_those_still_in_ahead() -> None:
    matches = [
        MatchResult(1, 1, None, 1), MatchResult(1, 4, 5, 4),
        MatchResult(1, 2, None, 2), MatchResult(1, 3, 6, 6),
        MatchResult(2, 1, 4, None), MatchResult(2, 2, 6, None),
    ]
    order = final_placings(matches, 3, [1, 2, 3, 4, 5, 6])
    assert order == [1, 2, 4, 6, 3, 5]
