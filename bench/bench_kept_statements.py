"""Benchmark of the four hand-written statements the project keeps, each against its ORM path.

On a finished round of 250 tables (``bench_protocols_db.build_round``), in transactions rolled
back: the party lock (``lock_party`` against ``select_for_update().select_related(...)``), the
event log's append (one ``INSERT … SELECT`` against ``aggregate(Max)`` + ``create``), the
idempotency claim (``INSERT … ON CONFLICT DO NOTHING`` against ``create`` in a savepoint) and
the draw's bulk insert of 2,500 parties (``insert_rows`` against ``bulk_create``).

    .venv/bin/python bench/bench_kept_statements.py      # PostgreSQL when DATABASE_URL is set

Prints ``BENCH kept_<name>_ms`` and ``BENCH orm_<name>_ms`` (medians per call) for ``lock``,
``append``, ``claim`` and ``bulk_2500``. On SQLite the lock and the bulk insert are the ORM's
own path (the figures then match); the statements are kept for PostgreSQL.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_protocols_db import build_round, setup_django  # noqa: E402

CALLS = 200
BULK_ROWS = 2500
BULK_RUNS = 5


def median_ms(work: Callable[[Any], object], items: list[Any]) -> float:
    """The median milliseconds of ``work(item)`` over the items, in one transaction rolled
    back (the rows it writes are not kept)."""
    from django.db import transaction

    times = []
    with transaction.atomic():
        for item in items:
            started = time.perf_counter()
            work(item)
            times.append((time.perf_counter() - started) * 1000)
        transaction.set_rollback(True)
    return statistics.median(times)


def report(name: str, kept: float, orm: float) -> None:
    """Print the kept statement's figure and its ORM path's."""
    print(f"BENCH kept_{name}_ms {kept:.3f} ms", flush=True)
    print(f"BENCH orm_{name}_ms {orm:.3f} ms", flush=True)
    print(f"# {name}: the ORM's path takes {orm - kept:.3f} ms more ({orm / kept:.2f}x)",
          flush=True)


def main() -> int:
    """Build the round, time each statement against its ORM path, print the figures."""
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp))
        from django.db import connection, transaction

        print(f"# database: {connection.vendor}", flush=True)
        with transaction.atomic():  # everything the bench writes is rolled back at the end
            measure(build_round(250))
            transaction.set_rollback(True)
    return 0


def measure(built: tuple[Any, list[int], Any]) -> None:
    """Time each kept statement and its ORM path on the built round; print the figures."""
    from django.db import IntegrityError, transaction
    from django.db.models import Max

    from scoring.access.idempotency import _insert_unless_taken
    from scoring.core.bulk import insert_rows
    from scoring.models import IdempotencyKey, Party, PartyEvent, Round, Table
    from scoring.party.event_log import append_event
    from scoring.party.row_lock import PARTY_LOCK_RELATED, lock_party

    rnd, party_ids, referee = built
    parties = list(Party.objects.filter(pk__in=party_ids))
    ids = [party.pk for party in parties][:CALLS]
    for _warm in range(2):  # the first round pays the imports and the statements' planning
        kept = median_ms(lambda pk: lock_party(pk), ids)
        orm = median_ms(lambda pk: Party.objects.select_for_update(of=("self",))
                        .select_related(*PARTY_LOCK_RELATED).get(pk=pk), ids)
    report("lock", kept, orm)

    def orm_append(party: Party) -> PartyEvent:
        seq = (PartyEvent.objects.filter(party=party).aggregate(m=Max("seq"))["m"] or 0) + 1
        return PartyEvent.objects.create(party=party, seq=seq, kind="bench", data={"n": 1})

    for _warm in range(2):
        kept = median_ms(lambda party: append_event(party, "bench", data={"n": 1}),
                         parties[:CALLS])
        orm = median_ms(orm_append, parties[:CALLS])
    report("append", kept, orm)

    def orm_claim(key: str) -> IdempotencyKey | None:
        try:
            with transaction.atomic():
                return IdempotencyKey.objects.create(user=referee, key=key,
                                                     fingerprint="f" * 64)
        except IntegrityError:
            return None

    keys = [uuid.uuid4().hex for _ in range(CALLS)]
    for _warm in range(2):
        kept = median_ms(lambda key: _insert_unless_taken(referee, key, "f" * 64), keys)
        orm = median_ms(orm_claim, keys)
    report("claim", kept, orm)

    pairs = [(p.pair_a_id, p.pair_b_id) for p in parties]
    tables = list(Table.objects.filter(tournament_id=rnd.tournament_id).values_list(
        "pk", flat=True))
    draw = Round.objects.create(tournament_id=rnd.tournament_id, number=2)
    rows = [{"round_id": draw.pk, "table_id": tables[k] if k < len(tables) else None,
             "pair_a_id": pairs[k % len(pairs)][k // len(pairs) % 2],
             "pair_b_id": pairs[k % len(pairs)][1 - k // len(pairs) % 2]}
            for k in range(BULK_ROWS)]
    kept_runs, orm_runs = [], []
    for _run in range(BULK_RUNS):  # each in its own transaction: the same tables again
        kept_runs.append(median_ms(lambda _n: insert_rows(Party, rows), [0]))
        orm_runs.append(median_ms(
            lambda _n: Party.objects.bulk_create([Party(**row) for row in rows]), [0]))
    report(f"bulk_{BULK_ROWS}", statistics.median(kept_runs), statistics.median(orm_runs))


if __name__ == "__main__":
    sys.exit(main())
