"""Benchmark of the public season table: 50 tournaments × 1,000 players, from stored placings.

Creates 50 tournaments and 1,000 player profiles, bulk-creates the 50,000 stored placings
(``TournamentPlacing``: each tournament's place and score of every person, as the refresh
service writes them) and a public season of the best 10 results, then renders the season page
(``/season/<slug>/``) through Django's test client as an anonymous visitor and prints:

    BENCH season_page_ms <median ms of the page as a live site serves it>
    BENCH season_page_cold_ms <median ms with the cache cleared before every rendering>
    BENCH season_page_queries <queries of one page, 50 tournaments>
    BENCH season_page_queries_10 <the same season cut to 10 tournaments: equal>

The warm page finds the table made at the first rendering kept under the placings' version
(in the process, else in the shared cache; its queries: the season, its tournaments, the
version); the cold one (both cleared) also reads the 50,000 placings and their people, ranks
them and makes the 50,000 cells. The script asserts that the
queries do not grow from 10 to 50 tournaments.

Runs against PostgreSQL when DATABASE_URL is set (it migrates that database and deletes its
own data at the end), otherwise against a throw-away SQLite file:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/domino_seasons \\
        REDIS_URL=redis://127.0.0.1:6379/8 .venv/bin/python bench/bench_season.py
    .venv/bin/python bench/bench_season.py --quick    # 10 × 200, fewer renderings

Target on a 2-core machine: season_page_ms ≤ 100 (median), the queries a constant.
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

db_bench.SQLITE_FILE = Path(tempfile.gettempdir()) / "domino_bench_season.sqlite3"


def build(events: int, people: int, seed: int) -> tuple[Any, list[Any], list[Any]]:
    """A public season of ``events`` tournaments, each placing all ``people``."""
    from datetime import date, timedelta

    from scoring.models import Profile, Season, Tournament, TournamentPlacing
    from tournaments.setup.services import create_tournament

    rng = random.Random(seed)
    stamp = time.time_ns()
    tournaments = [
        create_tournament(name=f"Вечер {k + 1}", slug=f"bench-season-{stamp}-{k}",
                          start_date=date(2026, 1, 1) + timedelta(days=7 * k))
        for k in range(events)
    ]
    Tournament.objects.filter(pk__in=[t.pk for t in tournaments]).update(
        status=Tournament.Status.FINISHED)
    profiles = Profile.objects.bulk_create(
        Profile(name=f"Игрок {k:04d}", club=f"Клуб {k % 37}") for k in range(people)
    )
    rows = []
    for tournament in tournaments:
        order = list(profiles)
        rng.shuffle(order)
        score = people * 2
        for place, profile in enumerate(order, start=1):
            rows.append(TournamentPlacing(tournament=tournament, profile=profile, place=place,
                                          score=score))
            score -= rng.choice((0, 1, 2))
    TournamentPlacing.objects.bulk_create(rows, batch_size=5000)
    season = Season.objects.create(
        name="Сезон клуба", slug=f"bench-season-{stamp}", scoring=Season.Scoring.BEST_N,
        best_n=10, tie_breaks=["wins", "best", "played"],
    )
    season.tournaments.set(tournaments)
    return season, tournaments, profiles


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


def measure(url: str, repeat: int) -> dict[str, float]:
    """Median warm and cold renderings (the cache cleared before each cold one)."""
    from django.core.cache import cache
    from django.test import Client

    from tournaments.ranking import season_views

    client = Client()
    cold = []
    for _ in range(max(3, repeat // 3)):
        cache.clear()
        season_views.forget_recent_tables()  # the tables this process keeps, too
        cold.append(render(client, url))
    warm = [render(client, url) for _ in range(repeat)]
    return {
        "ms": statistics.median(run[0] for run in warm),
        "queries": warm[-1][1],
        "cold_ms": statistics.median(run[0] for run in cold),
        "cold_queries": cold[-1][1],
        "bytes": warm[-1][2],
    }


def cleanup(season: Any, tournaments: list[Any], profiles: list[Any]) -> None:
    """Delete the bench's season, placings, tournaments and profiles."""
    from scoring.models import Profile, Season, Tournament, TournamentPlacing

    ids = [t.pk for t in tournaments]
    TournamentPlacing.objects.filter(tournament_id__in=ids).delete()
    Season.objects.filter(pk=season.pk).delete()
    Tournament.objects.filter(pk__in=ids).delete()
    Profile.objects.filter(pk__in=[p.pk for p in profiles]).delete()


def main() -> None:
    """Build the season, render its page, print the BENCH lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    database = db_bench.setup_django()
    print(f"# database: {database}", flush=True)
    from django.conf import settings

    print(f"# cache: {settings.CACHES['default']['BACKEND']}", flush=True)
    events, people, repeat = (10, 200, 6) if args.quick else (50, 1000, 30)
    started = time.perf_counter()
    season, tournaments, profiles = build(events, people, args.seed)
    print(f"# {events} tournaments × {people} players: built in "
          f"{time.perf_counter() - started:.1f} s", flush=True)
    try:
        url = season.get_absolute_url()
        full = measure(url, repeat)
        season.tournaments.set(tournaments[:10])
        cut = measure(url, max(3, repeat // 3))
    finally:
        cleanup(season, tournaments, profiles)
    print(f"# {events} tournaments: warm median {full['ms']:.1f} ms ({full['queries']} "
          f"queries), cold median {full['cold_ms']:.1f} ms ({full['cold_queries']} queries), "
          f"{full['bytes'] // 1024} KiB", flush=True)
    print(f"# 10 tournaments: warm median {cut['ms']:.1f} ms ({cut['queries']} queries), "
          f"cold median {cut['cold_ms']:.1f} ms ({cut['cold_queries']} queries)", flush=True)
    print(f"BENCH season_page_ms {full['ms']:.1f} ms", flush=True)
    print(f"BENCH season_page_cold_ms {full['cold_ms']:.1f} ms", flush=True)
    print(f"BENCH season_page_queries {full['queries']} queries", flush=True)
    print(f"BENCH season_page_queries_10 {cut['queries']} queries", flush=True)
    assert full["queries"] == cut["queries"], "the season page's queries grow with its events"
    assert full["cold_queries"] == cut["cold_queries"], "the cold page's queries grow"
    if database.startswith("sqlite"):
        db_bench.SQLITE_FILE.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
