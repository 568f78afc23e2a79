"""Benchmark of the full-field public pages at a federation's size: standings and rating list.

Builds a pairs tournament of 20,000 pairs over five closed rounds (random pairings,
bulk-created parties; deals, fines and stored totals as ``bench_draws_db`` plays them; each
round closed through the services, so the standings are cached as on a live site) and a
rating list of 20,000 players (three rated periods, rows bulk-created). Then renders, as an
anonymous visitor through Django's test client:

    BENCH standings_page_20000_cold_ms <median ms of a page never rendered before: the
        rendered-page cache empty for it, the standings as the last close cached them>
    BENCH rating_list_page_20000_ms <median ms of a rating-list page never rendered before>

Cold pages are different pages of the table (``?page=``), each asked for once: each has its
own ETag, so none is in the rendered-page cache. ``#`` lines add the first page cold, a
search by name, the warm page (from the cache), the page's size, and the standings page with
every cache emptied (the standings computed too).

    .venv/bin/python bench/bench_full_field.py
    .venv/bin/python bench/bench_full_field.py --quick    # 600 pairs, a smoke test
    .venv/bin/python bench/bench_full_field.py --keep     # keep the data; the next run with
        --keep measures it again without building (to compare two versions of the code)

Target on a 2-core machine: both <= 300 ms cold at 20,000.
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
from bench_pages import render  # noqa: E402

db_bench.SQLITE_FILE = Path(tempfile.gettempdir()) / "domino_bench_full_field.sqlite3"


def build_field(n: int, rounds: int, seed: int) -> Any:
    """A tournament of ``n`` pairs, ``rounds`` rounds of random pairings played and closed."""
    from scoring.models import Party, Table, Tournament
    from tournaments.rounds.services import close_round, create_round, publish_round

    rng = random.Random(seed)
    tournament = db_bench.build_tournament(n, rounds, seed)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    pairs = list(tournament.pairs.values_list("pk", flat=True))
    strength = {pk: rng.gauss(0, 1) for pk in pairs}
    tables = list(Table.objects.filter(tournament=tournament).order_by("number")
                  .values_list("pk", flat=True))
    for _ in range(rounds):
        rnd = create_round(tournament.pk)
        rng.shuffle(pairs)
        Party.objects.bulk_create(
            (Party(round=rnd, table_id=tables[k], pair_a_id=pairs[2 * k],
                   pair_b_id=pairs[2 * k + 1]) for k in range(n // 2)),
            batch_size=5000,
        )
        publish_round(rnd.pk)
        db_bench.play_round(rnd, strength, rng)
        close_round(rnd.pk)
    return Tournament.objects.get(pk=tournament.pk)


def build_rating_list(n: int, periods: list[Any], seed: int) -> Any:
    """A public players' list of ``n`` profiles rated over ``periods`` (tournaments)."""
    from scoring.models import Profile, RatingEntry, RatingList

    rng = random.Random(seed)
    rating_list = RatingList.objects.create(name=f"Bench {n}", slug=f"bench-{n}-{seed}")
    rating_list.tournaments.set(periods)
    profiles = Profile.objects.bulk_create(
        (Profile(name=f"Игрок {k}", club=f"Клуб {k % 97}") for k in range(n)), batch_size=5000)
    entries = []
    for profile in profiles:
        rating = 1500.0
        for sequence, period in enumerate(periods, start=1):
            rating += rng.gauss(0, 60)
            entries.append(RatingEntry(
                rating_list=rating_list, subject=str(profile.pk), profile=profile,
                tournament=period, sequence=sequence, rating=rating,
                deviation=rng.uniform(50, 200), volatility=0.06, games=rng.randint(3, 9),
                score=0, current=sequence == len(periods)))
    RatingEntry.objects.bulk_create(entries, batch_size=5000)
    return rating_list


def analyze() -> None:
    """Refresh PostgreSQL's statistics, as autovacuum does on a live database (bulk-created
    rows are otherwise estimated at one row and planned for as such)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def cold_pages(client: Any, url: str, pages: list[int]) -> list[tuple[float, int, int]]:
    """One rendering of each of ``pages`` (each never rendered before)."""
    return [render(client, f"{url}?page={page}") for page in pages]


def report(name: str, runs: list[tuple[float, int, int]]) -> float:
    """Print a ``#`` line of renderings; return their median milliseconds."""
    median = statistics.median(run[0] for run in runs)
    print(f"# {name}: median {median:.1f} ms of {len(runs)}, slowest {max(r[0] for r in runs):.1f}"
          f" ms, {runs[-1][1]} queries, {runs[-1][2] // 1024} KiB", flush=True)
    return median


def measure(client: Any, name: str, url: str, pages: list[int], repeat: int) -> float:
    """Render a table's first page (cold, then warm), ``pages`` cold and searches; print
    ``#`` lines; return the cold pages' median milliseconds."""
    first = render(client, url)
    print(f"# {name} first page (cold): {first[0]:.1f} ms, {first[1]} queries, "
          f"{first[2] // 1024} KiB", flush=True)
    cold = report(f"{name} pages cold", cold_pages(client, url, pages))
    report(f"{name} first page warm", [render(client, url) for _ in range(repeat)])
    report(f"{name} search (cold)", [render(client, f"{url}?q=Игрок {k}7")
                                     for k in range(repeat)])
    return cold


def main() -> None:
    """Build the field and the list, render the pages, print the BENCH lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="600 pairs, a smoke test")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--keep", action="store_true",
                        help="keep the data, and measure kept data instead of building")
    args = parser.parse_args()
    database = db_bench.setup_django()
    print(f"# database: {database}", flush=True)
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from scoring.models import RatingList, Tournament
    from tournaments.setup.services import create_tournament

    n, rounds, repeat = (600, 3, 3) if args.quick else (20000, 5, 9)
    started = time.perf_counter()
    kept = f"bench-full-field-{n}"
    tournament = Tournament.objects.filter(slug=kept).first() if args.keep else None
    rating_list = RatingList.objects.filter(slug=kept).first() if args.keep else None
    if tournament is None or rating_list is None:
        tournament = build_field(n, rounds, args.seed)
        periods = [create_tournament(name=f"Period {k}", slug=f"period-{k}-{time.time_ns()}")
                   for k in range(3)]
        rating_list = build_rating_list(n, periods, args.seed)
        if args.keep:
            Tournament.objects.filter(pk=tournament.pk).update(slug=kept)
            RatingList.objects.filter(pk=rating_list.pk).update(slug=kept)
            tournament.refresh_from_db()
            rating_list.refresh_from_db()
    periods = list(rating_list.tournaments.all())
    analyze()
    print(f"# {n} pairs x {rounds} rounds and a list of {n} players: built in "
          f"{time.perf_counter() - started:.1f} s", flush=True)
    client = Client()
    try:
        url = reverse("tournaments:standings", args=[tournament.slug])
        last = -(-n // 150)
        pages = random.Random(args.seed).sample(range(2, last + 1), min(repeat, last - 1))
        cold = measure(client, "standings", url, pages, repeat)
        cache.clear()
        report("standings page, every cache emptied", [render(client, url)])
        print(f"BENCH standings_page_{n}_cold_ms {cold:.1f} ms", flush=True)
        url = reverse("tournaments:rating_list", args=[rating_list.slug])
        listed = measure(client, "rating list", url, pages, repeat)
        print(f"BENCH rating_list_page_{n}_ms {listed:.1f} ms", flush=True)
    finally:
        if not args.keep:
            RatingList.objects.filter(pk=rating_list.pk).delete()
            for period in periods:
                period.delete()
            db_bench.delete_tournament(tournament)
    if database.startswith("sqlite"):
        db_bench.SQLITE_FILE.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
