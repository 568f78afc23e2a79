"""The party record's row lock and version: what every service that changes a party calls."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.db import OperationalError, connections, router
from django.db.models import Model
from django.utils.translation import gettext as _

from scoring.core.compiled import db_column, save_fields
from scoring.core.errors import BusyError, ConflictError, ServiceError
from scoring.models import (
    Pair,
    Party,
    RefereeSettings,
    Regulations,
    Round,
    Table,
    Tournament,
    TournamentRole,
)
from scoring.party.event_log import LOGGED_BUMP
from scoring.party.rows import model_instance, row_instance, split_row

PARTY_LOCK_RELATED = (
    "round__tournament__regulations", "round__tournament__referee_settings",
    "pair_a", "pair_b", "table",
)
"""What every party service reads with the locked party row (one query): the tournament's
regulations and referee settings (its penalty preset), the pairs and the table."""

# The models the lock query reads, by their alias in it: the party, its round, tournament,
# regulations and referee settings, its pairs and its table, as
# ``select_related(*PARTY_LOCK_RELATED)`` reads them.
_LOCK_MODELS: tuple[tuple[str, type[Model]], ...] = (
    ("p", Party), ("r", Round), ("t", Tournament), ("g", Regulations), ("s", RefereeSettings),
    ("pa", Pair), ("pb", Pair), ("tb", Table),
)
REFEREE_SETTINGS_CACHE = RefereeSettings._meta.get_field("tournament").remote_field
"""The tournament's side of its referee settings' one-to-one (what ``select_related`` caches)."""
_PARTY_SQL: dict[tuple[str, bool, bool], str] = {}
LOCK_NOT_AVAILABLE = "55P03"
"""PostgreSQL's SQLSTATE of a lock not obtained within ``lock_timeout``."""
_HANDED: ContextVar[tuple[str, int, Party] | None] = ContextVar("handed_party", default=None)
"""The party a request's view locked for its action: (database, id, instance), taken once."""


def _party_sql(connection: Any, lock: bool, roles: bool = False) -> str:
    """The party query for this database (its lock, or a plain read), written once from the
    models' documented ``_meta``; with ``roles``, two more columns: a user's roles in the
    party's tournament and the tables of his referee role (``_ROLES``)."""
    found = _PARTY_SQL.get((connection.alias, lock, roles))
    if found is not None:
        return found
    q = connection.ops.quote_name

    def table(model: type[Model]) -> str:
        return q(model._meta.db_table)

    def pk(model: type[Model]) -> str:
        return q(db_column(model._meta.pk))

    def column(model: type[Model], name: str) -> str:
        return q(db_column(model._meta.get_field(name)))

    selected = [
        f"{alias}.{q(f.column)}" for alias, model in _LOCK_MODELS
        for f in model._meta.concrete_fields
    ]
    if roles:
        selected += _roles_columns(connection)
    sql = (
        f"SELECT {', '.join(selected)} FROM {table(Party)} p "
        f"JOIN {table(Round)} r ON r.{pk(Round)} = p.{column(Party, 'round')} "
        f"JOIN {table(Tournament)} t ON t.{pk(Tournament)} = r.{column(Round, 'tournament')} "
        f"LEFT JOIN {table(Regulations)} g "
        f"ON g.{column(Regulations, 'tournament')} = t.{pk(Tournament)} "
        f"LEFT JOIN {table(RefereeSettings)} s "
        f"ON s.{column(RefereeSettings, 'tournament')} = t.{pk(Tournament)} "
        f"JOIN {table(Pair)} pa ON pa.{pk(Pair)} = p.{column(Party, 'pair_a')} "
        f"LEFT JOIN {table(Pair)} pb ON pb.{pk(Pair)} = p.{column(Party, 'pair_b')} "
        f"LEFT JOIN {table(Table)} tb ON tb.{pk(Table)} = p.{column(Party, 'table')} "
        # the wait's bound for this transaction, set by the same statement before any row is
        # locked: the volatile set_config is evaluated before the join yields its first row
        + ("CROSS JOIN (SELECT set_config('lock_timeout', %s, true)) bound " if lock else "")
        + f"WHERE p.{pk(Party)} = %s" + (" FOR UPDATE OF p" if lock else "")
    )
    _PARTY_SQL[(connection.alias, lock, roles)] = sql
    return sql


def _roles_columns(connection: Any) -> list[str]:
    """The user's role values in the tournament ``t`` and his referee role's tables, as two
    arrays (``scoring.access.permissions._grants_of`` reads the same in a query of its own);
    their parameters: the user's id, the user's id, the referee role."""
    q = connection.ops.quote_name
    opts = TournamentRole._meta
    through = TournamentRole.tables.through._meta

    def column(options: Any, name: str) -> str:
        return q(db_column(options.get_field(name)))

    role, user, tournament = (column(opts, name) for name in ("role", "user", "tournament"))
    return [
        f"ARRAY(SELECT ro.{role} FROM {q(opts.db_table)} ro "
        f"WHERE ro.{tournament} = t.{q(db_column(Tournament._meta.pk))} AND ro.{user} = %s)",
        f"ARRAY(SELECT rt.{column(through, 'table')} FROM {q(opts.db_table)} ro "
        f"JOIN {q(through.db_table)} rt "
        f"ON rt.{column(through, 'tournamentrole')} = ro.{q(db_column(opts.pk))} "
        f"WHERE ro.{tournament} = t.{q(db_column(Tournament._meta.pk))} AND ro.{user} = %s "
        f"AND ro.{role} = %s)",
    ]


def _roles_params(user_id: int) -> list[Any]:
    """The parameters of ``_roles_columns``."""
    return [user_id, user_id, TournamentRole.Role.REFEREE.value]


Roles = tuple[set[str], set[int]]
"""A user's role values in a tournament and the tables of his referee role."""


def _roles_from_row(row: tuple[Any, ...]) -> tuple[tuple[Any, ...], Roles]:
    """The party query's row without its two roles columns, and those roles."""
    return row[:-2], (set(row[-2]), set(row[-1]))


def _party_from_row(row: tuple[Any, ...], db: str, connection: Any) -> Party:
    """The party and what it was read with, from one row of the party query."""
    p, r, t, g, s, pa, pb, tb = split_row(row, *(model for _alias, model in _LOCK_MODELS))
    party, rnd = row_instance(Party, p, db, connection), row_instance(Round, r, db, connection)
    tournament = row_instance(Tournament, t, db, connection)
    regulations = model_instance(Regulations, g, db, connection)
    if regulations is not None:
        tournament.regulations = regulations
    settings_row = model_instance(RefereeSettings, s, db, connection)  # None: the defaults apply
    REFEREE_SETTINGS_CACHE.set_cached_value(tournament, settings_row)
    rnd.tournament = tournament
    party.round = rnd
    party.pair_a = row_instance(Pair, pa, db, connection)
    party.pair_b = model_instance(Pair, pb, db, connection)
    party.table = model_instance(Table, tb, db, connection)
    return party


def read_party(party_id: int) -> Party:
    """The party with what every action reads of it (``PARTY_LOCK_RELATED``), unlocked, in
    one query written once per process (raises ``Party.DoesNotExist``)."""
    return _read_party(party_id)[0]


def _read_party(party_id: int, user_id: int | None = None) -> tuple[Party, Roles | None]:
    """``read_party``, and on PostgreSQL with ``user_id`` that user's roles in the party's
    tournament read by the same query (else None)."""
    db = router.db_for_read(Party)
    connection = connections[db]
    if connection.vendor != "postgresql":
        return Party.objects.select_related(*PARTY_LOCK_RELATED).get(pk=int(party_id)), None
    roles = user_id is not None
    with connection.cursor() as cursor:
        cursor.execute(_party_sql(connection, lock=False, roles=roles),
                       [*(_roles_params(user_id) if user_id is not None else []), int(party_id)])
        row = cursor.fetchone()
    if row is None:
        raise Party.DoesNotExist
    if user_id is None:
        return _party_from_row(row, db, connection), None
    row, found = _roles_from_row(row)
    return _party_from_row(row, db, connection), found


def _locked_party_postgresql(party_id: int, db: str,
                             user_id: int | None = None) -> tuple[Party, Roles | None]:
    """The party row locked, with what every service reads, in one prepared-once query; with
    ``user_id``, that user's roles in its tournament too."""
    connection = connections[db]
    timeout_ms = max(1, round(float(settings.PARTY_LOCK_TIMEOUT_SECONDS) * 1000))
    roles = user_id is not None
    params = [*(_roles_params(user_id) if user_id is not None else []),
              f"{int(timeout_ms)}ms", party_id]
    with connection.cursor() as cursor:
        try:
            cursor.execute(_party_sql(connection, lock=True, roles=roles), params)
        except OperationalError as exc:
            if getattr(exc.__cause__, "sqlstate", None) != LOCK_NOT_AVAILABLE:
                raise
            raise BusyError(
                "party",
                _("Another change of this party is still being saved. Try again in a moment."),
            ) from exc
        row = cursor.fetchone()
    if row is None:
        raise Party.DoesNotExist
    if user_id is None:
        return _party_from_row(row, db, connection), None
    row, found = _roles_from_row(row)
    return _party_from_row(row, db, connection), found


def _lock(party_id: int, db: str) -> Party:
    """The party's row locked with what every service reads (raises ``Party.DoesNotExist``)."""
    return _lock_with_roles(party_id, db)[0]


def _lock_with_roles(party_id: int, db: str,
                     user_id: int | None = None) -> tuple[Party, Roles | None]:
    """``_lock``, and on PostgreSQL with ``user_id`` that user's roles read with it."""
    if connections[db].vendor == "postgresql":
        return _locked_party_postgresql(party_id, db, user_id)
    return (
        Party.objects.select_for_update(of=("self",))
        .select_related(*PARTY_LOCK_RELATED)
        .get(pk=party_id)
    ), None


def _handed(party_id: int, db: str) -> Party | None:
    """The party the request's view locked for this action, once, if it is this one and the
    view's transaction is still open."""
    handed = _HANDED.get()
    if handed is None or handed[0] != db or handed[1] != party_id:
        return None
    _HANDED.set(None)
    return handed[2] if connections[db].in_atomic_block else None


def lock_party(party_id: int | None, expected_version: int | None = None) -> Party:
    """Lock a party's row for this transaction; refuse a stale version with a conflict.

    On PostgreSQL the joined query is written once per process from the models' ``_meta`` and
    run through the connection's cursor (compiling the equivalent ``select_related`` query
    cost about 2.5 ms per action); elsewhere it is the ORM's ``select_for_update``. On
    PostgreSQL the wait for the row is bounded by ``PARTY_LOCK_TIMEOUT_SECONDS``: a row held
    longer (a stuck transaction) refuses with ``BusyError`` (503, "try again") instead of
    holding the worker. The first call for the party a view locked for its action
    (``party_locked_for_action``) returns that row: its lock is the transaction's already.
    """
    try:
        if party_id is None:
            raise Party.DoesNotExist
        db = router.db_for_write(Party)
        party = _handed(int(party_id), db) or _lock(int(party_id), db)
    except (Party.DoesNotExist, TypeError, ValueError) as exc:
        raise ServiceError("party", _("No such party.")) from exc
    check_version(party, expected_version)
    return party


@contextmanager
def party_locked_for_action(
    party_id: int, user_id: int | None = None,
) -> Iterator[tuple[Party, Roles | None]]:
    """The party for a view to check and act on: locked when the request runs in a transaction
    (an Idempotency-Key's), so the action's ``lock_party`` takes this row instead of reading it
    again; else read unlocked (``read_party``). Raises ``Party.DoesNotExist`` when absent.

    With ``user_id`` (the request's user), on PostgreSQL the same query reads that user's roles
    in the party's tournament and his referee tables (the view's permission check then reads
    nothing more: one statement fewer per action, part of ``deal_entry_sql_statements`` 11 → 8
    in ``bench/bench_deal_entry.py``); else the roles are None."""
    db = router.db_for_write(Party)
    if not connections[db].in_atomic_block:
        yield _read_party(party_id, user_id)
        return
    party, roles = _lock_with_roles(int(party_id), db, user_id)
    token = _HANDED.set((db, party.pk, party))
    try:
        yield party, roles
    finally:
        _HANDED.reset(token)


def check_version(party: Party, expected_version: int | None) -> None:
    """Refuse a stale ``expected_version`` of the locked party with a conflict."""
    if expected_version is not None and int(expected_version) != party.version:
        raise ConflictError(
            "version",
            _(
                "The party was changed by someone else (version %(have)s, you sent %(sent)s). "
                "Reload and try again."
            )
            % {"have": party.version, "sent": expected_version},
        )


def bump_version(party: Party, **fields: Any) -> None:
    """Save the given fields of a locked party and increase its version.

    After ``append_event(…, with_version=…)`` the event's statement saved the fields it named
    and this version already (PostgreSQL): then nothing more is written, unless more fields
    are given here."""
    logged = party.__dict__.pop(LOGGED_BUMP, None)
    for name, value in fields.items():
        setattr(party, name, value)
    party.version += 1
    if logged is not None and logged[0] == party.version:
        _version, names, written = logged
        if written and not fields:
            return
        fields = {**dict.fromkeys(names), **fields}
    save_fields(party, [*fields.keys(), "version"])
