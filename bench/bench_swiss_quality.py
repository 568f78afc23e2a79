"""Benchmark of the Swiss draw's quality (no database): endgame rematches and score gaps.

    .venv/bin/python bench/bench_swiss_quality.py                   # the acceptance run
    .venv/bin/python bench/bench_swiss_quality.py --quick           # a smoke test
    .venv/bin/python bench/bench_swiss_quality.py --before-ref main # "before" = that revision

1. Endgame: 300 simulated events each of 8, 10, 12 and 16 pairs playing n-1 rounds. A rematch
   is *avoidable* when an exact search (below, written apart from the engine's) finds a
   rematch-free completion of the remaining rounds from the state before the round that broke
   it: the rematch's own round or, walking back, the last one that started from a state that
   could still finish rematch-free. "Before" is the engine without the endgame check (or the
   engine of ``--before-ref``, read from git), "after" the engine given the planned rounds.
2. Score gaps: 100, 500 and 1,000 pairs over 15 rounds; every round the engine's sum of
   squared score gaps against the exact optimum of the same field (rustworkx's
   ``max_weight_matching`` over the parties allowed, banded to |score gap| <= 6, i.e. three
   score groups, widened where that leaves no complete draw), as a percentage over the
   whole event (rounds 2-15; round 1 has no score gaps; five events at 100 pairs). At 500
   and 1,000 pairs the matcher runs only in rounds where the engine is above the floor no
   draw can beat (an odd count above a score gap sends one party across it); at 100 pairs
   in every round.

Targets: ``swiss_endgame_avoidable_rematches`` 0; ``swiss_sq_gap_vs_optimal_pct`` <= 2.
"""

from __future__ import annotations

import argparse
import importlib
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rustworkx as rx  # noqa: E402
from bench_engine import CFG, bench, result  # noqa: E402

from scoring.standings import compute_standings  # noqa: E402
from tournaments.pairing import Draw, Entrant, swiss_draw  # noqa: E402
from tournaments.pairing.floats import lower_bound  # noqa: E402

BAND = 6
EVENTS = {100: 5}
"""Events per size of the score-gap part (one for the larger fields, where it is slow)."""


# -- the exact completion search (an edge colouring, independent of the engine's) -----------
class Unknown(Exception):
    """The search ran out of its budget."""


def rematch_free_rounds_exist(met: dict[int, set[int]], rounds: int, budget: int) -> bool:
    """Whether ``rounds`` more rounds without a rematch exist (an even field, no byes).

    Colours the edges of the "not met yet" graph with ``rounds`` colours so that every entrant
    has exactly one edge of every colour. Raises :class:`Unknown` past ``budget`` steps.
    """
    ids = sorted(met)
    free = {v: {u for u in ids if u != v and u not in met[v]} for v in ids}
    colour_at: dict[int, dict[int, int]] = {v: {} for v in ids}  # v -> colour -> partner
    steps = [budget]

    def solve() -> bool:
        steps[0] -= 1
        if steps[0] < 0:
            raise Unknown
        best = None
        for v in ids:
            missing = [c for c in range(rounds) if c not in colour_at[v]]
            if missing:
                c = missing[0]
                options = [u for u in free[v] if c not in colour_at[u]]
                if best is None or len(options) < len(best[2]):
                    best = (v, c, options)
                if not options:
                    return False
        if best is None:
            return True
        v, c, options = best  # v needs an edge of colour c: try every partner for it
        for u in options:
            colour_at[v][c] = u
            colour_at[u][c] = v
            free[v].discard(u)
            free[u].discard(v)
            if solve():
                return True
            del colour_at[v][c], colour_at[u][c]
            free[v].add(u)
            free[u].add(v)
        return False

    return solve()


# -- endgame events --------------------------------------------------------------------------
def play_event(n: int, seed: int, draw: Callable, budget: int) -> tuple[int, int, int]:
    """One event of n pairs over n-1 rounds: (rematches, avoidable ones, unknown checks).

    A rematch in round q is avoidable when, walking back from q, some round r <= q started
    from a state with a rematch-free completion (so r's draw broke it).
    """
    rng = random.Random(seed)
    strength = {i: rng.gauss(0, 0.5) for i in range(1, n + 1)}
    score = dict.fromkeys(strength, 0)
    met: dict[int, set[int]] = {i: set() for i in strength}
    rounds = n - 1
    rematches = avoidable = unknown = 0
    before: list[dict[int, set[int]]] = []
    for rnd in range(1, rounds + 1):
        before.append({i: set(o) for i, o in met.items()})
        order = sorted(strength, key=lambda i: (-score[i], -strength[i]))
        entrants = [
            Entrant(i, rank=k, score=score[i], rating=strength[i], opponents=frozenset(met[i]))
            for k, i in enumerate(order)
        ]
        parties = draw(entrants, rnd, rounds).parties
        here = sum(1 for p in parties if p.b in met[p.a])
        if here:
            rematches += here
            try:
                if any(
                    rematch_free_rounds_exist(before[r - 1], rounds - r + 1, budget)
                    for r in range(rnd, 0, -1)
                ):
                    avoidable += here
            except Unknown:
                unknown += 1
        for p in parties:
            met[p.a].add(p.b)
            met[p.b].add(p.a)
            a_wins = rng.random() < 1 / (1 + 10 ** (strength[p.b] - strength[p.a]))
            score[p.a if a_wins else p.b] += 2
    return rematches, avoidable, unknown


def engine_at(ref: str | None) -> Callable | None:
    """``swiss_draw`` of a git revision (its pairing package copied aside), or None."""
    if ref is None:
        return None
    folder = Path(tempfile.mkdtemp()) / "pairing_before"
    folder.mkdir()
    names = subprocess.run(
        ["git", "ls-tree", "--name-only", f"{ref}:tournaments/pairing"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout.split()
    for name in names:
        text = subprocess.run(
            ["git", "show", f"{ref}:tournaments/pairing/{name}"],
            cwd=ROOT, check=True, capture_output=True, text=True,
        ).stdout
        (folder / name).write_text(text)
    sys.path.insert(0, str(folder.parent))
    return importlib.import_module("pairing_before").swiss_draw


def endgame(sizes: tuple[int, ...], events: int, before_ref: str | None, budget: int) -> None:
    """Print the endgame figures, before and after."""
    old = engine_at(before_ref)

    def before(entrants: list[Entrant], rnd: int, _rounds: int) -> Draw:
        if old is not None:
            return old(entrants, round_number=rnd)
        return swiss_draw(entrants, round_number=rnd)

    def after(entrants: list[Entrant], rnd: int, rounds: int) -> Draw:
        return swiss_draw(entrants, round_number=rnd, rounds_planned=rounds)

    total_avoidable = 0
    for label, draw in (("before", before), ("after", after)):
        for n in sizes:
            started = time.perf_counter()
            runs = [play_event(n, 1000 * n + s, draw, budget) for s in range(events)]
            spent = time.perf_counter() - started
            with_any = sum(1 for r, _a, _u in runs if r)
            avoidable = sum(a for _r, a, _u in runs)
            unknown = sum(u for _r, _a, u in runs)
            bench(f"swiss_endgame_{n}_events_with_rematch_{label}", with_any, "events")
            bench(f"swiss_endgame_{n}_avoidable_rematches_{label}", avoidable, "rematches")
            if unknown:
                bench(f"swiss_endgame_{n}_unknown_checks_{label}", unknown, "checks")
            bench(f"swiss_endgame_{n}_draw_mean_{label}_s", spent / (events * (n - 1)))
            if label == "after":
                total_avoidable += avoidable
    bench("swiss_endgame_avoidable_rematches", total_avoidable, "rematches")


# -- score gaps against the exact optimum ----------------------------------------------------
def optimum(entrants: list[Entrant], band: float = BAND) -> int:
    """The smallest sum of squared score gaps of a draw without a rematch (an even field).

    Parties are allowed up to ``band`` apart; where that leaves no complete draw, the band
    is doubled (to the whole field at last).
    """
    graph = rx.PyGraph()
    index = graph.add_nodes_from([e.id for e in entrants])
    ordered = sorted(range(len(entrants)), key=lambda k: -entrants[k].score)
    for pos, k in enumerate(ordered):
        x = entrants[k]
        for j in ordered[pos + 1 :]:
            y = entrants[j]
            gap = x.score - y.score
            if gap > band:
                break
            if y.id not in x.opponents:
                graph.add_edge(index[k], index[j], int(gap * gap))
    big = int(band * band) + 1 if band != float("inf") else 10**9
    matching = rx.max_weight_matching(
        graph, max_cardinality=True, weight_fn=lambda w: big - w, verify_optimum=False
    )
    if 2 * len(matching) != len(entrants):
        spread = max(e.score for e in entrants) - min(e.score for e in entrants)
        if band >= spread:
            raise RuntimeError("no draw without a rematch exists")
        return optimum(entrants, band * 2 if band * 2 < spread else float("inf"))
    return sum(int((entrants[a].score - entrants[b].score) ** 2) for a, b in matching)


def gap_event(
    n: int, rounds: int, seed: int, always_exact: bool = True
) -> tuple[int, int, int, list[float]]:
    """Play a Swiss event; return the engine's and the optimum's total squared gap, the
    rounds the exact matcher ran and the draw seconds.

    Without ``always_exact`` the matcher runs only where the engine's cost is above the
    floor no draw can beat (:func:`lower_bound`): at the floor the engine is optimal.
    """
    rng = random.Random(seed)
    ids = list(range(1, n + 1))
    strength = {i: rng.gauss(0, 1) for i in ids}
    met: dict[int, set[int]] = {i: set() for i in ids}
    results, times = [], []
    order, score = ids, dict.fromkeys(ids, 0)
    engine_total = best_total = exact_runs = 0
    for rnd in range(1, rounds + 1):
        entrants = [
            Entrant(i, rank=k, score=score[i], rating=round(1500 + 200 * strength[i]),
                    opponents=frozenset(met[i]))
            for k, i in enumerate(order)
        ]
        started = time.perf_counter()
        draw = swiss_draw(entrants, round_number=rnd, rounds_planned=rounds)
        times.append(time.perf_counter() - started)
        if rnd > 1:
            cost = sum(int((score[p.a] - score[p.b]) ** 2) for p in draw.parties)
            engine_total += cost
            floor = lower_bound(sorted((e.score for e in entrants), reverse=True))
            if always_exact or cost > floor:
                best_total += optimum(entrants)
                exact_runs += 1
            else:
                best_total += cost  # the engine reached the floor: that is the optimum
        for p in draw.parties:
            met[p.a].add(p.b)
            met[p.b].add(p.a)
            results.append(result(rnd, p.a, p.b, rng, strength[p.a], strength[p.b]))
        rows = compute_standings(ids, results, CFG)
        order = [r.entrant for r in rows]
        score = {r.entrant: r.metrics["match_points"] for r in rows}
    return engine_total, best_total, exact_runs, times


def score_gaps(sizes: tuple[int, ...], rounds: int, seed: int) -> None:
    """Print the squared-gap figures per size and the worst of them."""
    worst = 0.0
    for n in sizes:
        started = time.perf_counter()
        events = [gap_event(n, rounds, seed + n + k, n <= 100) for k in range(EVENTS.get(n, 1))]
        engine_total, best_total, runs = (sum(e[i] for e in events) for i in range(3))
        pct = 100 * (engine_total - best_total) / best_total if best_total else 0.0
        worst = max(worst, pct)
        print(f"# {n} pairs x {rounds}, {len(events)} event(s): engine {engine_total}, "
              f"optimum {best_total}, "
              f"exact matcher in {runs} rounds ({time.perf_counter() - started:.1f} s)",
              flush=True)
        print(f"BENCH swiss_sq_gap_vs_optimal_pct_{n} {pct:.2f} %", flush=True)
    print(f"BENCH swiss_sq_gap_vs_optimal_pct {worst:.2f} %", flush=True)


def main() -> None:
    """Run both parts and print the BENCH lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--before-ref", help="git revision whose engine is 'before'")
    parser.add_argument("--budget", type=int, default=2_000_000,
                        help="steps of one exact completion search")
    args = parser.parse_args()
    if args.quick:
        endgame((8, 10), 20, args.before_ref, args.budget)
        score_gaps((100,), 7, args.seed)
    else:
        endgame((8, 10, 12, 16), 300, args.before_ref, args.budget)
        score_gaps((100, 500, 1000), 15, args.seed)


if __name__ == "__main__":
    main()
