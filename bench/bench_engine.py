"""Benchmark of the draw and standings engines alone (no database).

Simulates whole tournaments with random but plausible party results, ranking the field
between rounds with the standings engine, and prints median seconds per round:

    .venv/bin/python bench/bench_engine.py          # 100, 500, 1,000 pairs x 15; 2,000 players x 9
    .venv/bin/python bench/bench_engine.py --quick  # small sizes, a smoke test

Targets on a 2-core machine: Swiss 1,000 pairs <= 0.1 s per round, individual 2,000 players
<= 1 s per round, standings 1,000 x 15 <= 0.1 s, 0 rematches and 0 repeat partners.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.standings import PartyResult, StandingsConfig, compute_standings  # noqa: E402
from tournaments.pairing import Entrant, PlayerEntrant, individual_draw, swiss_draw  # noqa: E402

CFG = StandingsConfig()
TARGET = CFG.target


def bench(name: str, value: float, unit: str = "s") -> None:
    """Print one figure in the BENCH format."""
    if unit == "s":
        print(f"BENCH {name} {value:.4f} s", flush=True)
    else:
        print(f"BENCH {name} {int(value)} {unit}", flush=True)


def play_party(rng: random.Random, strength_a: float, strength_b: float) -> tuple:
    """Return (points_a, points_b, a_won, forfeit, forfeited_by_a, by_time, fine_a, fine_b)."""
    if rng.random() < 0.01:  # a no-show
        a_shows = rng.random() < 0.5
        return (
            (TARGET, 0, True, True, False, False, 0, 0)
            if a_shows
            else (0, TARGET, False, True, True, False, 0, 0)
        )
    a_won = rng.random() < 1 / (1 + math.exp(-(strength_a - strength_b)))
    by_time = rng.random() < 0.1
    if by_time:
        win = rng.randint(60, 199)
        lose = rng.randint(0, win - 1)
    else:
        win = TARGET + rng.choice((0, rng.randint(1, 60)))
        lose = rng.randint(0, TARGET - 1)
    fine_w = 25 if rng.random() < 0.03 else 0
    fine_l = 25 if rng.random() < 0.03 else 0
    if a_won:
        return (win, lose, True, False, False, by_time, fine_w, fine_l)
    return (lose, win, False, False, False, by_time, fine_l, fine_w)


def result(rnd: int, a, b, rng: random.Random, sa: float, sb: float) -> PartyResult:
    """A random plausible party result between sides a and b."""
    pa, pb, a_won, forfeit, by_a, by_time, fa, fb = play_party(rng, sa, sb)
    return PartyResult(
        rnd,
        a,
        b,
        pa,
        pb,
        winner=a if a_won else b,
        forfeit=forfeit,
        forfeited_by=(a if by_a else b) if forfeit else None,
        ended_by_time=by_time,
        fines_a=fa,
        fines_b=fb,
    )


def swiss_tournament(n: int, rounds: int, seed: int) -> tuple[list[float], int, list[PartyResult]]:
    """Play a whole Swiss event; return draw times per round, rematches and all results."""
    rng = random.Random(seed)
    ids = list(range(1, n + 1))
    strength = {i: rng.gauss(0, 1) for i in ids}
    opponents: dict[int, set[int]] = {i: set() for i in ids}
    byes = dict.fromkeys(ids, 0)
    results: list[PartyResult] = []
    times: list[float] = []
    rematches = 0
    order = ids
    score = dict.fromkeys(ids, 0)
    for rnd in range(1, rounds + 1):
        entrants = [
            Entrant(
                i,
                rank=k,
                score=score[i],
                rating=round(1500 + 200 * strength[i]),
                had_bye=byes[i],
                opponents=frozenset(opponents[i]),
            )
            for k, i in enumerate(order)
        ]
        start = time.perf_counter()
        draw = swiss_draw(entrants, round_number=rnd)
        times.append(time.perf_counter() - start)
        for p in draw.parties:
            rematches += p.b in opponents[p.a]
            opponents[p.a].add(p.b)
            opponents[p.b].add(p.a)
            results.append(result(rnd, p.a, p.b, rng, strength[p.a], strength[p.b]))
        for b in draw.byes:
            byes[b] += 1
            results.append(PartyResult(rnd, b, None, TARGET, 0, winner=b))
        rows = compute_standings(ids, results, CFG)
        order = [r.entrant for r in rows]
        score = {r.entrant: r.metrics["match_points"] for r in rows}
    return times, rematches, results


def individual_tournament(n: int, rounds: int, seed: int) -> tuple[list[float], int, int]:
    """Play a whole individual event; return draw times, repeat partners, repeat opponents."""
    rng = random.Random(seed)
    ids = list(range(1, n + 1))
    strength = {i: rng.gauss(0, 1) for i in ids}
    partners: dict[int, set[int]] = {i: set() for i in ids}
    opponents: dict[int, set[int]] = {i: set() for i in ids}
    byes = dict.fromkeys(ids, 0)
    results: list[PartyResult] = []
    times: list[float] = []
    repeat_partners = repeat_opponents = 0
    order = ids
    score = dict.fromkeys(ids, 0)
    for rnd in range(1, rounds + 1):
        players = [
            PlayerEntrant(
                i,
                rank=k,
                score=score[i],
                rating=round(1500 + 200 * strength[i]),
                had_bye=byes[i],
                partners=frozenset(partners[i]),
                opponents=frozenset(opponents[i]),
            )
            for k, i in enumerate(order)
        ]
        start = time.perf_counter()
        draw = individual_draw(players, round_number=rnd)
        times.append(time.perf_counter() - start)
        for t in draw.tables:
            for x, y in (t.pair_a, t.pair_b):
                repeat_partners += y in partners[x]
                partners[x].add(y)
                partners[y].add(x)
            for x in t.pair_a:
                for y in t.pair_b:
                    repeat_opponents += y in opponents[x]
                    opponents[x].add(y)
                    opponents[y].add(x)
            sa = sum(strength[x] for x in t.pair_a) / 2
            sb = sum(strength[x] for x in t.pair_b) / 2
            results.append(result(rnd, t.pair_a, t.pair_b, rng, sa, sb))
        for b in draw.byes:
            byes[b] += 1
            results.append(PartyResult(rnd, b, None, TARGET, 0, winner=b))
        rows = compute_standings(ids, results, CFG)
        order = [r.entrant for r in rows]
        score = {r.entrant: r.metrics["match_points"] for r in rows}
    return times, repeat_partners, repeat_opponents


def time_standings(ids: list[int], results: list[PartyResult], repeat: int = 7) -> float:
    """Median seconds to compute the final standings from every result."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        compute_standings(ids, results, CFG)
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> None:
    """Run the benchmark and print the BENCH lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    sizes, rounds = ((20, 50, 100), 7) if args.quick else ((100, 500, 1000), 15)
    players, player_rounds = (200, 5) if args.quick else (2000, 9)
    for n in sizes:
        times, rematches, results = swiss_tournament(n, rounds, args.seed + n)
        bench(f"draw_swiss_{n}_engine_s", statistics.median(times))
        bench(f"rematches_swiss_{n}", rematches, "rematches")
        bench(f"standings_{n}x{rounds}_engine_s", time_standings(list(range(1, n + 1)), results))
    times, partners, opponents = individual_tournament(players, player_rounds, args.seed)
    bench(f"draw_individual_{players}_engine_s", statistics.median(times))
    bench(f"repeat_partners_individual_{players}", partners, "partners")
    bench(f"repeat_opponents_individual_{players}", opponents, "opponents")


if __name__ == "__main__":
    main()
