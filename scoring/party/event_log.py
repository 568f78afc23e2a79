"""The party's event log: appending (the caller holds the party's row lock) and logging it.

Every service that changes a party appends an event here, so this module's logger sees every
change of the record (party, event number, kind, user) at INFO, and the open pages hear of it
after commit (``scoring.live.party_changed``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.db import DatabaseError, connection
from django.db.models import signals
from django.utils import timezone

from scoring import live
from scoring.core.compiled import db_column
from scoring.models import PartyEvent

logger = logging.getLogger(__name__)


LOGGED_BUMP = "_version_bump_logged"
"""The attribute of a party whose event was appended with ``with_version``: (the version due,
the fields to save with it, whether the event's statement wrote them), for ``bump_version``."""


def append_event(
    party: Any,
    kind: str,
    *,
    actor: Any = None,
    data: dict[str, Any] | None = None,
    reason: str = "",
    with_version: Sequence[str] | None = None,
) -> PartyEvent:
    """Write one event with the next sequence number of the party (one INSERT … SELECT); the
    pages showing the party are told after commit.

    ``with_version`` (the caller holds the party's lock and calls ``bump_version(party)`` next,
    with no fields): on PostgreSQL the same statement also saves the party's fields named (their
    values on the instance) and its next version, so that the bump writes nothing more (one
    statement fewer per desk action; with the roles read by the lock and the token kept by the
    worker, ``deal_entry_sql_statements`` of ``bench/bench_deal_entry.py`` 11 → 8, and the
    worker's CPU per desk action 5.13 → 4.35 ms, one uvicorn worker, the bench's mix);
    elsewhere the bump saves them as before.
    """
    actor = actor if getattr(actor, "is_authenticated", False) else None
    event = PartyEvent(
        party=party, kind=kind, actor=actor, data=data or {}, reason=reason or "", at=timezone.now()
    )
    fields = {f.name: f for f in PartyEvent._meta.concrete_fields}
    values = [
        fields[name].get_db_prep_save(getattr(event, fields[name].attname), connection)
        for name in ("party", "at", "actor", "kind", "data", "reason")
    ]
    q = connection.ops.quote_name
    table = q(PartyEvent._meta.db_table)
    names = ("party", "seq", "at", "actor", "kind", "data", "reason")
    columns = ", ".join(q(db_column(fields[name])) for name in names)
    update: str = ""
    update_params: list[Any] = []
    if with_version is not None:
        update, update_params = _version_update(party, with_version)
    with connection.cursor() as cursor:
        cursor.execute(
            f"{update}INSERT INTO {table} ({columns}) "
            f"SELECT %s, COALESCE(MAX({q('seq')}), 0) + 1, %s, %s, %s, %s, %s "
            f"FROM {table} WHERE {q('party_id')} = %s"
            + (" HAVING (SELECT COUNT(*) FROM bumped) = 1" if update else "")
            + f" RETURNING {q('id')}, {q('seq')}",
            [*update_params, *values, event.party_id],
        )
        row = cursor.fetchone()
        if row is None:  # the party's row was not updated (it is gone)
            raise DatabaseError("The party's version was not saved with its event.")
        event.pk, event.seq = row
    event._state.adding = False
    event._state.db = connection.alias
    logger.info("party %s event %s: %s by user %s", event.party_id, event.seq, kind,
                getattr(actor, "pk", None))
    live.party_changed(party, kind)
    return event


def _version_update(party: Any, names: Sequence[str]) -> tuple[str, list[Any]]:
    """The ``WITH bumped AS (UPDATE …)`` that saves ``names`` and the next version of the
    party with its event (PostgreSQL, a party without save signal receivers), and its
    parameters; elsewhere nothing, the party marked for ``bump_version`` to save them."""
    model = type(party)
    written = connection.vendor == "postgresql" and not (
        signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model))
    setattr(party, LOGGED_BUMP, (party.version + 1, tuple(names), written))
    if not written:
        return "", []
    opts = model._meta
    targets = [opts.get_field(name) for name in (*names, "version")]
    values = [field.pre_save(party, False) for field in targets[:-1]] + [party.version + 1]
    q = connection.ops.quote_name
    assignments = ", ".join(f"{q(db_column(field))} = %s" for field in targets)
    sql = (f"WITH bumped AS (UPDATE {q(opts.db_table)} SET {assignments} "
           f"WHERE {q(db_column(opts.pk))} = %s RETURNING 1) ")
    params = [field.get_db_prep_save(value, connection)
              for field, value in zip(targets, values, strict=True)]
    return sql, [*params, party.pk]


def deal_data(deal: Any) -> dict[str, Any]:
    """The values of a deal (a ``Deal``) as logged in the event log."""
    data: dict[str, Any] = {
        "outcome": deal.outcome,
        "winner": deal.winner,
        "points_a": deal.points_a,
        "points_b": deal.points_b,
        "went_out": deal.went_out,
        "pips": deal.pips,
    }
    if deal.play_ended_before_time_up:
        data["play_ended_before_time_up"] = True
    if getattr(deal, "entered_at", None):
        data["entered_at"] = deal.entered_at.isoformat()
    for name in ("led", "fish_by"):
        if getattr(deal, name):
            data[name] = getattr(deal, name)
    if deal.scores:
        data["scores"] = deal.scores
    if deal.plays:
        data["plays"] = deal.plays
    if deal.game != 1:
        data["game"] = deal.game
    return data
