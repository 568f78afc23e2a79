"""The rating engine against published worked examples, and its properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.ratings import (
    EloParameters,
    Glicko2Parameters,
    Glicko2Rating,
    RatedParty,
    compute_history,
    elo_expected,
    elo_period,
    glicko2_update,
    pairwise_games,
    parameters_for,
    start_state,
)
from scoring.ratings.elo import k_factor
from scoring.ratings.glicko2 import idle


def test_glickman_worked_example() -> None:
    """Glickman's example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300."""
    player = Glicko2Rating(1500, 200, 0.06)
    games = [
        (Glicko2Rating(1400, 30, 0.06), 1.0),
        (Glicko2Rating(1550, 100, 0.06), 0.0),
        (Glicko2Rating(1700, 300, 0.06), 0.0),
    ]
    new = glicko2_update(player, games, Glicko2Parameters(tau=0.5))
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_one_party_moves_both_players_alike() -> None:
    """Two newcomers: the winner gains what the loser loses, both become more certain."""
    p = Glicko2Parameters(deviation=200)
    rows = compute_history("glicko2", p, [[RatedParty((("x",), ("y",)), 0)]])
    x, y = sorted(rows, key=lambda r: r.subject)
    assert x.rating > 1500 > y.rating
    assert x.rating - 1500 == pytest.approx(1500 - y.rating)
    assert x.deviation == pytest.approx(y.deviation) and x.deviation < 200


def test_an_idle_period_grows_the_deviation_only() -> None:
    """Step 6 for a player who did not play: RD' = sqrt(RD² + σ²) on the Glicko-2 scale."""
    before = Glicko2Rating(1500, 200, 0.06)
    after = glicko2_update(before, [], Glicko2Parameters())
    assert after.rating == 1500
    assert after.deviation == pytest.approx(200.2714, abs=0.001)
    assert idle(before, 2, Glicko2Parameters()).deviation > after.deviation


def test_a_gap_grows_the_deviation_in_the_history() -> None:
    """A subject who missed tournaments comes back less certain than one who did not."""
    win = RatedParty((("a",), ("b",)), 0)
    steady = compute_history("glicko2", Glicko2Parameters(), [[win], [win], [win]])
    gap = compute_history("glicko2", Glicko2Parameters(), [[win], [], [win]])
    assert [r.period for r in gap if r.subject == "a"] == [1, 3]
    change_steady = steady[-2].rating - steady[-4].rating
    change_gap = gap[-2].rating - gap[0].rating
    assert gap[-2].subject == "a" and change_gap > change_steady


def test_elo_expected_score_fide_table() -> None:
    """FIDE's table: a difference of 200 points expects 0.24 (0.76 for the stronger)."""
    assert elo_expected(1500, 1700) == pytest.approx(0.24, abs=0.005)
    assert elo_expected(1700, 1500) == pytest.approx(0.76, abs=0.005)
    assert elo_expected(1600, 1600) == 0.5


def test_elo_worked_example() -> None:
    """A 1500 newcomer (K 40) beats a 1700: 1500 + 40 · (1 − 0.2403) = 1530.39."""
    assert elo_period(1500, 0, [(1700, 1.0, 1.0)]) == pytest.approx(1530.39, abs=0.01)
    # an established player (K 20) loses to the 1500: 1700 + 20 · (0 − 0.7597) = 1684.81
    assert elo_period(1700, 40, [(1500, 0.0, 1.0)]) == pytest.approx(1684.81, abs=0.01)


def test_k_factor_by_experience_and_rating() -> None:
    """K 40 for the first 30 parties, 20 after, 10 from 2400."""
    p = EloParameters()
    assert k_factor(1500, 29, p) == 40
    assert k_factor(1500, 30, p) == 20
    assert k_factor(2400, 100, p) == 10
    assert k_factor(1500, 10, EloParameters(k_new=30, new_games=5)) == 20


def test_individual_party_rates_each_player_against_both_opponents() -> None:
    """A party of four single players: partners gain alike, the partner is no opponent."""
    rows = compute_history("elo", EloParameters(), [[RatedParty((("a", "b"), ("c", "d")), 0)]])
    by = {r.subject: r for r in rows}
    assert by["a"].rating == by["b"].rating == pytest.approx(1520)
    assert by["c"].rating == by["d"].rating == pytest.approx(1480)
    assert by["a"].games == 1 and by["a"].score == 1 and by["c"].score == 0


def test_each_for_himself_the_winner_beats_everyone_and_the_others_do_not_play() -> None:
    """Three single players: the winner gains against both; the two others lose alike."""
    party = RatedParty((("a",), ("b",), ("c",)), 0)
    by = {r.subject: r for r in compute_history("elo", EloParameters(), [[party]])}
    assert by["a"].rating == pytest.approx(1520)  # K 40 x (1/2 x 0.5 + 1/2 x 0.5)
    assert by["b"].rating == by["c"].rating == pytest.approx(1490)
    assert by["a"].score == 1 and by["b"].score == 0


def test_parameters_are_checked() -> None:
    """Unknown keys and bad values are refused, naming the parameter."""
    assert parameters_for("elo", {"k": 16}).k == 16
    with pytest.raises(ValueError, match="kk"):
        parameters_for("elo", {"kk": 16})
    with pytest.raises(ValueError, match="tau"):
        parameters_for("glicko2", {"tau": "x"})
    with pytest.raises(ValueError, match="tau"):
        parameters_for("glicko2", {"tau": 0})
    with pytest.raises(ValueError, match="object"):
        parameters_for("elo", [("k", 16)])  # pairs are not an object of names


SUBJECTS = [str(n) for n in range(8)]


@st.composite
def periods(draw: st.DrawFn, team: int = 1) -> list[list[RatedParty]]:
    """A few periods of parties between distinct subjects of a closed pool."""
    out = []
    for _ in range(draw(st.integers(1, 4))):
        parties = []
        for _ in range(draw(st.integers(0, 6))):
            chosen = draw(st.permutations(SUBJECTS))[: 2 * team]
            winner = draw(st.sampled_from([0, 1, None]))
            parties.append(RatedParty((tuple(chosen[:team]), tuple(chosen[team:])), winner))
        out.append(parties)
    return out


@settings(max_examples=60, deadline=None)
@given(periods(), st.integers(1, 2))
def test_elo_with_one_k_conserves_the_sum(history: list[list[RatedParty]], team: int) -> None:
    """With one K for everyone, the sum of the pool's ratings never changes."""
    p = EloParameters(k_new=24, k=24, k_top=24)
    rows = compute_history("elo", p, history)
    current: dict[str, float] = {}
    for row in rows:
        current[row.subject] = row.rating
    assert sum(current.values()) == pytest.approx(1500 * len(current), abs=1e-6)


@settings(max_examples=60, deadline=None)
@given(periods(team=2), st.randoms(use_true_random=False))
def test_glicko2_within_a_period_ignores_the_order(history: list[list[RatedParty]], rnd) -> None:
    """Shuffling the parties inside each period gives the same ratings, to the bit."""
    shuffled = [rnd.sample(parties, len(parties)) for parties in history]
    assert compute_history("glicko2", Glicko2Parameters(), history) == compute_history(
        "glicko2", Glicko2Parameters(), shuffled
    )


@settings(max_examples=40, deadline=None)
@given(periods(), st.sampled_from(["elo", "glicko2"]))
def test_recomputing_from_scratch_is_deterministic(history, system: str) -> None:
    """Two computations of the same history give equal rows."""
    p = parameters_for(system, {})
    assert compute_history(system, p, history) == compute_history(system, p, history)


@st.composite
def mixed_periods(draw: st.DrawFn) -> list[list[RatedParty]]:
    """Periods of pairs' parties, singles' and three-handed ones, draws among them."""
    out = []
    for _ in range(draw(st.integers(1, 6))):
        parties = []
        for _ in range(draw(st.integers(0, 5))):
            chosen = draw(st.permutations(SUBJECTS))
            shape = draw(st.sampled_from([(1, 1), (2, 2), (1, 1, 1), (2, 1)]))
            sides, at = [], 0
            for size in shape:
                sides.append(tuple(chosen[at:at + size]))
                at += size
            winner = draw(st.sampled_from([*range(len(shape)), None]))
            parties.append(RatedParty(tuple(sides), winner))
        out.append(parties)
    return out


@settings(max_examples=80, deadline=None)
@given(mixed_periods(), st.sampled_from(["elo", "glicko2"]), st.integers(1, 6))
def test_a_run_from_a_stored_state_equals_the_run_from_scratch(history, system: str,
                                                               first: int) -> None:
    """Periods from ``first`` on, started from the rows before it, give the same rows."""
    first = min(first, len(history))
    p = parameters_for(system, {})
    full = compute_history(system, p, history)
    start = start_state(system, [row for row in full if row.period < first])
    assert compute_history(system, p, history[first - 1:], first=first, start=start) == [
        row for row in full if row.period >= first]


def _reference_history(history: list[list[RatedParty]], p: Glicko2Parameters
                       ) -> dict[tuple[str, int], tuple[float, float, float]]:
    """Glicko-2 a subject at a time with the paper's function (:func:`glicko2_update`): each
    subject's rating, RD and volatility after each period he played in."""
    from scoring.ratings.glicko2 import idle

    rating: dict[str, Glicko2Rating] = {}
    last: dict[str, int] = {}
    out = {}
    for period, parties in enumerate(history, start=1):
        games: dict[str, list[tuple[str, float]]] = {}
        for party in parties:
            for subject, opponent, score, _weight in pairwise_games(party):
                games.setdefault(subject, []).append((opponent, score))
            for side in party.sides:
                for subject in side:
                    games.setdefault(subject, [])
        before = {}
        for subject in games:
            known = rating.get(subject, Glicko2Rating(p.initial, p.deviation, p.volatility))
            before[subject] = idle(known, period - last.get(subject, period - 1) - 1, p)
        for subject, played in games.items():
            new = glicko2_update(before[subject], [(before[o], s) for o, s in played], p)
            rating[subject], last[subject] = new, period
            out[subject, period] = (new.rating, new.deviation, new.volatility)
    return out


@settings(max_examples=60, deadline=None)
@given(mixed_periods())
def test_the_list_kernel_computes_glickmans_update(history: list[list[RatedParty]]) -> None:
    """Every row of a history equals the paper's update applied subject by subject (to 1e-9):
    the array kernel is Glicko-2, idle periods and parties of more sides included."""
    p = Glicko2Parameters()
    expected = _reference_history(history, p)
    rows = compute_history("glicko2", p, history)
    assert {(row.subject, row.period) for row in rows} == set(expected)
    for row in rows:
        rating, deviation, volatility = expected[row.subject, row.period]
        assert row.rating == pytest.approx(rating, rel=1e-9, abs=1e-9)
        assert row.deviation == pytest.approx(deviation, rel=1e-9, abs=1e-9)
        assert row.volatility == pytest.approx(volatility, rel=1e-9, abs=1e-12)


def test_columns_and_parties_give_the_same_rows() -> None:
    """A period given as columns of ranks rates exactly as the same parties listed."""
    import numpy as np

    from scoring.ratings.kernel import Columns

    names = ["1", "2", "3", "4", "5"]
    parties = [RatedParty((("1", "2"), ("3", "4")), 0), RatedParty((("5",), ("1", "3")), None),
               RatedParty((("2", "4"), ("5",)), 1)]
    columns = Columns(np.array([0, 4, 1]), np.array([1, -1, 3]), np.array([2, 0, 4]),
                      np.array([3, 2, -1]), np.array([0, -1, 1], dtype=np.int8))
    for system in ("glicko2", "elo"):
        p = parameters_for(system, {})
        listed = compute_history(system, p, [parties, parties])
        assert compute_history(system, p, [columns, parties], names=names) == listed
