"""The season rules of the plain engine, with worked numbers: best N, places, Kozel ratings."""

from __future__ import annotations

import pytest

from scoring.standings.season import Placing, SeasonRule, season_table

# Three tournaments (10, 20, 30) and four people (1 Anna, 2 Boris, 3 Vera, 4 Gleb).
PLACINGS = [
    # tournament 10: Anna 1st (6 match points), Boris 2nd (4), Vera 3rd (2)
    Placing(10, 1, 1, 6), Placing(10, 2, 2, 4), Placing(10, 3, 3, 2),
    # tournament 20: Boris 1st (8), Anna and Vera share 2nd (5), Gleb 4th (1)
    Placing(20, 2, 1, 8), Placing(20, 1, 2, 5), Placing(20, 3, 2, 5), Placing(20, 4, 4, 1),
    # tournament 30: Vera 1st (7), Anna 2nd (3), Boris 3rd (2)
    Placing(30, 3, 1, 7), Placing(30, 1, 2, 3), Placing(30, 2, 3, 2),
]
ORDER = (10, 20, 30)


def table(rule: SeasonRule, placings=PLACINGS) -> list[tuple[int, int, float, bool]]:
    """(place, person, total, shared) of each line in order."""
    return [(line.rank, line.profile, line.total, line.shared)
            for line in season_table(placings, rule, ORDER)]


def test_best_two_results_sum_and_drop_the_worst():
    """Anna 6+5 (3 dropped) = 11, Boris 8+4 (2 dropped) = 12, Vera 7+5 (2 dropped) = 12,
    Gleb 1. Boris and Vera tie at 12 and one win each; the best single result breaks it:
    Boris's 8 beats Vera's 7."""
    rule = SeasonRule("best_n", best_n=2)
    assert table(rule) == [(1, 2, 12, False), (2, 3, 12, False), (3, 1, 11, False),
                           (4, 4, 1, False)]
    anna = next(line for line in season_table(PLACINGS, rule, ORDER) if line.profile == 1)
    assert {t: (c.value, c.counted) for t, c in anna.cells.items()} == {
        10: (6, True), 20: (5, True), 30: (3, False)}


def test_best_n_empty_counts_every_result():
    """Anna 6+5+3 = 14, Boris 4+8+2 = 14, Vera 2+5+7 = 14: all one win; best single results
    8 (Boris), 7 (Vera), 6 (Anna)."""
    assert table(SeasonRule("best_n")) == [(1, 2, 14, False), (2, 3, 14, False),
                                           (3, 1, 14, False), (4, 4, 1, False)]


def test_points_by_place_table_shares_points_of_a_shared_place():
    """Table 10, 6, 4 (4th and below 0). Anna 10+6+6 = 22, Boris 6+10+4 = 20,
    Vera 4+6+10 = 20, Gleb 0 (4th). Boris and Vera tie on total, wins (1) and best (10);
    both played 3: they share 2nd place, the next line is 4th."""
    rule = SeasonRule("place_points", place_points=(10, 6, 4))
    assert table(rule) == [(1, 1, 22, False), (2, 2, 20, True), (2, 3, 20, True),
                           (4, 4, 0, False)]


def test_tie_breaks_apply_in_the_chosen_order():
    """Two people on 10 points: Dan won once (10 in one event), Eva played twice (6 + 4).
    "wins" first puts Dan ahead; "played" first puts Eva ahead."""
    placings = [Placing(10, 5, 1, 0), Placing(10, 6, 2, 0), Placing(20, 6, 3, 0)]
    wins_first = SeasonRule("place_points", place_points=(10, 6, 4), tie_breaks=("wins",))
    played_first = SeasonRule("place_points", place_points=(10, 6, 4), tie_breaks=("played",))
    assert table(wins_first, placings) == [(1, 5, 10, False), (2, 6, 10, False)]
    assert table(played_first, placings) == [(1, 6, 10, False), (2, 5, 10, False)]
    no_breaks = SeasonRule("place_points", place_points=(10, 6, 4), tie_breaks=())
    assert table(no_breaks, placings) == [(1, 5, 10, True), (1, 6, 10, True)]


def test_kozel_rating_points_sum_and_other_rule_sets_give_no_result():
    """Kozel evenings 10 and 20 carry rating points (Anna 23 + 17.5, Boris 31 + 9); tournament
    30 is not Kozel (no rating points): it gives no result, so Gleb, who played only there,
    has no line. Anna 40.5, Boris 40."""
    placings = [
        Placing(10, 1, 2, 23, 23), Placing(10, 2, 1, 31, 31),
        Placing(20, 1, 1, 17.5, 17.5), Placing(20, 2, 2, 9, 9),
        Placing(30, 4, 1, 6, None), Placing(30, 1, 2, 3, None),
    ]
    lines = season_table(placings, SeasonRule("rating_points"), ORDER)
    assert [(line.rank, line.profile, line.total) for line in lines] == [(1, 1, 40.5),
                                                                         (2, 2, 40)]
    assert set(lines[0].cells) == {10, 20}


def test_sums_carry_no_floating_point_dust():
    placings = [Placing(10, 1, 1, 0.1), Placing(20, 1, 1, 0.2)]
    assert season_table(placings, SeasonRule("best_n"), ORDER)[0].total == 0.3


@pytest.mark.parametrize("kwargs", [
    {"scoring": "medals"}, {"scoring": "best_n", "best_n": 0},
    {"scoring": "best_n", "tie_breaks": ("buchholz",)},
])
def test_unknown_rules_are_refused(kwargs):
    with pytest.raises(ValueError):
        SeasonRule(**kwargs)
