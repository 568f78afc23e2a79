"""Querysets compiled to SQL once per database connection, for the reads every action makes,
the UPDATE of a row's fields and the INSERT of a new row written once (``save_fields``,
``insert_row``).

Compiling a queryset (its joins, columns and converters) costs the ORM a few hundred
microseconds each time; a party action makes half a dozen of the same reads with another id.
``CompiledQuery`` compiles its queryset once per connection, with marker values where the
arguments go, and then runs the same SQL with the arguments in their places, decoding the rows
with the same converters the ORM would use. The queryset stays the one definition of the read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.core.exceptions import FieldError
from django.db import DatabaseError, connections, router
from django.db.models import Field, ForeignObjectRel, Model, QuerySet, signals

_INT_MARKER = -7_340_033
_STR_MARKER = "\x1fcompiled-query-argument-"


def db_column(field: Field[Any, Any] | ForeignObjectRel) -> str:
    """The column of a model's concrete field (``_meta.get_field`` also names relations' other
    sides, which have none)."""
    if isinstance(field, ForeignObjectRel) or field.column is None:
        raise FieldError(f"{field.name} has no column of its own")
    return field.column


def _markers(kinds: tuple[type, ...]) -> list[Any]:
    """One value per argument that no real query uses, by the argument's type (int or str)."""
    return [
        _INT_MARKER - n if kind is int else f"{_STR_MARKER}{n}" for n, kind in enumerate(kinds)
    ]


class CompiledQuery:
    """A ``values_list`` queryset of ``model``, built by ``build(*arguments)``, compiled once.

    ``kinds`` are the arguments' types (int ids or str keys): the queryset is built once with a
    marker of each kind, and each marker found among the compiled parameters is where that
    argument goes. ``rows(*arguments)`` returns the rows as tuples, as ``values_list`` would.
    """

    def __init__(
        self, name: str, model: type[Model], build: Callable[..., QuerySet], *kinds: type
    ) -> None:
        self.name = f"compiled:{name}"
        self.model = model
        self.build = build
        self.kinds = kinds

    def _compiled(self, alias: str) -> tuple[Any, ...]:
        """The query's SQL, parameters, argument positions, compiler and converters."""
        connection = connections[alias]
        cache = connection.__dict__.setdefault("_compiled_queries", {})
        found = cache.get(self.name)
        if found is not None:
            return found
        markers = _markers(self.kinds)
        compiler = self.build(*markers).using(alias).query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        positions = [
            markers.index(value) if isinstance(value, int | str) and value in markers else None
            for value in params
        ]
        if sorted(p for p in positions if p is not None) != list(range(len(markers))):
            raise ValueError(f"{self.name}: each argument must appear once in the query")
        fields = [column[0] for column in compiler.select[0:compiler.col_count]]
        found = (sql, list(params), positions, compiler, compiler.get_converters(fields))
        cache[self.name] = found
        return found

    def rows(self, *arguments: Any, using: str | None = None) -> list[tuple[Any, ...]]:
        """The query's rows for these arguments (the converters applied)."""
        alias = using or router.db_for_read(self.model)
        sql, params, positions, compiler, converters = self._compiled(alias)
        values = [
            p if at is None else arguments[at] for p, at in zip(params, positions, strict=True)
        ]
        with connections[alias].cursor() as cursor:
            cursor.execute(sql, values)
            rows = cursor.fetchall()
        if converters:
            return [tuple(row) for row in compiler.apply_converters(rows, converters)]
        return rows

    def first(self, *arguments: Any, using: str | None = None) -> tuple[Any, ...] | None:
        """The query's first row for these arguments, or None."""
        rows = self.rows(*arguments, using=using)
        return rows[0] if rows else None


def save_fields(instance: Model, fields: Sequence[str]) -> None:
    """``instance.save(update_fields=fields)`` as one UPDATE written once per model and fields.

    It does what ``save`` does for such a call: each field's ``pre_save`` (``auto_now``, a
    file committed to storage), its database value, the row by primary key, and an error when
    no row was updated; without compiling an update query each time (about a millisecond per
    call). A model with save signal receivers, or a value that is an expression, is saved by
    ``save`` itself.
    """
    model = type(instance)
    if signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model):
        instance.save(update_fields=fields)
        return
    alias = instance._state.db or router.db_for_write(model, instance=instance)
    connection = connections[alias]
    cache = connection.__dict__.setdefault("_compiled_updates", {})
    key = (model, tuple(fields))
    found = cache.get(key)
    if found is None:
        opts = model._meta
        targets = [opts.get_field(name) for name in fields]
        q = connection.ops.quote_name
        assignments = ", ".join(f"{q(db_column(field))} = %s" for field in targets)
        sql = f"UPDATE {q(opts.db_table)} SET {assignments} WHERE {q(db_column(opts.pk))} = %s"
        found = cache[key] = (sql, targets, opts.pk)
    sql, targets, pk = found
    values = [field.pre_save(instance, False) for field in targets]
    if any(hasattr(value, "resolve_expression") for value in values):
        instance.save(update_fields=fields)  # an F() or another expression: the ORM writes it
        return
    values = [field.get_db_prep_save(value, connection)
              for field, value in zip(targets, values, strict=True)]
    values.append(pk.get_db_prep_value(instance.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        updated = cursor.rowcount
    if updated == 0:
        raise DatabaseError("Save with update_fields did not affect any rows.")


def insert_row(instance: Model) -> None:
    """``instance.save(force_insert=True)`` for a new row, as one INSERT written once per model.

    It does what ``save`` does for it: each field's ``pre_save`` (``auto_now_add``), its
    database value, the new primary key on the instance and the instance's state, without
    compiling an insert query each time (about a millisecond per call). A model with save
    signal receivers, a column the database fills in besides the key, or a value that is an
    expression is saved by ``save`` itself.
    """
    model = type(instance)
    opts = model._meta
    if (signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model)
            or opts.parents or [f for f in opts.db_returning_fields if f is not opts.pk]):
        instance.save(force_insert=True)
        return
    alias = instance._state.db or router.db_for_write(model, instance=instance)
    connection = connections[alias]
    cache = connection.__dict__.setdefault("_compiled_inserts", {})
    found = cache.get(model)
    if found is None:
        targets = [f for f in opts.concrete_fields if f is not opts.pk or instance.pk is not None]
        q = connection.ops.quote_name
        columns = ", ".join(q(db_column(field)) for field in targets)
        sql = (f"INSERT INTO {q(opts.db_table)} ({columns}) "
               f"VALUES ({', '.join(['%s'] * len(targets))})")
        returning = connection.features.can_return_columns_from_insert
        if returning:
            sql += f" RETURNING {q(db_column(opts.pk))}"
        found = cache[model] = (sql, targets, returning, instance.pk is not None)
    sql, targets, returning, with_pk = found
    if with_pk != (instance.pk is not None):  # the key given, or not, unlike the first time
        instance.save(force_insert=True)
        return
    values = [field.pre_save(instance, True) for field in targets]
    if any(hasattr(value, "resolve_expression") for value in values):
        instance.save(force_insert=True)  # an expression: the ORM writes it
        return
    values = [field.get_db_prep_save(value, connection)
              for field, value in zip(targets, values, strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        if not with_pk:
            new = (cursor.fetchone()[0] if returning
                   else connection.ops.last_insert_id(cursor, opts.db_table, db_column(opts.pk)))
            instance.pk = opts.pk.to_python(new)
    instance._state.adding = False
    instance._state.db = alias
