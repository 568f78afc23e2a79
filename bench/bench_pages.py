"""Benchmark of the public standings and draw pages, rendered through Django's test client.

Builds pairs tournaments of 100 and 500 pairs through the round-flow services (Swiss draws,
deals and fines bulk-created as in ``bench_draws_db``): several finished rounds and one round
in play, its parties started and half of them with a few deals. Then renders the public
standings page (``/t/<slug>/standings/``) and the table map (``/t/<slug>/draw/``, a QR code
per table) many times as an anonymous visitor and prints:

    BENCH standings_page_500_ms <median ms, 500 pairs>
    BENCH draw_page_500_ms <median ms, 500 pairs>
    BENCH standings_page_queries_100 <queries of one standings page, 100 pairs>
    BENCH standings_page_queries_500 <the same for 500 pairs: equal>

plus the same figures for the other size, the first (cold) rendering and the draw page's
queries as ``#`` lines. The medians are of warm pages: the standings come from the cache the
first rendering filled, as on a live site; the cold rendering computes them.

Runs against PostgreSQL when DATABASE_URL is set (it migrates that database and deletes its
own data at the end), otherwise against a throw-away SQLite file:

    .venv/bin/python bench/bench_pages.py
    .venv/bin/python bench/bench_pages.py --quick    # 20 and 60 pairs, fewer renderings

Target on a 2-core machine: under 100 ms median for 500 pairs, queries equal at 100 and 500.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_draws_db as db_bench  # noqa: E402 - the bench folder is on the path now

db_bench.SQLITE_FILE = Path(tempfile.gettempdir()) / "domino_bench_pages.sqlite3"


def build(n: int, finished: int, seed: int) -> Any:
    """A tournament of ``n`` pairs: ``finished`` rounds closed, the next one in play."""
    from scoring.models import Deal, Party, Tournament
    from tournaments.rounds.draw_services import generate_draw
    from tournaments.rounds.services import close_round, create_round, publish_round, start_round

    rng = random.Random(seed)
    tournament = db_bench.build_tournament(n, finished + 1, seed)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    strength = {pk: rng.gauss(0, 1) for pk in tournament.pairs.values_list("pk", flat=True)}
    for number in range(1, finished + 2):
        rnd = create_round(tournament.pk)
        generate_draw(rnd.pk)
        publish_round(rnd.pk)
        if number <= finished:
            db_bench.play_round(rnd, strength, rng)
            close_round(rnd.pk)
    parties = list(Party.objects.filter(round=rnd, pair_b__isnull=False).order_by("pk"))
    playing = parties[: len(parties) // 2]
    start_round(rnd.pk)
    Deal.objects.bulk_create(
        Deal(party=party, number=k, outcome="domino", winner=side,
             points_a=points if side == "a" else 0, points_b=points if side == "b" else 0)
        for party in playing
        for k, (side, points) in enumerate(
            [(rng.choice("ab"), rng.randint(10, 60)) for _ in range(rng.randint(1, 4))],
            start=1,
        )
    )
    return Tournament.objects.get(pk=tournament.pk)


def render(client: Any, url: str) -> tuple[float, int, int]:
    """One rendering: milliseconds, queries, bytes (the page must answer 200)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        response = client.get(url)
        elapsed = (time.perf_counter() - start) * 1000
    if response.status_code != 200:
        raise RuntimeError(f"{url} answered {response.status_code}")
    return elapsed, len(queries), len(response.content)


def measure(client: Any, url: str, repeat: int) -> dict[str, float]:
    """The cold first rendering, then the median of ``repeat`` warm ones."""
    cold_ms, cold_queries, size = render(client, url)
    runs = [render(client, url) for _ in range(repeat)]
    return {
        "cold_ms": cold_ms,
        "cold_queries": cold_queries,
        "ms": statistics.median(run[0] for run in runs),
        "queries": runs[-1][1],
        "bytes": size,
    }


def main() -> None:
    """Build the tournaments, render the pages, print the BENCH lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    database = db_bench.setup_django()
    print(f"# database: {database}", flush=True)
    from django.test import Client
    from django.urls import reverse

    sizes, finished, repeat = ((20, 60), 3, 5) if args.quick else ((100, 500), 5, 30)
    figures: dict[int, dict[str, dict[str, float]]] = {}
    for n in sizes:
        started = time.perf_counter()
        tournament = build(n, finished, args.seed + n)
        print(f"# {n} pairs, {finished} rounds finished and one in play: built in "
              f"{time.perf_counter() - started:.1f} s", flush=True)
        try:
            client = Client()
            figures[n] = {
                page: measure(client, reverse(f"tournaments:{name}", args=[tournament.slug]),
                              repeat)
                for page, name in (("standings", "standings"), ("draw", "current_draw"))
            }
        finally:
            db_bench.delete_tournament(tournament)
        for page, got in figures[n].items():
            print(f"# {page} {n}: median {got['ms']:.1f} ms ({got['queries']} queries), first "
                  f"{got['cold_ms']:.1f} ms ({got['cold_queries']} queries), "
                  f"{got['bytes'] // 1024} KiB", flush=True)
    small, big = sizes
    print(f"BENCH standings_page_{big}_ms {figures[big]['standings']['ms']:.1f}", flush=True)
    print(f"BENCH draw_page_{big}_ms {figures[big]['draw']['ms']:.1f}", flush=True)
    for n in sizes:
        print(f"BENCH standings_page_queries_{n} {figures[n]['standings']['queries']}")
    for n in sizes:
        print(f"BENCH draw_page_queries_{n} {figures[n]['draw']['queries']}")
    print(f"BENCH standings_page_{small}_ms {figures[small]['standings']['ms']:.1f}")
    print(f"BENCH draw_page_{small}_ms {figures[small]['draw']['ms']:.1f}", flush=True)
    if database.startswith("sqlite"):
        db_bench.SQLITE_FILE.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
