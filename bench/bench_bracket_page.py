"""Benchmark of the knockout bracket's page (#35): the whole public page of a 64-slot bracket
(``/t/<slug>/bracket/``) through Django's test client, warm, median of N renderings, and its
queries for 8 and 64 slots (equal: constant in the bracket's size). Also the wall PDF's time
(A3, 64 slots, from a sheet built without a database).

Each bracket is drawn through the services (``start_finals`` from pairs with long Russian
names after a closed qualifying round), its first rounds decided by forfeits. Runs against
PostgreSQL when DATABASE_URL is set, otherwise against a throw-away SQLite file (as
``bench_pages``).

Run from the repository root: ``.venv/bin/python bench/bench_bracket_page.py [--check]``.
Prints ``BENCH <name> <value> <unit>`` lines; with ``--check`` exits 1 when a figure misses its
target (``bracket_page_64_ms`` ≤ 50 ms, issue 35) or the query counts differ.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_draws_db as db_bench  # noqa: E402 - the bench folder is on the path now
import bench_pages as pages_bench  # noqa: E402

TARGETS = {"bracket_page_64_ms": 50.0, "bracket_pdf_64_a3_ms": 200.0}

FIRST = ["Вячеслав", "Александра", "Константин", "Евгения", "Святослав", "Анастасия",
         "Владимир", "Екатерина"]
LAST = ["Преображенский-Задунайский", "Константинопольская", "Верхнеднепровский",
        "Голенищева-Кутузова", "Рождественский", "Воскресенская", "Мухоморов", "Ли"]


def names(count: int) -> list[str]:
    """``count`` pairs with long Russian names."""
    return [f"{FIRST[i % 8]} {LAST[i // 8 % 8]} / {FIRST[(i + 3) % 8]} {LAST[(i * 3 + 1) % 8]}"
            for i in range(count)]


def median_ms(work: Callable[[], object], runs: int) -> float:
    """The median wall time of ``work()`` over ``runs`` calls after one warm-up call."""
    work()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def build(slots: int, decided_rounds: int, seed: int) -> Any:
    """A tournament of ``slots`` long-named pairs, its qualifying round closed, its finals of
    ``slots`` drawn (third place too), the first ``decided_rounds`` rounds decided."""
    from referee.services.clock import forfeit_party
    from scoring.models import Pair, Party, Round
    from scoring.stages.common import first_stage
    from tournaments.rounds.finals import start_finals

    tournament = db_bench.build_tournament(slots, 1, seed)
    pairs = list(Pair.objects.filter(tournament=tournament).order_by("pk"))
    for pair, name in zip(pairs, names(slots), strict=True):
        pair.name = name
    Pair.objects.bulk_update(pairs, ["name"])
    Round.objects.create(tournament=tournament, number=1, stage=first_stage(tournament),
                         status=Round.Status.FINISHED)
    start_finals(tournament.pk, qualifiers=[pair.pk for pair in pairs], third_place=True)
    for bracket_round in range(1, decided_rounds + 1):
        for party in Party.objects.filter(round__tournament=tournament,
                                          match__bracket_round=bracket_round,
                                          match__third_place=False):
            forfeit_party(party.pk, absent_side="b" if party.pk % 3 else "a")
    return tournament


def delete(tournament: Any) -> None:
    """Delete a bench tournament, its bracket first (its matches hold its pairs)."""
    from scoring.models import Match, Stage

    Match.objects.filter(stage__tournament=tournament).delete()
    Stage.objects.filter(tournament=tournament).delete()
    db_bench.delete_tournament(tournament)


def main() -> int:
    """Time the page and the PDF, count the page's queries, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument("--runs", type=int, default=30)
    args, _unknown = parser.parse_known_args()  # run_all.py passes its arguments to all
    database = db_bench.setup_django()
    print(f"# database: {database}", flush=True)
    from django.test import Client
    from django.urls import reverse

    from scoring.protocols.bracket_pdf import bracket_pdf
    from scoring.standings.bracket import sample_sheet

    pages: dict[int, dict[str, float]] = {}
    for slots, decided in ((8, 1), (64, 3)):
        tournament = build(slots, decided, 35 + slots)
        try:
            client = Client(HTTP_ACCEPT_LANGUAGE="ru")
            url = reverse("tournaments:bracket", args=[tournament.slug])
            pages[slots] = pages_bench.measure(client, url, args.runs)
        finally:
            delete(tournament)
        got = pages[slots]
        print(f"# {slots} slots: first {got['cold_ms']:.1f} ms ({got['cold_queries']} "
              f"queries), {got['bytes'] // 1024} KiB", flush=True)
    sheet = sample_sheet(64, names(60), decided_rounds=3, title="Кубок города — финалы")
    results = {
        "bracket_page_64_ms": pages[64]["ms"],
        "bracket_pdf_64_a3_ms": median_ms(lambda: bracket_pdf(sheet, "A3"), max(args.runs // 3, 3)),
    }
    failed = []
    for name, value in results.items():
        print(f"BENCH {name} {value:.2f} ms", flush=True)
        if value > TARGETS[name]:
            failed.append(name)
    for slots in (8, 64):
        print(f"BENCH bracket_page_queries_{slots} {int(pages[slots]['queries'])}", flush=True)
    if pages[8]["queries"] != pages[64]["queries"]:
        failed.append("bracket_page_queries")
    if database.startswith("sqlite"):
        db_bench.SQLITE_FILE.unlink(missing_ok=True)
    if args.check and failed:
        print(f"# over target: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
