"""Lines of the party's event log: ``{% load events %}{{ event|event_summary:names }}``."""

from __future__ import annotations

from collections.abc import Mapping

from django import template

from scoring.models import PartyEvent
from scoring.models.event_text import describe_event

register = template.Library()


@register.filter
def event_summary(event: PartyEvent, names: Mapping[str, str] | None = None) -> str:
    """What the event did, in one line of the user's language (``names``: the party's pairs
    and players by side and seat, ``{{ event|event_summary:names }}``)."""
    return describe_event(event.kind, event.data or {}, names or None)
