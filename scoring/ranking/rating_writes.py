"""Writing a run's rows to a rating list: the stored rows compared with the run's by the
database, only what differs written.

A run's rows (tens of thousands for a federation's list) go into a temporary table (COPY on
PostgreSQL) and are matched to the stored rows once, by key; then one statement updates the
stored rows whose numbers changed, in place, one deletes those of the run's periods the run no
longer makes (when the counts show any), and one inserts the run's rows that matched none (a
list's first run: only that one).
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
"""Rows of a run above which its statements get :data:`WORK_MEM` (a run of the last
tournament, a few hundred rows, does not need it)."""

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
    writing only the differences; inside the caller's transaction.

    The run's rows are matched to the stored ones once, by key (each run row gets its stored
    row's id); then the changed ones are updated by id, the stored rows no run row matched
    are deleted (only when the counts show some), and the run rows that matched none are
    inserted (no lookup in the table being written).
    """
    quote = connection.ops.quote_name
    table = quote(RatingEntry._meta.db_table)
    run = quote(RUN_TABLE)
    mine = [_column(name) for name in COLUMNS]
    pk = _column("id")
    key = " AND ".join(f"{table}.{_column(k)} = {run}.{_column(k)}" for k in KEY)
    # the stored rows of the run's periods: a run's keys are stored in those only (the
    # periods before ``first`` rate the same tournaments as the run found them stored), and
    # the period index reads a last-period run's few hundred, not the list's every row
    in_run = (f"{table}.{_column('rating_list_id')} = %s "
              f"AND {table}.{_column('sequence')} >= %s")
    kept = RatingEntry.objects.filter(rating_list_id=list_id, sequence__gte=first).count()
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {run}")
        types = {**TYPES, **(POSTGRESQL if connection.vendor == "postgresql" else {})}
        columns = ", ".join(f"{c} {types.get(n, 'double precision')}"
                            for n, c in zip(COLUMNS, mine, strict=True))
        # room on each page: giving every row its stored id rewrites it beside itself
        room = " WITH (fillfactor = 50)" if connection.vendor == "postgresql" else ""
        cursor.execute(f"CREATE TEMPORARY TABLE {run} ({pk} bigint, {columns}){room}")
        names = ", ".join(mine)
        if connection.vendor == "postgresql":
            with cursor.copy(f"COPY {run} ({names}) FROM STDIN (FORMAT BINARY)") as copy:
                copy.write(binary_copy(stored))
            if len(stored) > LARGE:  # sorts and hashes in memory
                cursor.execute(f"SET LOCAL work_mem = '{WORK_MEM}'")
        else:
            marks = ", ".join(["%s"] * len(mine))
            cursor.executemany(f"INSERT INTO {run} ({names}) VALUES ({marks})", stored.rows())
        if connection.vendor == "postgresql":
            # no nested loop: a join planned on stale statistics (a list's first rows just
            # written, the temporary table never analyzed) scanned one side for each row of
            # the other (20,000 × 200: minutes); hashed, each side is read once
            cursor.execute("SET LOCAL enable_nestloop = off")
        matched = updated = deleted = 0
        if kept:
            cursor.execute(f"UPDATE {run} SET {pk} = {table}.{pk} FROM {table} "
                           f"WHERE {in_run} AND {key}", [list_id, first])
            matched = cursor.rowcount
            changed = " OR ".join(f"{table}.{_column(v)} IS DISTINCT FROM {run}.{_column(v)}"
                                  for v in VALUES)
            assign = ", ".join(f"{_column(v)} = {run}.{_column(v)}" for v in VALUES)
            cursor.execute(f"UPDATE {table} SET {assign} FROM {run} "
                           f"WHERE {in_run} AND {table}.{pk} = {run}.{pk} AND ({changed})",
                           [list_id, first])
            updated = cursor.rowcount
            if kept > matched:  # stored rows the run no longer makes
                cursor.execute(
                    f"DELETE FROM {table} WHERE {in_run} AND NOT EXISTS "
                    f"(SELECT 1 FROM {run} WHERE {run}.{pk} = {table}.{pk})", [list_id, first])
                deleted = cursor.rowcount
        created = 0
        if len(stored) > matched:
            cursor.execute(f"INSERT INTO {table} ({_column('rating_list_id')}, {names}) "
                           f"SELECT %s, {', '.join(f'{run}.{c}' for c in mine)} FROM {run} "
                           f"WHERE {run}.{pk} IS NULL", [list_id])
            created = cursor.rowcount
        cursor.execute(f"DROP TABLE {run}")
        if connection.vendor == "postgresql":
            cursor.execute("RESET enable_nestloop")
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
