"""Benchmark of draws and standings through the services and the database.

Simulates whole Swiss tournaments (100, 500 and 1,000 pairs over 15 rounds): each round is
created, drawn and published through the round-flow services (timed), then played by
bulk-creating plausible deals, fines and forfeits, and closed (timed too: closing computes
the standings after the round into the cache, which the next draw reads). At the end the
standings are computed from the database (cold: no cache) and read again (cached). Each
round's parties get their stored totals as the services give them when a result is recorded
(``scoring.totals.stored``, not timed). Prints:

    BENCH draw_swiss_<n>_db_s <median seconds per round: create + generate + publish>
    BENCH close_round_<n>_db_s <median seconds to close a round, standings cached with it>
    BENCH draw_swiss_<n>_db_uncached_last_s <one more draw after the last round, computing
        the standings itself (nothing cached): the worst case>
    BENCH rematches_swiss_<n>_db <count over all rounds>
    BENCH standings_<n>x15_db_s <median seconds, standings computed from the database>
    BENCH standings_<n>x15_db_cached_s <median seconds, standings from the cache>

On PostgreSQL the finished tournament is vacuumed and analyzed before its standings are timed,
as autovacuum does on a live server (this machine's PostgreSQL runs with autovacuum off).

Runs against PostgreSQL when DATABASE_URL is set (it migrates that database first and
deletes its own data at the end, a thousand rows at a time), otherwise against a throw-away
SQLite file:

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/domino_bench
    .venv/bin/python bench/bench_draws_db.py
    .venv/bin/python bench/bench_draws_db.py --quick    # small sizes, a smoke test

Targets on a 2-core machine: Swiss 1,000 pairs <= 0.5 s per round through the database;
standings 1,000 x 15 <= 0.1 s and 5,000 x 15 <= 0.5 s cold, close-round 5,000 <= 0.5 s, a
Swiss draw of 5,000 computing the standings itself <= 1.0 s.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


SQLITE_FILE = Path(tempfile.gettempdir()) / "domino_bench.sqlite3"


def setup_django() -> str:
    """Configure Django for the bench database, migrate it; return a description of it."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("CELERY_BROKER_URL", None)  # tasks (standings for the cache) run in-process
    if not os.environ.get("DATABASE_URL"):
        SQLITE_FILE.unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{SQLITE_FILE}"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    from django.db import connection

    return f"{connection.vendor} {connection.settings_dict['NAME']}"


def bench(name: str, value: float, unit: str = "s") -> None:
    """Print one figure in the BENCH format."""
    if unit == "s":
        print(f"BENCH {name} {value:.4f} s", flush=True)
    else:
        print(f"BENCH {name} {int(value)} {unit}", flush=True)


def build_tournament(n: int, rounds_planned: int, seed: int) -> Any:
    """A pairs tournament of ``n`` pairs and n/2 tables, players with ratings."""
    from scoring.models import Pair, Player, Regulations, Table
    from tournaments.setup.services import create_tournament

    rng = random.Random(seed)
    tournament = create_tournament(name=f"Bench {n}", slug=f"bench-{n}-{seed}-{time.time_ns()}")
    Regulations.objects.filter(tournament=tournament).update(rounds_planned=rounds_planned)
    players = Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Игрок {k}", club=f"Клуб {k % 37}",
               rating=round(1500 + 200 * rng.gauss(0, 1)))
        for k in range(2 * n)
    )
    Pair.objects.bulk_create(
        Pair(tournament=tournament, player1=players[2 * k], player2=players[2 * k + 1],
             rating=(players[2 * k].rating + players[2 * k + 1].rating) // 2)
        for k in range(n)
    )
    Table.objects.bulk_create(Table(tournament=tournament, number=t) for t in range(1, n // 2 + 1))
    return tournament


def simulate_party(rng: random.Random, strength_a: float, strength_b: float) -> dict:
    """Plausible deals of one party: who won, how it ended, the deals, the fines."""
    if rng.random() < 0.01:
        winner = "a" if rng.random() < 0.5 else "b"
        return {"winner": winner, "end_reason": "forfeit", "deals": [], "fines": []}
    p_a = 1 / (1 + math.exp(-(strength_a - strength_b)))
    by_time = rng.random() < 0.1
    limit = rng.randint(2, 5) if by_time else 100
    totals = {"a": 0, "b": 0}
    deals = []
    while max(totals.values()) < 200 and len(deals) < limit:
        side = "a" if rng.random() < p_a else "b"
        points = rng.randint(10, 90)
        if rng.random() < 0.25:
            deals.append(("fish", side, points))
        else:
            deals.append(("domino", side, points))
        totals[side] += points
    if totals["a"] == totals["b"]:
        deals.append(("domino", "a", 10))
        totals["a"] += 10
    winner = "a" if totals["a"] > totals["b"] else "b"
    reason = "target" if max(totals.values()) >= 200 else "time"
    fines = [side for side in "ab" if rng.random() < 0.03]
    return {"winner": winner, "end_reason": reason, "deals": deals, "fines": fines}


def play_round(rnd: Any, strength: dict[int, float], rng: random.Random) -> None:
    """Finish every party of the round with bulk-created deals and fines."""
    from django.utils import timezone

    from scoring.models import Deal, Party, Penalty
    from scoring.totals.stored import fill_totals

    now = timezone.now()
    parties = list(Party.objects.filter(round=rnd, pair_b__isnull=False))
    deals, fines = [], []
    for party in parties:
        result = simulate_party(rng, strength[party.pair_a_id], strength[party.pair_b_id])
        for number, (outcome, side, points) in enumerate(result["deals"], start=1):
            deals.append(Deal(
                party=party, number=number, outcome=outcome, winner=side,
                points_a=points if side == "a" else 0, points_b=points if side == "b" else 0,
            ))
        for side in result["fines"]:
            fines.append(Penalty(party=party, kind="fine", category="signs", side=side,
                                 points=25, mode="deduct"))
        party.status = Party.Status.FINISHED
        party.winner = result["winner"]
        party.end_reason = result["end_reason"]
        party.started_at = party.finished_at = now
        party.version += len(result["deals"]) + 1
    Deal.objects.bulk_create(deals, batch_size=2000)
    Penalty.objects.bulk_create(fines, batch_size=2000)
    Party.objects.bulk_update(
        parties, ["status", "winner", "end_reason", "started_at", "finished_at", "version"],
        batch_size=1000,
    )
    # the services store each party's totals when its result is recorded: so does the bench
    fill_totals(rnd.tournament, [party.pk for party in parties])


def swiss_tournament(
    n: int, rounds: int, seed: int
) -> tuple[list[float], list[float], int, Any]:
    """Run a whole Swiss event through the services.

    Returns the seconds of each round's draw (create, generate, publish) and of each close
    (with the standings it computes for the cache), the rematches and the tournament.
    """
    from scoring.models import Party, Tournament
    from tournaments.rounds.draw_services import generate_draw
    from tournaments.rounds.services import close_round, create_round, publish_round

    rng = random.Random(seed)
    tournament = build_tournament(n, rounds, seed)
    strength = {pk: rng.gauss(0, 1) for pk in tournament.pairs.values_list("pk", flat=True)}
    met: set[frozenset[int]] = set()
    times, closes, rematches = [], [], 0
    for _ in range(rounds):
        start = time.perf_counter()
        rnd = create_round(tournament.pk)
        generate_draw(rnd.pk)
        publish_round(rnd.pk)
        times.append(time.perf_counter() - start)
        for a, b in Party.objects.filter(round=rnd, pair_b__isnull=False).values_list(
            "pair_a", "pair_b"
        ):
            rematches += frozenset((a, b)) in met
            met.add(frozenset((a, b)))
        play_round(rnd, strength, rng)
        start = time.perf_counter()
        close_round(rnd.pk)
        closes.append(time.perf_counter() - start)
    return times, closes, rematches, Tournament.objects.select_related("regulations").get(
        pk=tournament.pk
    )


def time_cold_draw(tournament: Any) -> float:
    """Seconds to draw one more round when the standings are not cached (worst case).

    A correction after the last close (one party's version bumped) makes the draw compute
    the standings over every round itself; the extra round is deleted afterwards.
    """
    from django.db.models import F

    from scoring.models import Party, Regulations
    from tournaments.rounds.draw_services import generate_draw
    from tournaments.rounds.services import create_round, delete_round

    Regulations.objects.filter(tournament=tournament).update(rounds_planned=F("rounds_planned") + 1)
    party = Party.objects.filter(round__tournament=tournament, pair_b__isnull=False).first()
    Party.objects.filter(pk=party.pk).update(version=F("version") + 1)
    start = time.perf_counter()
    rnd = create_round(tournament.pk)
    generate_draw(rnd.pk)
    elapsed = time.perf_counter() - start
    delete_round(rnd.pk)
    return elapsed


def vacuum(tables: tuple[str, ...] = ()) -> None:
    """PostgreSQL: what autovacuum would have done by now (VACUUM ANALYZE of ``tables``; all
    of them for an empty tuple)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for table in tables or ("",):
            cursor.execute(f"VACUUM ANALYZE {table}")


def time_standings(tournament: Any, repeat: int, cached: bool) -> float:
    """Median seconds of the standings of every pair after the last round.

    Cold: loaded and computed from the database (the cache bypassed); cached: the entrants,
    the results version and a cache hit.
    """
    from scoring.ranking.results import ranked_entrants, standings_rows

    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        ids = list(ranked_entrants(tournament, per_player=False).values_list("pk", flat=True))
        standings_rows(tournament, ids, per_player=False, use_cache=cached)
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


DELETE_CHUNK = 1000
"""Rows a bench deletes at a time: Django's cascade looks up each batch's dependents with one
parameter a row (psycopg refuses more than 65,535 in a statement: a 5,000-pair field has
hundreds of thousands of deals)."""


def delete_tournament(tournament: Any) -> None:
    """Delete the bench's tournament and everything in it, :data:`DELETE_CHUNK` rows at a
    time."""
    from django.db import transaction

    from scoring.models import (
        Deal,
        Pair,
        Party,
        PartyEvent,
        PartyTotals,
        Penalty,
        Player,
        Round,
        Table,
        Tournament,
    )

    with transaction.atomic():
        parties = list(Party.objects.filter(round__tournament=tournament)
                       .values_list("pk", flat=True))
        for start in range(0, len(parties), DELETE_CHUNK):
            some = parties[start:start + DELETE_CHUNK]
            for model in (Deal, Penalty, PartyTotals, PartyEvent):
                model.objects.filter(party__in=some).delete()
            Party.objects.filter(pk__in=some).delete()
        for model in (Pair, Round, Player, Table):
            ids = list(model.objects.filter(tournament=tournament).values_list("pk", flat=True))
            for start in range(0, len(ids), DELETE_CHUNK):
                model.objects.filter(pk__in=ids[start:start + DELETE_CHUNK]).delete()
        Tournament.objects.filter(pk=tournament.pk).delete()


def main() -> None:
    """Run the benchmark and print the BENCH lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--sizes", type=lambda v: tuple(int(x) for x in v.split(",")),
        help="comma-separated numbers of pairs (default 100,500,1000,5000)",
    )
    args = parser.parse_args()
    database = setup_django()
    print(f"# database: {database}", flush=True)
    sizes, rounds = ((20, 50), 5) if args.quick else ((100, 500, 1000, 5000), 15)
    for n in args.sizes or sizes:
        started = time.perf_counter()
        times, closes, rematches, tournament = swiss_tournament(n, rounds, args.seed + n)
        try:
            bench(f"draw_swiss_{n}_db_s", statistics.median(times))
            print(f"# draw_swiss_{n}_db: slowest round {max(times):.4f} s", flush=True)
            bench(f"close_round_{n}_db_s", statistics.median(closes))
            bench(f"draw_swiss_{n}_db_uncached_last_s", time_cold_draw(tournament))
            bench(f"rematches_swiss_{n}_db", rematches, "rematches")
            vacuum()  # the finished tournament as autovacuum leaves it (off on this machine)
            bench(f"standings_{n}x{rounds}_db_s", time_standings(tournament, 5, cached=False))
            time_standings(tournament, 1, cached=True)  # fills the cache
            bench(
                f"standings_{n}x{rounds}_db_cached_s",
                time_standings(tournament, 5, cached=True),
            )
        finally:
            delete_tournament(tournament)
        print(f"# {n} pairs took {time.perf_counter() - started:.1f} s", flush=True)
    if database.startswith("sqlite"):
        SQLITE_FILE.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
