"""Benchmark of the knockout bracket's page (#35): a 64-slot bracket, warm, median of N runs.

For now it times the partial ``templates/tournaments/_bracket.html`` rendered from a
``BracketSheet`` built without a database (``scoring.standings.bracket.sample_sheet``, long
Russian names, the first rounds decided), not the whole page: the page's view and its queries
land with the knockout backend, and then this bench should request the page itself (and count
its queries, constant in the bracket's size). Also prints the wall PDF's time (A3, 64 slots).

Run from the repository root: ``.venv/bin/python bench/bench_bracket_page.py [--check]``.
Prints ``BENCH <name> <value> <unit>`` lines; with ``--check`` exits 1 when a figure misses its
target (``bracket_page_64_ms`` ≤ 50 ms, issue 35).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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


def main() -> int:
    """Time the partial and the PDF, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument("--runs", type=int, default=30)
    args, _unknown = parser.parse_known_args()  # run_all.py passes its arguments to all
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.template.loader import render_to_string
    from django.utils import translation

    from scoring.protocols.bracket_pdf import bracket_pdf
    from scoring.standings.bracket import sample_sheet

    sheet = sample_sheet(64, names(60), decided_rounds=3, title="Кубок города — финалы")

    def page() -> None:
        with translation.override("ru"):
            render_to_string("tournaments/_bracket.html", {"sheet": sheet})

    results = {
        "bracket_page_64_ms": median_ms(page, args.runs),
        "bracket_pdf_64_a3_ms": median_ms(lambda: bracket_pdf(sheet, "A3"), max(args.runs // 3, 3)),
    }
    failed = []
    for name, value in results.items():
        print(f"BENCH {name} {value:.2f} ms", flush=True)
        if value > TARGETS[name]:
            failed.append(name)
    if args.check and failed:
        print(f"# over target: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
