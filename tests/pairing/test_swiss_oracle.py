"""Swiss draw against a library oracle: networkx minimum-weight perfect matching.

The engine states no numeric cost. Its rule is "pair inside the score group, float as few
as possible to the nearest group", so here a party costs its score gap
``|score_a - score_b|`` and a draw costs the sum over its parties. The oracle builds the
cheapest draw without a rematch over the whole field (rematch edges left out). It places
the bye the way the engine does: on the lowest-ranked entrant with the fewest byes. Only
when no rematch-free draw is left that way may the bye go to any entrant with the fewest
byes (a virtual "bye" vertex joined to each of them at no cost, as in the engine's exact
fallback).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import Draw, Entrant, Pairing, swiss_draw

from .helpers import check_draw_shape, perfect_matchings, ranked_field, record, simulate_results

# The bound on the engine's total score gap: cost <= RATIO * oracle + SLACK.
# Measured first (2 match points a win, so one float across one score group costs 2):
# - 1,000 fields made as this test makes them (seeds 0-999: 50-200 pairs, 482 of them odd,
#   1-6 rounds played, every method with Swiss-drawn and random histories): the engine's
#   cost equalled the oracle's every time (largest ratio 1.00, largest excess 0);
# - 400 fields after 7-14 rounds (outside this test, slower): equal in 389; in 11 the
#   engine paid exactly 4 more (two one-group floats too many, or one across two groups),
#   a ratio up to 1.50 (12 against 8).
# The bound leaves room over both: 10 % plus 4 (two extra one-group floats).
RATIO = 1.10
SLACK = 4

BYE = "bye"
WINDOW = 8  # the first, smaller graph: parties of entrants at most 8 places apart


@dataclass
class Oracle:
    """The cheapest rematch-free draw (cost None when there is none) and its bye."""

    cost: float | None
    pairs: list[tuple[int, int]]
    bye: int | None = None


def field_after(n: int, played: int, seed: int, history: str, method: str) -> list[Entrant]:
    """A field of n pairs after ``played`` rounds, drawn by the engine or at random."""
    rng = random.Random(seed)
    strength = {i: rng.gauss(0, 0.5) for i in range(1, n + 1)}
    score = dict.fromkeys(strength, 0)
    opp: dict[int, set[int]] = {i: set() for i in strength}
    byes = dict.fromkeys(strength, 0)
    for rnd in range(1, played + 2):
        entrants = ranked_field(strength, score, opp, byes)
        order = [e.id for e in entrants]
        if rnd > played:
            return entrants
        if history == "swiss":
            draw = swiss_draw(entrants, round_number=rnd, pairing=method)
        else:  # anyone may have met anyone: random parties, the bye to one of the fewest
            ids = list(order)
            rng.shuffle(ids)
            bye = [min(ids, key=lambda i: byes[i])] if n % 2 else []
            rest = [i for i in ids if i not in bye]
            draw = Draw([Pairing(a, b) for a, b in zip(rest[::2], rest[1::2], strict=True)], bye)
        record(draw, opp, byes)
        for e, pts in simulate_results(draw, strength, rng).items():
            score[e] += pts
    raise AssertionError("unreachable")


def oracle(entrants: list[Entrant], window: int = WINDOW) -> Oracle:
    """The cheapest rematch-free draw by minimum-weight perfect matching (module doc)."""
    ordered = sorted(entrants, key=lambda e: (-e.score, e.rank, e.id))
    if len(ordered) % 2 == 0:
        return _match(ordered, [], window)
    fewest = min(e.had_bye for e in ordered)
    candidates = [e.id for e in ordered if e.had_bye == fewest]
    best = _match([e for e in ordered if e.id != candidates[-1]], [], window)
    if best.cost is not None:
        best.bye = candidates[-1]
        return best
    return _match(ordered, candidates, window)


def _match(playing: list[Entrant], byes: list[int], window: int) -> Oracle:
    """Minimum-weight perfect matching, first over parties of near places in score order.

    That smaller graph is only a speed-up: its optimum is taken when it reaches the lower
    bound of any draw (:func:`gap_lower_bound`), else the whole field's graph decides.
    """
    if not byes:
        near = _solve(playing, byes, window=window)
        if near.cost is not None and near.cost == gap_lower_bound(playing):
            return near
    return _solve(playing, byes, window=None)


def _solve(playing: list[Entrant], byes: list[int], window: int | None) -> Oracle:
    score = {e.id: e.score for e in playing}
    graph = nx.Graph()
    graph.add_nodes_from(score)
    for k, x in enumerate(playing):
        for y in playing[k + 1 : None if window is None else k + 1 + window]:
            if y.id not in x.opponents:
                graph.add_edge(x.id, y.id, weight=abs(x.score - y.score))
    graph.add_edges_from(((BYE, i) for i in byes), weight=0)
    matching = nx.min_weight_matching(graph)
    if 2 * len(matching) != graph.number_of_nodes():
        return Oracle(None, [])
    pairs = [(a, b) for a, b in matching if BYE not in (a, b)]
    bye = next((b if a == BYE else a for a, b in matching if BYE in (a, b)), None)
    return Oracle(sum(abs(score[a] - score[b]) for a, b in pairs), pairs, bye)


def gap_lower_bound(playing: list[Entrant]) -> float:
    """The cheapest draw of these entrants with rematches allowed: neighbours in score order.

    Between two adjacent score levels, an odd number of entrants above must send at least
    one party across the gap; an even number need send none.
    """
    levels = sorted({e.score for e in playing}, reverse=True)
    bound, above = 0.0, 0
    for high, low in zip(levels, levels[1:], strict=False):
        above += sum(1 for e in playing if e.score == high)
        bound += (high - low) * (above % 2)
    return bound


def draw_cost(draw: Draw, entrants: list[Entrant]) -> float:
    """The draw's total score gap."""
    score = {e.id: e.score for e in entrants}
    return sum(abs(score[p.a] - score[p.b]) for p in draw.parties)


def instance(seed: int) -> tuple[list[Entrant], int, str]:
    """A random field of 50-200 pairs after 1-6 rounds: (field, next round, method).

    Six seeds in a row take every pairing method with either kind of history.
    """
    rng = random.Random(seed)
    n = rng.randint(50, 200)
    played = rng.randint(1, 6)
    method = ("slide", "fold", "adjacent")[seed % 3]
    history = ("swiss", "random")[seed // 3 % 2]
    return field_after(n, played, seed, history, method), played + 1, method


def brute_force(entrants: list[Entrant]) -> float | None:
    """The oracle's answer by trying every draw (small fields only)."""
    ordered = sorted(entrants, key=lambda e: (-e.score, e.rank, e.id))
    by_id = {e.id: e for e in ordered}

    def cheapest(ids: list[int]) -> float | None:
        costs = [
            sum(abs(by_id[a].score - by_id[b].score) for a, b in m)
            for m in perfect_matchings(ids)
            if not any(b in by_id[a].opponents for a, b in m)
        ]
        return min(costs, default=None)

    ids = [e.id for e in ordered]
    if len(ids) % 2 == 0:
        return cheapest(ids)
    fewest = min(e.had_bye for e in ordered)
    candidates = [e.id for e in ordered if e.had_bye == fewest]
    first = cheapest([i for i in ids if i != candidates[-1]])
    if first is not None:
        return first
    costs = [cheapest([i for i in ids if i != c]) for c in candidates]
    return min((c for c in costs if c is not None), default=None)


@st.composite
def small_fields(draw):
    n = draw(st.integers(2, 9))
    scores = sorted(draw(st.lists(st.sampled_from([0, 2, 4, 6, 8]), min_size=n, max_size=n)),
                    reverse=True)
    met = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))))
    opp = {i: {b for a, b in met if a == i} | {a for a, b in met if b == i} for i in range(n)}
    byes = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    return [Entrant(i, rank=i, score=scores[i], had_bye=byes[i],
                    opponents=frozenset(opp[i] - {i})) for i in range(n)]


@settings(max_examples=300, deadline=None)
@given(small_fields(), st.sampled_from([1, 2, WINDOW]))
def test_oracle_agrees_with_brute_force_on_small_fields(entrants, window):
    # narrow windows make the first graph miss the optimum: the whole graph must decide
    assert oracle(entrants, window).cost == brute_force(entrants)


def test_lower_bound_pairs_neighbours_in_score_order():
    entrants = [Entrant(i, rank=i, score=s) for i, s in enumerate([6, 4, 4, 4, 2, 0])]
    assert gap_lower_bound(entrants) == 2 + 2  # 6 floats to a 4, a 4 floats to the 2
    assert oracle(entrants).cost == 4
    # 1 has met both 4s, so it must float further: 6-2 and 4-4, 4-0 cost 4 + 0 + 4
    met = [Entrant(0, 0, 6, opponents=frozenset({1, 2, 3}))]
    met += [Entrant(i, i, s, opponents=frozenset({0})) for i, s in [(1, 4), (2, 4), (3, 4)]]
    met += [Entrant(4, 4, 2), Entrant(5, 5, 0)]
    assert oracle(met).cost == 8 and gap_lower_bound(met) == 4


@pytest.mark.parametrize("seed", range(9))
def test_engine_draw_against_the_matching_oracle(seed):
    entrants, round_number, method = instance(seed)
    draw = swiss_draw(entrants, round_number=round_number, pairing=method)
    check_draw_shape(draw, entrants)
    best = oracle(entrants)
    if best.cost is None:
        return  # no draw without a rematch: the brute-force tests cover the fewest rematches
    opp = {e.id: e.opponents for e in entrants}
    assert not [p for p in draw.parties if p.b in opp[p.a]], "rematch though none is needed"
    cost = draw_cost(draw, entrants)
    if best.bye is None or draw.byes == [best.bye]:
        assert cost >= best.cost  # the oracle is the optimum: less would be a bug in the test
    assert cost <= RATIO * best.cost + SLACK, (len(entrants), method, cost, best.cost)
