"""A party's record rows as its protocol reads them, by queries written once per process.

A protocol is built from the party's players, deals, penalties and rulings. Compiling the
equivalent ORM querysets (``select_related``, the models' default ordering) cost about a
millisecond each per protocol; these queries are written once per database from the models'
``_meta`` (as ``scoring.party.row_lock`` writes the party lock) and run through the connection's
cursor. The values pass through the same converters the ORM applies, and related rows are
attached as ``select_related`` attaches them, so the instances are the ORM's
(``model_instance``, which the party lock's row goes through too).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import connections, router
from django.db.models import Model

from scoring.core.compiled import db_column
from scoring.models import Deal, Party, Penalty, Player, Protocol, Ruling, Signature

M = TypeVar("M", bound=Model)

_SQL: dict[tuple[str, str], str] = {}
_CONVERTERS: dict[tuple[str, type[Model]], list[tuple[int, Any, list[Any]]]] = {}
_ATTNAMES: dict[type[Model], list[str]] = {}


@dataclass
class PartyRows:
    """The deals (by number), penalties and rulings (by time) of one party."""

    deals: list[Deal]
    penalties: list[Penalty]
    rulings: list[Ruling]


def _converters(model: type[Model], connection: Any) -> list[tuple[int, Any, list[Any]]]:
    """``(index, column, converters)`` of each concrete field whose database value the ORM
    converts, with the converters it applies (most fields have none)."""
    key = (connection.alias, model)
    found = _CONVERTERS.get(key)
    if found is None:
        found = []
        for index, field in enumerate(model._meta.concrete_fields):
            column = field.get_col(model._meta.db_table)
            converters = (connection.ops.get_db_converters(column)
                          + field.get_db_converters(connection))
            if converters:
                found.append((index, column, converters))
        _CONVERTERS[key] = found
    return found


def model_instance(model: type[M], values: Sequence[Any], db: str,
                   connection: Any) -> M | None:
    """A model instance from its columns' values in its concrete fields' order, converted as
    the ORM converts them (None for a missing LEFT JOIN row)."""
    if values[0] is None:
        return None
    return row_instance(model, values, db, connection)


def row_instance(model: type[M], values: Sequence[Any], db: str, connection: Any) -> M:
    """``model_instance`` of a row that is there (its own table's, or an inner join's)."""
    converted = list(values)
    for index, column, converters in _converters(model, connection):
        value = converted[index]
        for converter in converters:
            value = converter(value, column, connection)
        converted[index] = value
    return model.from_db(db, _attnames(model), converted)


def _attnames(model: type[Model]) -> list[str]:
    """The attribute names of the model's concrete fields, in their order (read once)."""
    found = _ATTNAMES.get(model)
    if found is None:
        found = _ATTNAMES[model] = [f.attname for f in model._meta.concrete_fields]
    return found


def _select(connection: Any, *aliased: tuple[str, type[Model]]) -> str:
    """The column list of ``aliased`` models, in their concrete fields' order."""
    q = connection.ops.quote_name
    return ", ".join(f"{alias}.{q(f.column)}" for alias, model in aliased
                     for f in model._meta.concrete_fields)


def _written(connection: Any, name: str) -> str:
    """The SQL of query ``name`` for this database, written once."""
    key = (connection.alias, name)
    found = _SQL.get(key)
    if found is not None:
        return found
    q = connection.ops.quote_name

    def table(model: type[Model]) -> str:
        return q(model._meta.db_table)

    def column(model: type[Model], field: str) -> str:
        return q(db_column(model._meta.get_field(field)))

    player_pk, penalty_pk = q(Player._meta.pk.column), q(Penalty._meta.pk.column)
    if name.startswith("players:"):
        marks = ", ".join(["%s"] * int(name.split(":")[1]))
        sql = (f"SELECT {_select(connection, ('pl', Player))} FROM {table(Player)} pl "
               f"WHERE pl.{player_pk} IN ({marks})")
    elif name == "version":
        user = get_user_model()
        protocol_pk = q(Protocol._meta.pk.column)
        sql = (f"SELECT {_select(connection, ('v', Protocol), ('s', Signature), ('us', user))} "
               f"FROM {table(Protocol)} v LEFT JOIN {table(Signature)} s "
               f"ON s.{column(Signature, 'protocol')} = v.{protocol_pk} "
               f"LEFT JOIN {table(user)} us "
               f"ON us.{q(user._meta.pk.column)} = s.{column(Signature, 'user')} "
               f"WHERE v.{protocol_pk} = (SELECT o.{protocol_pk} FROM {table(Protocol)} o "
               f"WHERE o.{column(Protocol, 'party')} = %s AND o.{column(Protocol, 'status')} <> %s "
               f"ORDER BY o.{column(Protocol, 'version')} LIMIT 1) "
               f"ORDER BY s.{column(Signature, 'signed_at')}, s.{q(Signature._meta.pk.column)}")
        if connection.features.has_select_for_update_of:
            sql += " FOR UPDATE OF v"
        elif connection.features.has_select_for_update:
            sql += " FOR UPDATE"
    elif name == "deals":
        sql = (f"SELECT {_select(connection, ('d', Deal))} FROM {table(Deal)} d "
               f"WHERE d.{column(Deal, 'party')} = %s ORDER BY d.{column(Deal, 'number')}")
    elif name == "penalties":
        sql = (f"SELECT {_select(connection, ('n', Penalty), ('pl', Player))} "
               f"FROM {table(Penalty)} n LEFT JOIN {table(Player)} pl "
               f"ON pl.{player_pk} = n.{column(Penalty, 'player')} "
               f"WHERE n.{column(Penalty, 'party')} = %s "
               f"ORDER BY n.{column(Penalty, 'created_at')}, n.{penalty_pk}")
    else:  # rulings
        sql = (f"SELECT {_select(connection, ('u', Ruling), ('pl', Player), ('n', Penalty))} "
               f"FROM {table(Ruling)} u LEFT JOIN {table(Player)} pl "
               f"ON pl.{player_pk} = u.{column(Ruling, 'player')} "
               f"LEFT JOIN {table(Penalty)} n ON n.{penalty_pk} = u.{column(Ruling, 'penalty')} "
               f"WHERE u.{column(Ruling, 'party')} = %s "
               f"ORDER BY u.{column(Ruling, 'created_at')}, u.{q(Ruling._meta.pk.column)}")
    _SQL[key] = sql
    return sql


def _rows(connection: Any, name: str, *params: Any) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(_written(connection, name), list(params))
        return cursor.fetchall()


def players_by_pk(ids: Sequence[int]) -> dict[int, Player]:
    """The players of these primary keys, by key (one query)."""
    ids = sorted(set(ids))
    if not ids:
        return {}
    db = router.db_for_read(Player)
    connection = connections[db]
    players = [row_instance(Player, row, db, connection)
               for row in _rows(connection, f"players:{len(ids)}", *ids)]
    return {player.pk: player for player in players}


def locked_version(party: Party) -> tuple[Protocol | None, list[Signature]]:
    """The party's protocol version that is not superseded, row-locked for this transaction
    (where the database locks rows), with its signatures and their users: one query."""
    db = router.db_for_write(Protocol)
    connection = connections[db]
    user = get_user_model()
    protocol: Protocol | None = None
    signatures: list[Signature] = []
    for row in _rows(connection, "version", party.pk, Protocol.Status.SUPERSEDED):
        own, signed, by = split_row(row, Protocol, Signature, user)
        if protocol is None:
            protocol = row_instance(Protocol, own, db, connection)
            protocol.party = party
        signature = model_instance(Signature, signed, db, connection)
        if signature is not None:
            signature.user = model_instance(user, by, db, connection)
            signature.protocol = protocol
            signatures.append(signature)
    return protocol, signatures


def split_row(row: tuple, *models: type[Model]) -> list[tuple]:
    """A joined row cut into each model's columns."""
    parts, start = [], 0
    for model in models:
        width = len(model._meta.concrete_fields)
        parts.append(row[start:start + width])
        start += width
    return parts


def party_rows(party: Party) -> PartyRows:
    """The deals, penalties (with their player) and rulings (with their player and fine) of
    ``party``, in the order the ORM's default ordering gives: three queries, none compiled."""
    db = router.db_for_read(Deal)
    connection = connections[db]
    deals = [row_instance(Deal, row, db, connection)
             for row in _rows(connection, "deals", party.pk)]
    penalties = []
    for row in _rows(connection, "penalties", party.pk):
        own, player = split_row(row, Penalty, Player)
        penalty = row_instance(Penalty, own, db, connection)
        penalty.player = model_instance(Player, player, db, connection)
        penalties.append(penalty)
    rulings = []
    for row in _rows(connection, "rulings", party.pk):
        own, player, fine = split_row(row, Ruling, Player, Penalty)
        ruling = row_instance(Ruling, own, db, connection)
        ruling.player = model_instance(Player, player, db, connection)
        ruling.penalty = model_instance(Penalty, fine, db, connection)
        rulings.append(ruling)
    records: list[Deal | Penalty | Ruling] = [*deals, *penalties, *rulings]
    for record in records:
        record.party = party
    return PartyRows(deals, penalties, rulings)
