"""The party's event log: appending (the caller holds the party's row lock) and logging it.

Every service that changes a party appends an event here, so this module's logger sees every
change of the record (party, event number, kind, user) at INFO, and the open pages hear of it
after commit (``scoring.live.party_changed``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import connection
from django.utils import timezone

from scoring import live
from scoring.core.compiled import db_column
from scoring.models import PartyEvent

logger = logging.getLogger(__name__)


def append_event(
    party: Any,
    kind: str,
    *,
    actor: Any = None,
    data: dict[str, Any] | None = None,
    reason: str = "",
) -> PartyEvent:
    """Write one event with the next sequence number of the party (one INSERT … SELECT); the
    pages showing the party are told after commit."""
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
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({columns}) "
            f"SELECT %s, COALESCE(MAX({q('seq')}), 0) + 1, %s, %s, %s, %s, %s "
            f"FROM {table} WHERE {q('party_id')} = %s RETURNING {q('id')}, {q('seq')}",
            [*values, event.party_id],
        )
        event.pk, event.seq = cursor.fetchone()
    event._state.adding = False
    event._state.db = connection.alias
    logger.info("party %s event %s: %s by user %s", event.party_id, event.seq, kind,
                getattr(actor, "pk", None))
    live.party_changed(party, kind)
    return event


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
