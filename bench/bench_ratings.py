"""Benchmark of the rating engine alone (no database): a list's history computed from scratch.

A pool of 10,000 players of hidden strengths; 100 events, each of 200–1,000 of them (some
players play often, some seldom) over 7–9 rounds of an individual format: four at a table,
partners drawn by the event's score so far, the stronger pair winning more often. Prints the
median seconds of recomputing the whole list (Glicko-2, the default system, from parties and
from the columns a list reads from the database: ``_columns``; Elo too), wall time and this
process's CPU time (the wall time on a busy machine is mostly waiting):

    .venv/bin/python bench/bench_ratings.py          # 10,000 players x 100 events, 5 runs
    .venv/bin/python bench/bench_ratings.py --quick  # 1,000 players x 10 events, a smoke test

The figures are ``rating_engine_*``: the same list through the database (reading the results,
writing the rows) is ``bench_ratings_db.py``'s ``rating_recompute_*``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from scoring.ratings import RatedParty, compute_history, parameters_for  # noqa: E402
from scoring.ratings.kernel import Columns  # noqa: E402


def event(rng: random.Random, pool: list[str], activity: list[float], strength: dict[str, float]
          ) -> list[RatedParty]:
    """One individual event: its field, 7–9 rounds of four-player parties by score."""
    size = rng.randint(200, 1000) // 4 * 4
    field: set[str] = set()
    while len(field) < size:
        field.update(rng.choices(pool, weights=activity, k=size - len(field)))
    players = sorted(field)
    score = dict.fromkeys(players, 0)
    parties = []
    for _ in range(rng.randint(7, 9)):
        order = sorted(players, key=lambda p: (-score[p], rng.random()))
        for i in range(0, len(order), 4):
            a, b = (order[i], order[i + 3]), (order[i + 1], order[i + 2])
            diff = sum(strength[p] for p in a) - sum(strength[p] for p in b)
            winner = 0 if rng.random() < 1 / (1 + math.exp(-diff / 400)) else 1
            for p in (a, b)[winner]:
                score[p] += 1
            parties.append(RatedParty((a, b), winner))
    return parties


def season(players: int, events: int, seed: int = 17) -> list[list[RatedParty]]:
    """The rated history: ``events`` events drawn from a pool of ``players``."""
    rng = random.Random(seed)
    pool = [str(n) for n in range(1, players + 1)]
    strength = {p: rng.gauss(0, 200) for p in pool}
    activity = [rng.paretovariate(1.5) for _ in pool]
    return [event(rng, pool, activity, strength) for _ in range(events)]


def as_columns(history: list[list[RatedParty]]) -> tuple[list[str], list[Columns]]:
    """The history as a players' list reads it from the database: columns of subject ranks
    (the engine's input without a party object each)."""
    names = sorted({s for period in history for party in period for side in party.sides
                    for s in side})
    rank = {name: i for i, name in enumerate(names)}

    def column(parties: list[RatedParty], side: int, at: int) -> Any:
        return np.fromiter((rank[p.sides[side][at]] for p in parties), np.int64, len(parties))

    return names, [Columns(column(p, 0, 0), column(p, 0, 1), column(p, 1, 0), column(p, 1, 1),
                           np.fromiter((-1 if q.winner is None else q.winner for q in p),
                                       np.int8, len(p)))
                   for p in history]


def main() -> None:
    """Generate the history once, time several full recomputes, print the medians."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    players, events, runs = (1000, 10, 2) if args.quick else (10_000, 100, 5)
    history = season(players, events)
    parties = sum(len(p) for p in history)
    rated = len({s for period in history for party in period for side in party.sides
                 for s in side})
    print(f"# {events} events, {parties} parties, {rated} players rated", flush=True)
    names, columns = as_columns(history)
    for system, name, periods in (("glicko2", "", history), ("glicko2", "_columns", columns),
                                  ("elo", "_elo", history)):
        params = parameters_for(system, {})
        times, cpu = [], []
        for _ in range(runs):
            started, started_cpu = time.perf_counter(), time.process_time()
            compute_history(system, params, periods, names=names if periods is columns else None)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
        label = f"rating_engine_{players}_players_{events}_events{name}"
        print(f"BENCH {label}_s {statistics.median(times):.3f} s", flush=True)
        # the CPU time of this process alone: what the wall time is on an idle machine
        print(f"BENCH {label}_cpu_s {statistics.median(cpu):.3f} s", flush=True)


if __name__ == "__main__":
    main()
