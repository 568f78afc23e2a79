"""Standings: hand-computed tables for every metric, shared ranks, RULES.md examples."""

from __future__ import annotations

import pytest

from scoring.standings import (
    METRICS,
    PartyResult,
    StandingsConfig,
    compute_standings,
)

A, B, C, D, E = 1, 2, 3, 4, 5
R = PartyResult

# Five pairs, three rounds, target 200 (see the hand computation in HAND below).
RESULTS = [
    # round 1: A beats B 215-150; C beats D 130-95 when time ran out; E has the bye (200:0)
    R(1, A, B, 215, 150, winner=A),
    R(1, C, D, 130, 95, winner=C, ended_by_time=True),
    R(1, E, None, 200, 0, winner=E),
    # round 2: A beats C 200-120, C fined 25; D does not show up against E; B has the bye
    R(2, A, C, 200, 120, winner=A, fines_b=25),
    R(2, E, D, 200, 0, winner=E, forfeit=True, forfeited_by=D),
    R(2, B, None, 200, 0, winner=B),
    # round 3: E beats A 230-190; B beats D 200-100, B fined 25; C has the bye
    R(3, E, A, 230, 190, winner=E),
    R(3, B, D, 200, 100, winner=B, fines_a=25),
    R(3, C, None, 200, 0, winner=C),
]

# Worked out by hand:
#   match points: A W W L = 4; B L bye W = 4; C W L bye = 4; D L fL L = 0; E bye fW W = 6
#   points for:     A 215+200+190=605  B 150+200+200=550  C 130+120+200=450
#                   D 95+0+100=195     E 200+200+230=630
#   points against: A 150+120+230=500  B 215+0+100=315    C 95+200+0=295
#                   D 130+200+200=530  E 0+0+190=190
#   efectiveness:   A +50 +80 -10 = 120 (230 capped at 200: 200-190)
#                   B -50 +100(bye) +100 = 150;  C +35 -80 +100(bye) = 55
#                   D -35 -200(forfeit) -100 = -335;  E +100(bye) +100(forfeit win) +10 = 210
#   Buchholz (opponents' match points, byes add nothing):
#                   A: B4 C4 E6 = 14;  B: A4 D0 = 4;  C: D0 A4 = 4;  D: C4 E6 B4 = 14;  E: D0 A4 = 4
#   median Buchholz (drop best and worst with three parties or more):
#                   A: 4 4 6 -> 4;  D: 4 6 4 -> 4;  B, C, E (two parties): 4
HAND = {
    A: dict(
        match_points=4,
        wins=2,
        points_for=605,
        points_against=500,
        point_difference=105,
        efectiveness=120,
        buchholz=14,
        median_buchholz=4,
        fines=0,
    ),
    B: dict(
        match_points=4,
        wins=2,
        points_for=550,
        points_against=315,
        point_difference=235,
        efectiveness=150,
        buchholz=4,
        median_buchholz=4,
        fines=25,
    ),
    C: dict(
        match_points=4,
        wins=2,
        points_for=450,
        points_against=295,
        point_difference=155,
        efectiveness=55,
        buchholz=4,
        median_buchholz=4,
        fines=25,
    ),
    D: dict(
        match_points=0,
        wins=0,
        points_for=195,
        points_against=530,
        point_difference=-335,
        efectiveness=-335,
        buchholz=14,
        median_buchholz=4,
        fines=0,
    ),
    E: dict(
        match_points=6,
        wins=3,
        points_for=630,
        points_against=190,
        point_difference=440,
        efectiveness=210,
        buchholz=4,
        median_buchholz=4,
        fines=0,
    ),
}


def table(order, results=RESULTS, **cfg):
    rows = compute_standings([A, B, C, D, E], results, StandingsConfig(order=order, **cfg))
    return [(r.entrant, r.rank, r.shared) for r in rows], rows


def test_every_metric_matches_the_hand_computed_table():
    _, rows = table(("match_points",))
    for row in rows:
        for key, value in HAND[row.entrant].items():
            assert row.metrics[key] == value, (row.entrant, key)
    assert set(METRICS) - set(rows[0].metrics) == {"head_to_head"}


def test_default_order_match_points_then_point_difference():
    """(rules.md S25) Default order match points then point difference."""
    ranking, rows = table(StandingsConfig().order)
    assert ranking == [(E, 1, False), (B, 2, False), (C, 3, False), (A, 4, False), (D, 5, False)]
    assert rows[0].metrics["head_to_head"] == 0  # nobody was tied when head-to-head came up


def test_head_to_head_among_exactly_the_tied_group_and_a_shared_rank():
    # A, B, C tie on 4: among them A won 2+2 (against B and C); B and C never met -> 0 and 0;
    # B and C also tie on fines (25 each) -> they share rank 3 and the next rank is 5
    ranking, rows = table(("match_points", "head_to_head", "fines"))
    assert ranking == [(E, 1, False), (A, 2, False), (B, 3, True), (C, 3, True), (D, 5, False)]
    h2h = {r.entrant: r.metrics["head_to_head"] for r in rows}
    assert h2h == {A: 4, B: 0, C: 0, D: 0, E: 0}


def test_head_to_head_ignores_parties_outside_the_group():
    # E beat A, but E is not in the tie {A, B, C}: only A's wins over B and C count
    results = [*RESULTS, R(4, B, E, 200, 10, winner=B)]
    ranking, rows = table(("head_to_head",), results=results)
    by = {r.entrant: r.metrics["head_to_head"] for r in rows}
    # with nothing before it, the whole field is the tied group
    assert by == {A: 4, B: 4, C: 2, D: 0, E: 4}


def test_efectiveness_order():
    ranking, _ = table(("efectiveness",))
    assert [e for e, _r, _s in ranking] == [E, B, A, C, D]


def test_points_against_fewer_is_better():
    ranking, _ = table(("points_against",))
    assert [e for e, _r, _s in ranking] == [E, C, B, A, D]


def test_points_for_and_wins_and_point_difference():
    ranking, _ = table(("points_for",))
    assert [e for e, _r, _s in ranking] == [E, A, B, C, D]
    ranking, _ = table(("wins", "point_difference"))
    assert [e for e, _r, _s in ranking] == [E, B, C, A, D]


def test_buchholz_then_median_buchholz_share_ranks():
    ranking, _ = table(("buchholz", "median_buchholz"))
    assert ranking == [(A, 1, True), (D, 1, True), (B, 3, True), (C, 3, True), (E, 3, True)]


def test_fines_fewer_is_better():
    ranking, _ = table(("fines", "match_points"))
    assert ranking == [(E, 1, False), (A, 2, False), (D, 3, False), (B, 4, True), (C, 4, True)]


def test_after_round():
    rows = compute_standings([A, B, C, D, E], RESULTS, StandingsConfig(), after_round=1)
    # 2 points: E +200, A +65, C +35; no points: D -35, B -65
    assert [r.entrant for r in rows] == [E, A, C, D, B]
    assert rows[0].metrics["match_points"] == 2


def test_efectiveness_examples_from_the_rules():
    """(rules.md S25) Efectiveness examples from the rules."""
    results = [
        R(1, 11, 12, 215, 150, winner=11),
        R(1, 13, 14, 130, 95, winner=13, ended_by_time=True),
        R(1, 15, 16, 200, 0, winner=15, forfeit=True),
        R(1, 17, None, 200, 0, winner=17),
    ]
    rows = compute_standings(range(11, 18), results, StandingsConfig(order=("efectiveness",)))
    eff = {r.entrant: r.metrics["efectiveness"] for r in rows}
    assert eff == {11: 50, 12: -50, 13: 35, 14: -35, 15: 100, 16: -200, 17: 100}
    # another target: the cap and the forfeit follow it
    rows = compute_standings(
        [11, 12, 15, 16],
        results[:1] + results[2:3],
        StandingsConfig(order=("efectiveness",), target=151),
    )
    eff = {r.entrant: r.metrics["efectiveness"] for r in rows}
    assert eff == {11: 1, 12: -1, 15: 75.5, 16: -151}


def test_match_points_settings_and_double_forfeit():
    """(rules.md S25, S33) Match points settings and double forfeit."""
    results = [
        R(1, 1, 2, 200, 0, winner=1, forfeit=True),
        R(1, 3, 4, 0, 0, winner=None, forfeit=True),
        R(1, 5, 6, 200, 100, winner=6),  # a winner with fewer points (fines deducted)
        R(1, 7, None, 200, 0, winner=7),
    ]
    cfg = StandingsConfig(
        order=("match_points",),
        win_points=3,
        loss_points=1,
        forfeit_win_points=3,
        forfeit_loss_points=-1,
        bye_points=2,
    )
    mp = {
        r.entrant: r.metrics["match_points"] for r in compute_standings(range(1, 8), results, cfg)
    }
    assert mp == {1: 3, 2: -1, 3: -1, 4: -1, 5: 1, 6: 3, 7: 2}


def test_individual_event_ranks_players_with_tuple_sides():
    """(rules.md S26) Individual event ranks players with tuple sides."""
    results = [
        R(1, (1, 2), (3, 4), 200, 150, winner=(1, 2)),
        R(1, (5, 6), (7, 8), 180, 200, winner=8),  # any player of the winning pair names it
        R(2, (1, 3), (5, 7), 200, 100, winner=1),
        R(2, (2, 4), (6, 8), 200, 0, winner=(2, 4), forfeit=True, forfeited_by=6),
    ]
    rows = compute_standings(range(1, 9), results)
    by = {r.entrant: r.metrics for r in rows}
    assert {p: by[p]["match_points"] for p in by} == {
        1: 4,
        2: 4,
        3: 2,
        4: 2,
        5: 0,
        6: 0,
        7: 2,
        8: 2,
    }
    # player 1 met 3 and 4 (2 + 2), then 5 and 7 (0 + 2): Buchholz 6
    assert by[1]["buchholz"] == 6 and by[3]["buchholz"] == 4 + 4 + 2
    assert by[2]["efectiveness"] == 50 + 100 and by[6]["efectiveness"] == -20 - 200
    # 1 and 2 both have 4 points; point difference: 1 has +50 +100, 2 has +50 +200
    assert [(r.entrant, r.metrics["point_difference"]) for r in rows[:2]] == [(2, 250), (1, 150)]
    # head-to-head between partners: they never were opponents
    rows = compute_standings([1, 2], results, StandingsConfig(order=("head_to_head",)))
    assert [(r.rank, r.shared, r.metrics["head_to_head"]) for r in rows] == [(1, True, 0)] * 2


@pytest.mark.parametrize(
    "bad",
    [
        R(1, 1, 2, 200, 100, winner=None),
        R(1, 1, 2, 200, 100, winner=9),
        R(1, 1, 2, 200, 0, winner=1, forfeit=True, forfeited_by=1),
    ],
)
def test_inconsistent_results_are_bugs(bad):
    with pytest.raises(ValueError):
        compute_standings([1, 2], [bad])


def test_config_validation():
    with pytest.raises(ValueError):
        StandingsConfig(order=("match_points", "elo"))
    with pytest.raises(ValueError):
        StandingsConfig(order=("wins", "wins"))
    with pytest.raises(ValueError):
        compute_standings([1, 1], [])


def test_unlisted_entrants_count_for_buchholz_and_untouched_entrants_rank_last():
    results = [R(1, 1, 9, 200, 10, winner=9), R(2, 9, 2, 200, 10, winner=9)]
    rows = compute_standings([1, 2, 3], results, StandingsConfig(order=("buchholz", "points_for")))
    assert [(r.entrant, r.rank, r.metrics["buchholz"]) for r in rows] == [
        (1, 1, 4),
        (2, 2, 4),
        (3, 3, 0),
    ]


def test_metric_classes_are_declarative():
    for key, metric in METRICS.items():
        assert metric.key == key and metric.name and metric.abbr
    assert METRICS["fines"].higher_is_better is False
    assert METRICS["points_against"].higher_is_better is False
    assert METRICS["head_to_head"].needs_group is True
