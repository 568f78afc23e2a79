"""A tournament's entrants version: every change of its players, pairs, teams or tables moves it.

Its public pages show names, clubs, withdrawals and tables besides the results, so their ETags
digest ``Tournament.entrants_version`` with the results version (``vars(tournament)``): a name
corrected between rounds is answered 200, not 304. The version moves when the change commits
(never on a rollback), once per transaction and tournament however many rows changed, in a
statement of its own, so that no service holds the tournament's row locked while it works;
then :data:`entrants_moved` is sent (``scoring.live`` tells the pages open on the tournament's
stream: an ``entrants`` event; the app's ``ready`` connects them, as the base's wings below
the live one call this module).

A saved or deleted row moves it through the models' signals (forms, the admin, the API);
the services that change rows in bulk (``update``, ``bulk_create``, ``bulk_update``) call
:func:`entrants_changed` themselves.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import F, signals
from django.dispatch import Signal

from scoring.models import Pair, Player, Table, Team, Tournament

MODELS = (Player, Pair, Team, Table)
"""The records of a tournament's entrants and tables, whose changes move its version."""

entrants_moved = Signal()
"""Sent after the entrants versions moved, with ``tournament_ids`` (sorted)."""

_local = threading.local()


def entrants_changed(tournament_ids: Iterable[int | None]) -> None:
    """Move these tournaments' entrants version when the transaction commits (now, outside
    one), and tell their open pages."""
    ids = {pk for pk in tournament_ids if pk is not None}
    if not ids:
        return
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        _move(ids)
        return
    marker = getattr(connection, "run_on_commit", None)
    pending: tuple[object, set[int]] | None = getattr(_local, "pending", None)
    if pending is None or marker is None or pending[0] is not marker:
        # one set per transaction: Django replaces the list of commit callbacks at a commit
        # or a rollback, so a set of a rolled-back transaction is never added to again
        pending = (marker, set())
        _local.pending = pending
    moved = pending[1]
    moved.update(ids)
    # each change's callback moves the whole set: the first to run moves it, the others
    # find it empty (a callback each, so none depends on an earlier one being kept)
    transaction.on_commit(lambda: _move(moved), robust=True)


def _move(pending: set[int]) -> None:
    """Add one to the pending tournaments' entrants version and send :data:`entrants_moved`;
    the set is emptied (nothing when an earlier callback has done it)."""
    ids = sorted(pending)
    pending.clear()
    if not ids:
        return
    Tournament.objects.filter(pk__in=ids).update(entrants_version=F("entrants_version") + 1)
    entrants_moved.send(sender=Tournament, tournament_ids=ids)


def _changed(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    """A row was saved or deleted: its tournament's entrants changed (not while fixtures
    load)."""
    if not raw:
        entrants_changed([instance.tournament_id])


def connect() -> None:
    """Connect the models' save and delete signals (the app's ``ready``)."""
    for model in MODELS:
        uid = f"entrants-{model.__name__}"
        signals.post_save.connect(_changed, sender=model, dispatch_uid=uid)
        signals.post_delete.connect(_changed, sender=model, dispatch_uid=uid)
