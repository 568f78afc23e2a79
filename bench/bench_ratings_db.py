"""Benchmark of a rating list through the database: a full recompute and one party's update.

Stores the history of ``bench_ratings.season`` (10,000 players × 100 individual events, each
party two pairs formed for its round) as tournaments, players linked to 10,000 profiles,
rounds, pairs, finished parties and their stored totals, in one Glicko-2 list of players.
Then prints the medians of:

    BENCH rating_recompute_10000_players_100_events_s   a full recompute after a party of
        the first tournament changed: the list's pending run from period 1 (runs the engine
        over every period, rewrites the rows that changed: nearly all); the tournaments
        whose results did not change are read from the rating input cache, as every run
        after the list's first leaves it
    BENCH rating_recompute_10000_players_100_events_cold_s   the organizer's recompute
        from scratch: every result read from the database
    BENCH rating_party_update_10000_ms   one party of the last tournament changed: the
        list's pending run (from the last period on), as a finished party queues it
    BENCH rating_party_update_10000_mid_ms   the same for a party of the 50th tournament
    BENCH rating_party_update_10000_full_ms   what each finished party cost before the
        pending runs: a recompute from scratch deleting and creating every row

and (unless ``--quick`` or ``--no-big``) the same list at 20,000 players × 200 events,
recomputed in a fresh process so its peak memory is the recompute's own:

    BENCH rating_recompute_20000_players_200_events_s   (≤ 5; a warm-up run first fills the
        fresh process's cache, as above)
    BENCH rating_recompute_20000_peak_rss_mb   (≤ 1,024)

Django runs with ``DEBUG`` off, as a worker does in production. On PostgreSQL the tables are
vacuumed and analyzed after they are stored, and the rating rows before each timed run, as
autovacuum does on a production server (this machine's PostgreSQL runs with autovacuum off:
without it every run's old row versions pile up).

Runs against PostgreSQL when DATABASE_URL is set (it migrates that database and deletes its
own data at the end), otherwise against a throw-away SQLite file:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_ratings .venv/bin/python \\
        bench/bench_ratings_db.py [--no-big]
    .venv/bin/python bench/bench_ratings_db.py --quick   # 1,000 players × 10 events

Targets on a 2-core machine: recompute ≤ 1.0 s, a party's update ≤ 100 ms.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_draws_db as db_bench  # noqa: E402 - the bench folder is on the path now
from bench_ratings import season  # noqa: E402

db_bench.SQLITE_FILE = Path(tempfile.gettempdir()) / "domino_bench_ratings.sqlite3"

RATING_ROWS = ("scoring_ratingentry",)
"""The table a run rewrites: vacuumed before each timed run."""

BIG_RUNS = 2
"""Fresh processes timing the 20,000 × 200 recompute (the median, the highest peak)."""


def store(players: int, events: int) -> tuple[Any, list[Any]]:
    """The season stored as finished tournaments in one Glicko-2 list; (list, tournaments)."""
    from django.db import transaction
    from django.utils import timezone

    from scoring.models import (
        Pair,
        Party,
        PartyTotals,
        Player,
        Profile,
        RatingList,
        Round,
        Tournament,
    )
    from scoring.totals.stored import rules_digest
    from tournaments.setup.services import create_tournament

    history = season(players, events)
    stamp = time.time_ns()
    now = timezone.now()
    with transaction.atomic():
        profiles = Profile.objects.bulk_create(
            Profile(name=f"Игрок {k}") for k in range(1, players + 1))
        profile_of = {str(k): p.pk for k, p in enumerate(profiles, start=1)}
        tournaments = []
        for number, parties in enumerate(history):
            tournament = create_tournament(
                name=f"Рейтинговый {number + 1}", slug=f"bench-rated-{stamp}-{number}",
                start_date=date(2020, 1, 1) + timedelta(days=7 * number))
            Tournament.objects.filter(pk=tournament.pk).update(
                format=Tournament.Format.INDIVIDUAL, status="finished")
            tournament.refresh_from_db()
            tournaments.append(tournament)
            keys = sorted({s for party in parties for side in party.sides for s in side})
            made = Player.objects.bulk_create(
                Player(tournament=tournament, name=f"Игрок {k}", profile_id=profile_of[k])
                for k in keys)
            player = {k: p.pk for k, p in zip(keys, made, strict=True)}
            per_round = max(1, len(keys) // 4)
            rounds = Round.objects.bulk_create(
                Round(tournament=tournament, number=r + 1, status="finished", published_at=now)
                for r in range(-(-len(parties) // per_round)))
            pairs = Pair.objects.bulk_create(
                Pair(tournament=tournament, player1_id=player[side[0]],
                     player2_id=player[side[1]], formed_in_round=rounds[i // 2 // per_round])
                for i, side in enumerate(s for party in parties for s in party.sides))
            made_parties = Party.objects.bulk_create(
                Party(round=rounds[i // per_round], pair_a=pairs[2 * i],
                      pair_b=pairs[2 * i + 1], status="finished", started_at=now,
                      finished_at=now, end_reason="target",
                      winner="a" if party.winner == 0 else "b")
                for i, party in enumerate(parties))
            digest = rules_digest(tournament)
            PartyTotals.objects.bulk_create(
                PartyTotals(party=p, version=p.version, rules=digest, points_a=100, points_b=50)
                for p in made_parties)
        rating_list = RatingList.objects.create(name="Федерация", slug=f"bench-rated-{stamp}")
        rating_list.tournaments.set(tournaments)
    return rating_list, tournaments


def flip(tournament: Any) -> int:
    """Turn the result of the tournament's first party (its version bumped, as every service
    changing a party does); its id."""
    from django.db.models import F

    from scoring.models import Party

    party = Party.objects.filter(round__tournament=tournament).order_by("id")[0]
    Party.objects.filter(pk=party.pk).update(winner="b" if party.winner == "a" else "a",
                                             version=F("version") + 1)
    return party.pk


def party_update(rating_list: Any, tournament: Any) -> float:
    """Seconds of one party of ``tournament`` changing: the lists marked (the task's send
    left out: no broker here) and the list's pending run."""
    from unittest import mock

    from scoring.ranking import rating_tasks
    from scoring.ranking.rating_updates import update_rating_list

    flip(tournament)
    db_bench.vacuum(RATING_ROWS)
    with mock.patch.object(rating_tasks.recompute_rating_list_task, "apply_async"):
        started = time.perf_counter()
        rating_tasks.mark_lists([tournament.pk])
    run = update_rating_list(rating_list.pk)
    seconds = time.perf_counter() - started
    assert run is not None and run.written > 0, run
    return seconds


def from_scratch_the_old_way(rating_list: Any) -> float:
    """Seconds of the recompute every finished party queued before: delete, create all."""
    from django.db import transaction

    from scoring.models import RatingEntry, RatingList
    from scoring.ranking.rating_inputs import compute_list, entry_rows

    started = time.perf_counter()
    with transaction.atomic():
        locked = RatingList.objects.select_for_update().get(pk=rating_list.pk)
        field, rows = compute_list(locked)
        entries = entry_rows(locked, field, rows)
        RatingEntry.objects.filter(rating_list=locked).delete()
        RatingEntry.objects.bulk_create(entries, batch_size=2000)
    return time.perf_counter() - started


def full_recompute(rating_list: Any, first: Any, cold: bool = False) -> float:
    """Seconds of a full recompute after a party of the first tournament changed: the list's
    pending run from period 1, as the party's change marks it (``cold``: the organizer's
    recompute from scratch, every result read from the database)."""
    from unittest import mock

    from scoring.ranking import rating_tasks
    from scoring.ranking.rating_updates import recompute_rating_list, update_rating_list

    flip(first)
    db_bench.vacuum(RATING_ROWS)
    if cold:
        started = time.perf_counter()
        recompute_rating_list(rating_list.pk)
        return time.perf_counter() - started
    with mock.patch.object(rating_tasks.recompute_rating_list_task, "apply_async"):
        rating_tasks.mark_lists([first.pk])
    started = time.perf_counter()
    run = update_rating_list(rating_list.pk)
    assert run is not None and run.first == 1, run
    return time.perf_counter() - started


def recompute_here(list_id: int) -> None:
    """(In a fresh process) one full recompute after an early change; seconds and peak MB."""
    from scoring.models import RatingList
    from scoring.ranking.rating_runs import rated_tournaments
    from scoring.ranking.rating_updates import recompute_rating_list

    rating_list = RatingList.objects.get(pk=list_id)
    first = rated_tournaments(rating_list)[0]
    recompute_rating_list(list_id)  # the warm-up: this process's input cache filled
    seconds = full_recompute(rating_list, first)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{seconds} {peak}", flush=True)


def cleanup(rating_list: Any, tournaments: list[Any]) -> None:
    """Delete the bench's list, tournaments and profiles."""
    from scoring.models import Profile

    profiles = list(rating_list.entries.values_list("profile_id", flat=True).distinct())
    rating_list.delete()
    for tournament in tournaments:
        db_bench.delete_tournament(tournament)
    Profile.objects.filter(pk__in=profiles).delete()


def main() -> None:
    """Store the season, time the recomputes and the party updates, print the medians."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-big", action="store_true")
    parser.add_argument("--recompute-here", type=int)
    args, _rest = parser.parse_known_args()
    # as a worker runs a list's recompute in production: DEBUG off (with it on, Django
    # formats and keeps every statement it sends, a run's thousand-name lookups included)
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "bench-" + "0123456789abcdef" * 4)
    where = db_bench.setup_django() if args.recompute_here is None else _setup_only()
    if args.recompute_here is not None:
        recompute_here(args.recompute_here)
        return
    print(f"# {where}", flush=True)
    sizes = [(1000, 10)] if args.quick else [(10_000, 100)]
    if not args.quick and not args.no_big:
        sizes.append((20_000, 200))
    runs = 2 if args.quick else 3
    for players, events in sizes:
        started = time.perf_counter()
        rating_list, tournaments = store(players, events)
        print(f"# stored {players} × {events} in {time.perf_counter() - started:.0f} s",
              flush=True)
        from scoring.ranking.rating_updates import recompute_rating_list

        db_bench.vacuum()
        recompute_rating_list(rating_list.pk)  # the first: every row created
        label = f"{players}_players_{events}_events"
        if (players, events) == sizes[0]:
            full = [full_recompute(rating_list, tournaments[0]) for _ in range(runs)]
            print(f"BENCH rating_recompute_{label}_s {statistics.median(full):.3f} s", flush=True)
            cold = [full_recompute(rating_list, tournaments[0], cold=True) for _ in range(runs)]
            print(f"BENCH rating_recompute_{label}_cold_s {statistics.median(cold):.3f} s",
                  flush=True)
            for name, tournament in (("", tournaments[-1]), ("_mid", tournaments[events // 2])):
                times = [party_update(rating_list, tournament) for _ in range(runs + 2)]
                print(f"BENCH rating_party_update_{players}{name}_ms "
                      f"{1000 * statistics.median(times):.0f} ms", flush=True)
            old = [from_scratch_the_old_way(rating_list) for _ in range(runs)]
            print(f"BENCH rating_party_update_{players}_full_ms "
                  f"{1000 * statistics.median(old):.0f} ms", flush=True)
        else:
            measured = [_fresh_process(rating_list.pk) for _ in range(BIG_RUNS)]
            print(f"BENCH rating_recompute_{label}_s "
                  f"{statistics.median(m[0] for m in measured):.3f} s", flush=True)
            print(f"BENCH rating_recompute_{players}_peak_rss_mb "
                  f"{max(m[1] for m in measured):.0f} MB", flush=True)
        cleanup(rating_list, tournaments)


def _setup_only() -> str:
    """Django set up for the database the parent process migrated (no migration)."""
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = f"sqlite:///{db_bench.SQLITE_FILE}"
    django.setup()
    return ""


def _fresh_process(list_id: int) -> tuple[float, float]:
    """A full recompute in a new process: (seconds, its peak RSS in MB)."""
    out = subprocess.run([sys.executable, __file__, "--recompute-here", str(list_id)],
                         check=True, capture_output=True, text=True).stdout.split()
    return float(out[-2]), float(out[-1])


if __name__ == "__main__":
    main()
