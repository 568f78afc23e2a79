"""Many new rows of one model in one statement, without an instance per row.

``bulk_create`` builds a model instance per row and binds every field of every row (20 fields
of 2,500 parties: 50,000 parameters, each prepared by its field). On PostgreSQL
:func:`insert_rows` sends one array per column that varies, the others once as constants,
and ``INSERT … SELECT … FROM unnest(…)`` makes the rows; the columns come from the model's
``_meta`` and the values pass through the fields' own preparation, where a value needs it.
Elsewhere it is ``bulk_create`` of the same rows.

A rating list's tens of thousands of rows go another way: ``scoring.ranking.rating_writes``.
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
