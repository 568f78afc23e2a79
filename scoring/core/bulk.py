"""Many new rows of one model in one statement, without an instance per row.

``bulk_create`` builds a model instance per row and binds every field of every row (20 fields
of 2,500 parties: 50,000 parameters, each prepared by its field). On PostgreSQL
:func:`insert_rows` sends one array per column that varies, the others once as constants,
and ``INSERT … SELECT … FROM unnest(…)`` makes the rows; the columns come from the model's
``_meta`` and the values pass through the fields' own preparation, where a value needs it.
Elsewhere it is ``bulk_create`` of the same rows.

:func:`copy_rows` is for tens of thousands of rows (a rating list's): on PostgreSQL it streams
them with ``COPY … FROM STDIN`` (psycopg 3's ``cursor.copy()`` on Django's own connection, so
inside its transaction: the one place the ORM is bypassed for a write; measured in
``bench/bench_ratings_db.py``: the arrays ``insert_rows`` sends cost more to dump than the rows
to stream). Elsewhere it is ``bulk_create`` too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import NOT_PROVIDED, Field, Model

from scoring.core.compiled import db_column


def _prepare(field: Field[Any, Any], value: object, connection: BaseDatabaseWrapper,
             seen: dict[tuple[type, object], Any]) -> Any:
    """A value as the field writes it (ints and None pass as they are; each other value is
    prepared once)."""
    if value is None or type(value) is int:
        return value
    key = (type(value), value)
    try:
        return seen[key]
    except KeyError:
        prepared = seen[key] = field.get_db_prep_save(value, connection)
        return prepared
    except TypeError:  # not hashable
        return field.get_db_prep_save(value, connection)


AS_THEY_ARE = frozenset({
    "AutoField", "BigAutoField", "BigIntegerField", "BooleanField", "CharField", "FloatField",
    "ForeignKey", "IntegerField", "PositiveIntegerField", "PositiveSmallIntegerField",
    "SmallIntegerField", "TextField",
})
"""Fields whose database value is the Python value itself, when that is one of :data:`PLAIN`."""

PLAIN = (int, float, str, bool)
"""Python types psycopg writes as the fields above would prepare them."""


def _columns(model: type[Model], named: set[str], connection: BaseDatabaseWrapper
             ) -> list[tuple[Field[Any, Any], bool]]:
    """The columns an insert writes, each with whether the rows name it (a column not named
    takes its default; the primary key and a column with a database default are left out)."""
    return [
        (field, field.attname in named) for field in model._meta.concrete_fields
        if field.attname in named or not (
            field.primary_key or field.db_default is not NOT_PROVIDED)
    ]


def copy_rows(model: type[Model], rows: Sequence[dict[str, Any]]) -> None:
    """Insert ``rows`` (field attname → value; a field not named takes its default) by COPY
    on PostgreSQL, by ``bulk_create`` elsewhere."""
    if not rows:
        return
    db = router.db_for_write(model)
    connection = connections[db]
    if connection.vendor != "postgresql":
        model._default_manager.using(db).bulk_create([model(**row) for row in rows],
                                                     batch_size=2000)
        return
    quote = connection.ops.quote_name
    columns = _columns(model, set().union(*rows), connection)
    values: list[Sequence[Any]] = []  # column by column
    for field, named in columns:
        default = _prepare(field, field.get_default(), connection, {})
        if not named:
            values.append([default] * len(rows))
            continue
        name = field.attname
        column = [row.get(name, default) for row in rows]
        plain = field.get_internal_type() in AS_THEY_ARE
        if not all(value is None or type(value) in PLAIN for value in column) or not plain:
            seen: dict[tuple[type, object], Any] = {}
            column = [_prepare(field, value, connection, seen) for value in column]
        values.append(column)
    names = ", ".join(quote(db_column(field)) for field, _named in columns)
    sql = f"COPY {quote(model._meta.db_table)} ({names}) FROM STDIN"
    with connection.cursor() as cursor, cursor.copy(sql) as copy:
        write = copy.write_row
        for row in zip(*values, strict=True):
            write(row)


def insert_rows(model: type[Model], rows: Sequence[dict[str, Any]]) -> None:
    """Insert ``rows`` (field attname → value; a field not named takes its default)."""
    if not rows:
        return
    db = router.db_for_write(model)
    connection = connections[db]
    if connection.vendor != "postgresql":
        model._default_manager.using(db).bulk_create([model(**row) for row in rows])
        return
    named = set().union(*rows)
    quote = connection.ops.quote_name
    columns, selected, params = [], [], []
    arrays: list[tuple[list[Any], str | None]] = []  # each varying column's values, its type
    for field in model._meta.concrete_fields:
        if field.attname not in named and (
            field.primary_key or field.db_default is not NOT_PROVIDED
        ):
            continue  # the sequence, or the column's default, gives it
        columns.append(quote(db_column(field)))
        cast = field.db_type(connection)
        if field.attname in named:
            default = field.get_default()
            seen: dict[tuple[type, object], Any] = {}
            values = [_prepare(field, row.get(field.attname, default), connection, seen)
                      for row in rows]
            if any(value != values[0] for value in values):
                selected.append(f"u.c{len(arrays)}")
                arrays.append((values, cast))
                continue
            constant = values[0]
        else:
            constant = _prepare(field, field.get_default(), connection, {})
        selected.append(f"%s::{cast}")
        params.append(constant)
    unnest = ", ".join(f"%s::{cast}[]" for _values, cast in arrays)
    names = ", ".join(f"c{k}" for k in range(len(arrays)))
    source = f" FROM unnest({unnest}) AS u({names})" if arrays else ""
    sql = (f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(columns)}) "
           f"SELECT {', '.join(selected)}{source}")
    if not arrays:  # every row alike: as many copies as rows
        sql += " FROM generate_series(1, %s)"
    with connection.cursor() as cursor:
        cursor.execute(sql, params + [values for values, _cast in arrays] +
                       ([] if arrays else [len(rows)]))
