"""The club standings engine (no database): each club's best results of the standings rows,
added up on the order's first criterion, ties by its second, then by the best place."""

from __future__ import annotations

import pytest

from scoring.standings import StandingRow, club_standings

ORDER = ("match_points", "point_difference", "points_for")


def _row(entrant: int, rank: int, mp: int, pd: int, shared: bool = False) -> StandingRow:
    return StandingRow(entrant=entrant, rank=rank, shared=shared,
                       metrics={"match_points": mp, "point_difference": pd, "points_for": 0})


ROWS = [  # entrant, rank, match points, point difference: the standings in rank order
    _row(1, 1, 4, 300), _row(2, 2, 4, 120), _row(3, 3, 2, 90), _row(4, 4, 2, 10),
    _row(5, 5, 2, -40), _row(6, 6, 0, -100), _row(7, 7, 0, -180), _row(8, 8, 0, -200),
]


def _table(rows, clubs, order=ORDER, best=2):
    return [(r.rank, r.shared, r.name, r.total, r.tie_break, r.best_rank,
             [c.entrant for c in r.counted])
            for r in club_standings(rows, clubs, order, best)]


def test_a_tie_on_the_first_sum_is_broken_by_the_second():
    """(rules.md S35) Equal match points: the sum of the point differences decides."""
    clubs = {1: ["Азов"], 8: ["Азов"], 2: ["Рыба"], 7: ["Рыба"], 3: ["Камень"], 4: ["Камень"]}
    assert _table(ROWS, clubs) == [
        # Азов 4 + 0 = 4, 300 − 200 = 100; Рыба 4 + 0 = 4, 120 − 180 = −60; Камень 2 + 2 = 4,
        # 90 + 10 = 100: Азов and Камень equal on both sums, the better place (1) wins
        (1, False, "Азов", 4, 100, 1, [1, 8]),
        (2, False, "Камень", 4, 100, 3, [3, 4]),
        (3, False, "Рыба", 4, -60, 2, [2, 7]),
    ]


def test_a_pair_of_two_clubs_counts_for_both_and_no_club_for_none():
    """(rules.md S35) A mixed pair counts for each of its players' clubs, once per club; an
    entrant without a club is left out; only the best N of a club count."""
    clubs = {1: ["", ""], 2: ["Рыба", "Азов"], 3: ["Рыба", "Рыба"], 4: ["Азов"],
             5: ["Рыба", ""], 6: ["азов ", ""]}
    assert _table(ROWS, clubs) == [
        (1, False, "Рыба", 6, 210, 2, [2, 3]),  # 4 + 2, 120 + 90; entrant 5 is the third
        (2, False, "Азов", 6, 130, 2, [2, 4]),  # 4 + 2, 120 + 10; "азов " is Азов, a third
    ]
    assert _table(ROWS, clubs, best=3)[1] == (2, False, "Азов", 6, 30, 2, [2, 4, 6])


def test_clubs_equal_on_everything_share_a_rank_and_a_short_club_counts_what_it_has():
    """(rules.md S35) Shared ranks as the standings share them (1, 1, 3); a club with one
    entrant counts one result."""
    clubs = {2: ["Франция", "Польша"], 1: ["Латвия"], 5: ["Латвия"], 8: ["Чили"]}
    assert _table(ROWS, clubs) == [
        (1, False, "Латвия", 6, 260, 1, [1, 5]),
        (2, True, "Польша", 4, 120, 2, [2]),
        (2, True, "Франция", 4, 120, 2, [2]),
        (4, False, "Чили", 0, -200, 8, [8]),
    ]


def test_criteria_where_fewer_is_better_rank_the_smallest_sum_first():
    """(rules.md S35) Kozel's order, Goat games first (fewer is better)."""
    def kozel(entrant: int, rank: int, goats: int, rating: int) -> StandingRow:
        return StandingRow(entrant=entrant, rank=rank, shared=False,
                           metrics={"goats": goats, "rating_points": rating})

    rows = [kozel(1, 1, 0, 9), kozel(2, 2, 0, 7), kozel(3, 3, 1, 8), kozel(4, 4, 2, 1)]
    clubs = {1: ["A"], 4: ["A"], 2: ["B"], 3: ["B"]}
    assert _table(rows, clubs, order=("goats", "rating_points")) == [
        (1, False, "B", 1, 15, 2, [2, 3]),
        (2, False, "A", 2, 10, 1, [1, 4]),
    ]
    # one criterion: the best place breaks the tie at once
    assert _table(rows, {1: ["A"], 2: ["B"]}, order=("goats",), best=1) == [
        (1, False, "A", 0, None, 1, [1]), (2, False, "B", 0, None, 2, [2])]


def test_at_least_one_result_counts():
    with pytest.raises(ValueError, match="at least one"):
        club_standings(ROWS, {1: ["A"]}, ORDER, 0)
