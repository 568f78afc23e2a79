"""The season rules of the plain engine, with worked numbers: best N, places, Kozel ratings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def reference_table(placings, rule, order):
    """The rule read literally, slowly: per person his results by points (the earlier
    tournament first), the best N counted; lines by total and tie-breaks, equal ones share."""
    people: dict[int, list] = {}
    for placing in placings:
        value = rule.value(placing)
        if value is not None:
            people.setdefault(placing.profile, []).append((placing, value))
    lines = []
    for profile, results in people.items():
        results.sort(key=lambda pv: (-pv[1], order.index(pv[0].tournament)))
        n = len(results) if rule.best_n is None else rule.best_n
        total = 0.0
        for _placing, value in results[:n]:
            total += value
        figures = {"wins": sum(p.place == 1 for p, _v in results), "best": results[0][1],
                   "played": len(results)}
        key = (round(total, 6), *(figures[name] for name in rule.tie_breaks))
        cells = {p.tournament: (p.place, v, k < n) for k, (p, v) in enumerate(results)}
        lines.append((key, profile, figures, cells))
    lines.sort(key=lambda line: line[0], reverse=True)
    keys = [line[0] for line in lines]
    return [(keys.index(key) + 1, keys.count(key) > 1, profile, key[0], figures, cells)
            for key, profile, figures, cells in lines]


@given(st.lists(st.tuples(st.integers(1, 6), st.integers(1, 8), st.integers(0, 5),
                          st.sampled_from([0, 1, 2.5, 3, 0.1, 0.2]),
                          st.sampled_from([None, 0, 1.5, 4])), max_size=40),
       st.sampled_from(["best_n", "place_points", "rating_points"]),
       st.sampled_from([None, 1, 2, 3]), st.permutations(["wins", "best", "played"]))
@settings(max_examples=300, deadline=None)
def test_the_table_equals_the_rule_read_literally_on_random_seasons(rows, scoring, best_n,
                                                                      tie_breaks):
    """Plain tuples (as the database reads them) and Placings, in any order, give the table
    the rule describes."""
    unique = list({(t, p): (t, p, place, score, rating)
                   for t, p, place, score, rating in rows}.values())
    order = [3, 1, 2, 6, 5, 4]
    rule = SeasonRule(scoring, best_n=best_n, place_points=(10, 6, 4, 2.5),
                      tie_breaks=tuple(tie_breaks))
    expected = reference_table([Placing(*row) for row in unique], rule, order)
    for given_rows in (unique, [Placing(*row) for row in unique]):
        got = [(line.rank, line.shared, line.profile, line.total,
                {"wins": line.wins, "best": line.best, "played": line.played},
                {t: tuple(cell) for t, cell in line.cells.items()})
               for line in season_table(given_rows, rule, order)]
        assert got == expected
        assert [list(e[5]) for e in expected] == [list(g[5]) for g in got]  # best first
