"""Appending to a party's event log (the caller holds the party's row lock)."""

from __future__ import annotations

from typing import Any

from django.db.models import Max

from referee.models import PartyEvent


def append_event(
    party: Any,
    kind: str,
    *,
    actor: Any = None,
    data: dict[str, Any] | None = None,
    reason: str = "",
) -> PartyEvent:
    """Write one event with the next sequence number of the party."""
    last = PartyEvent.objects.filter(party=party).aggregate(m=Max("seq"))["m"] or 0
    actor = actor if getattr(actor, "is_authenticated", False) else None
    return PartyEvent.objects.create(
        party=party, seq=last + 1, kind=kind, actor=actor, data=data or {}, reason=reason or ""
    )
