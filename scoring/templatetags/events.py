"""Lines of the party's event log: ``{% load events %}{{ event|event_summary }}``."""

from __future__ import annotations

from django import template

from scoring.models import PartyEvent
from scoring.models.event_text import describe_event

register = template.Library()


@register.filter
def event_summary(event: PartyEvent) -> str:
    """What the event did, in one line of the user's language."""
    return describe_event(event.kind, event.data or {})
