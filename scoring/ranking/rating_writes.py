"""Writing a run's rows to a rating list: the stored rows compared with the run's by the
database, only what differs written.

A run's rows (tens of thousands for a federation's list) go into a temporary table (COPY on
PostgreSQL); then one statement updates the stored rows whose numbers changed, in place, one
deletes those of the run's periods the run no longer makes, and, the rows already stored
dropped from the temporary table, one inserts the rest (a list's first run: only that one).
Updating in place keeps every index but the changed values' untouched: the ratings are in no
index and the table leaves room on each page (``fillfactor``, migration 0046), so PostgreSQL
rewrites a changed row beside the old one (a HOT update) and checks no foreign key.

The one place a rating run bypasses the ORM, measured by ``bench/bench_ratings_db.py``
(``rating_recompute_10000_players_100_events_s``): reading the stored rows and deleting and
creating the changed ones through the ORM cost 2.3 s of that recompute's 4.5 s (main
d44307a, PostgreSQL), these statements 0.2 s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from django.db import connection

from scoring.models import RatingEntry
from scoring.ranking.rating_inputs import COLUMNS, VALUES, StoredColumns

RUN_TABLE = "rating_run_rows"
"""The temporary table of a run's rows (dropped at the end of the write)."""

KEY = ("subject", "tournament_id")
"""A stored row's key in its list."""

TYPES = {
    "subject": "varchar(40)", "tournament_id": "bigint", "profile_id": "bigint",
    "partner_id": "bigint", "sequence": "integer", "games": "integer", "current": "boolean",
}
"""The temporary table's column types (the others are floats)."""

POSTGRESQL = {"subject": 'varchar(40) COLLATE "C"'}
"""Its types on PostgreSQL: subject keys compare as the list's do (migration 0046)."""

LARGE = 5000
"""Rows of a run above which its table is analyzed and its statements get :data:`WORK_MEM`
(a run of the last tournament, a few hundred rows, needs neither)."""

WORK_MEM = "64MB"
"""The run's transaction's memory for a sort or a hash (PostgreSQL's default, 4 MB, sorts a
federation's 60,000 keys on disk)."""


@dataclass(frozen=True)
class Written:
    """What a write did: rows created (new to the list), updated in place, deleted."""

    created: int
    updated: int
    deleted: int


def _column(name: str) -> str:
    """The quoted column of a ``RatingEntry`` field (by its attname)."""
    for field in RatingEntry._meta.concrete_fields:
        if field.attname == name:
            return str(connection.ops.quote_name(field.column or field.attname))
    raise LookupError(name)


def write_rows(list_id: int, first: int, stored: StoredColumns) -> Written:
    """Make the list's stored rows of periods ``first`` on equal a run's ``stored`` rows,
    writing only the differences; inside the caller's transaction."""
    quote = connection.ops.quote_name
    table = quote(RatingEntry._meta.db_table)
    run = quote(RUN_TABLE)
    mine = [_column(name) for name in COLUMNS]
    key = " AND ".join(f"{table}.{_column(k)} = {run}.{_column(k)}" for k in KEY)
    in_list = f"{table}.{_column('rating_list_id')} = %s"
    kept = RatingEntry.objects.filter(rating_list_id=list_id, sequence__gte=first).exists()
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {run}")
        types = {**TYPES, **(POSTGRESQL if connection.vendor == "postgresql" else {})}
        columns = ", ".join(f"{c} {types.get(n, 'double precision')}"
                            for n, c in zip(COLUMNS, mine, strict=True))
        cursor.execute(f"CREATE TEMPORARY TABLE {run} ({columns})")
        names = ", ".join(mine)
        if connection.vendor == "postgresql":
            with cursor.copy(f"COPY {run} ({names}) FROM STDIN (FORMAT BINARY)") as copy:
                copy.write(binary_copy(stored))
            if len(stored) > LARGE:  # sorts and hashes in memory
                cursor.execute(f"SET LOCAL work_mem = '{WORK_MEM}'")
        else:
            marks = ", ".join(["%s"] * len(mine))
            cursor.executemany(f"INSERT INTO {run} ({names}) VALUES ({marks})", stored.rows())
        # Looked up by key from the stored rows' side too: a nested loop over a list's rows
        # (a plan on stale statistics: the list's first rows just written) probes this index
        # instead of scanning the whole run for each row (20,000 × 200: minutes, not 0.1 s)
        keys = ", ".join(_column(k) for k in KEY)
        cursor.execute(f"CREATE INDEX {quote(RUN_TABLE + '_key')} ON {run} ({keys})")
        if connection.vendor == "postgresql" and len(stored) > LARGE:
            # the joins below planned on its true size (the keys' statistics: what they join on)
            cursor.execute(f"ANALYZE {run} ({keys})")
        updated = deleted = 0
        if kept:
            changed = " OR ".join(f"{table}.{_column(v)} IS DISTINCT FROM {run}.{_column(v)}"
                                  for v in VALUES)
            assign = ", ".join(f"{_column(v)} = {run}.{_column(v)}" for v in VALUES)
            cursor.execute(f"UPDATE {table} SET {assign} FROM {run} "
                           f"WHERE {in_list} AND {key} AND ({changed})", [list_id])
            updated = cursor.rowcount
            cursor.execute(
                f"DELETE FROM {table} WHERE {in_list} AND {table}.{_column('sequence')} >= %s "
                f"AND NOT EXISTS (SELECT 1 FROM {run} WHERE {key})", [list_id, first])
            deleted = cursor.rowcount
            # the run keeps its new rows only: the insert below looks nothing up in the table
            # it writes (planned while the list's rows were few, a lookup per new row would
            # scan the rows the statement itself was adding: a list's first 120,000 rows took
            # minutes)
            cursor.execute(f"DELETE FROM {run} WHERE EXISTS "
                           f"(SELECT 1 FROM {table} WHERE {in_list} AND {key})", [list_id])
        cursor.execute(f"INSERT INTO {table} ({_column('rating_list_id')}, {names}) "
                       f"SELECT %s, {', '.join(f'{run}.{c}' for c in mine)} FROM {run}",
                       [list_id])
        created = cursor.rowcount
        cursor.execute(f"DROP TABLE {run}")
    return Written(created, updated, deleted)


BINARY = {"tournament_id": ">i8", "profile_id": ">i8", "partner_id": ">i8", "sequence": ">i4",
          "games": ">i4", "current": "?"}
"""Each column's value in PostgreSQL's binary COPY (big-endian; the others are float8)."""

SIGNATURE = b"PGCOPY\n\xff\r\n\0" + bytes(8)
TRAILER = b"\xff\xff"


def binary_copy(stored: StoredColumns) -> bytes:
    """The rows as one ``COPY … (FORMAT BINARY)`` stream, made by numpy a block at a time: the
    rows whose subject keys are as long in one block of fixed-width records (each field its
    length, then its bytes; a NULL field the length −1 alone)."""
    values = stored.values
    keys = np.array([name.encode() for name in stored.names], dtype=bytes)
    size = np.char.str_len(keys) if len(keys) else np.zeros(0, np.int64)
    row_size = size[values["subject"]]
    blocks = [SIGNATURE]
    for length in np.unique(row_size).tolist():
        here = row_size == length
        fields: list[tuple[str, str]] = [("fields", ">i2")]
        for name in COLUMNS:
            fields.append((f"{name}:length", ">i4"))
            if name == "subject":
                fields.append((name, f"S{length}"))
            elif values[name] is not None:
                fields.append((name, BINARY.get(name, ">f8")))
        block = np.empty(int(here.sum()), dtype=fields)
        block["fields"] = len(COLUMNS)
        for name in COLUMNS:
            if name == "subject":
                block[f"{name}:length"] = length
                block[name] = keys[values[name][here]]
            elif values[name] is None:
                block[f"{name}:length"] = -1
            else:
                block[f"{name}:length"] = block.dtype[name].itemsize
                block[name] = values[name][here]
        blocks.append(block.tobytes())
    blocks.append(TRAILER)
    return b"".join(blocks)
