"""Benchmark of the public calendar page: 200 public tournaments, each with its rounds.

Creates 200 tournaments (upcoming, running and finished, in eight cities, three rounds each;
the upcoming ones taking entries, whose state each row shows), then renders the calendar
(``/calendar/``) through Django's test client as an anonymous visitor, warm (after a few
renderings), and prints:

    BENCH calendar_page_ms <median ms of the page, 200 tournaments>
    BENCH calendar_page_queries <queries of one page, 200 tournaments>
    BENCH calendar_page_queries_50 <the same with 50 listed: equal>
    BENCH calendar_page_city_ms <median ms filtered by one city>

The script asserts that the queries do not grow from 50 to 200 tournaments (the rounds are
counted in the tournaments' one query, the entry states read for all rows at once).

Runs against PostgreSQL when DATABASE_URL is set (it migrates that database and deletes its
own data at the end), otherwise against a throw-away SQLite file:

    .venv/bin/python bench/bench_calendar_page.py
    .venv/bin/python bench/bench_calendar_page.py --quick    # fewer renderings

Target on a 2-core machine: calendar_page_ms ≤ 50 (median), the queries a constant.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_draws_db as db_bench  # noqa: E402 - the bench folder is on the path now
from bench_season import render  # noqa: E402 - one rendering: ms, queries, bytes

db_bench.SQLITE_FILE = Path(tempfile.gettempdir()) / "domino_bench_calendar.sqlite3"
CITIES = ("Москва", "Казань", "Екатеринбург", "Самара", "Пермь", "Уфа", "Омск", "Тверь")


def build(count: int, rounds: int) -> list[Any]:
    """``count`` public tournaments in the cities, a third of each status, with ``rounds``."""
    from datetime import date, timedelta

    from scoring.models import EntrySettings, Round, Tournament
    from tournaments.setup.services import create_tournament

    stamp = time.time_ns()
    statuses = (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING,
                Tournament.Status.FINISHED)
    made = [
        create_tournament(name=f"Кубок {CITIES[k % len(CITIES)]} № {k + 1}",
                          slug=f"bench-cal-{stamp}-{k}", city=CITIES[k % len(CITIES)],
                          venue=f"Клуб «Дубль» {k % 11}",
                          start_date=date(2026, 1, 1) + timedelta(days=2 * k))
        for k in range(count)
    ]
    for k, tournament in enumerate(made):
        tournament.status = statuses[k % 3]
    Tournament.objects.bulk_update(made, ["status"])
    Round.objects.bulk_create(
        Round(tournament=t, number=n, status=Round.Status.FINISHED)
        for t in made for n in range(1, rounds + 1))
    # the upcoming ones take entries (their rows show the entry state, read for all at once)
    EntrySettings.objects.bulk_create(
        EntrySettings(tournament=t, open=True, capacity=8 + k % 9)
        for k, t in enumerate(made) if k % 3 == 0)
    return made


def measure(url: str, repeat: int) -> tuple[float, int]:
    """The median of warm renderings (three first ones thrown away) and their queries."""
    from django.test import Client

    client = Client()
    for _ in range(3):
        render(client, url)
    runs = [render(client, url)[:2] for _ in range(repeat)]
    return statistics.median(run[0] for run in runs), runs[-1][1]


def main() -> None:
    """Build the tournaments, render the calendar, print the BENCH lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer renderings")
    args = parser.parse_args()
    database = db_bench.setup_django()
    print(f"# database: {database}", flush=True)
    from django.urls import reverse

    from scoring.models import Tournament

    repeat = 5 if args.quick else 30
    started = time.perf_counter()
    made = build(200, 3)
    print(f"# 200 tournaments × 3 rounds: built in {time.perf_counter() - started:.1f} s",
          flush=True)
    url = reverse("tournaments:calendar")
    try:
        ms, queries = measure(url, repeat)
        city_ms, _city_queries = measure(f"{url}?city=Казань", repeat)
        Tournament.objects.filter(pk__in=[t.pk for t in made[50:]]).update(public=False)
        ms_50, queries_50 = measure(url, max(3, repeat // 3))
    finally:
        Tournament.objects.filter(pk__in=[t.pk for t in made]).delete()
    print(f"# 200 tournaments: median {ms:.1f} ms ({queries} queries); 50: {ms_50:.1f} ms "
          f"({queries_50} queries)", flush=True)
    print(f"BENCH calendar_page_ms {ms:.1f} ms", flush=True)
    print(f"BENCH calendar_page_queries {queries} queries", flush=True)
    print(f"BENCH calendar_page_queries_50 {queries_50} queries", flush=True)
    print(f"BENCH calendar_page_city_ms {city_ms:.1f} ms", flush=True)
    assert queries == queries_50, "the calendar's queries grow with its tournaments"
    if database.startswith("sqlite"):
        db_bench.SQLITE_FILE.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
