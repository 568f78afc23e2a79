"""The "How to enter" card of a tournament's page: ``{% how_to_enter tournament %}``."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.models import Tournament
from scoring.people import entries as rules

register = template.Library()


@register.inclusion_tag("entries/how_to_enter.html")
def how_to_enter(tournament: Tournament) -> dict[str, Any]:
    """When entries are open: the dates, places, places left, the waiting list and the entry
    button; before: when they open; after: that they are closed (nothing when never opened)."""
    found = rules.entry_states([tournament.pk])[tournament.pk]
    if found.window == "off":
        return {"state": found.window}
    return {"tournament": tournament, "conf": found.conf, "state": found.window,
            "pairs": found.pairs, "places_left": found.places_left, "waiting": found.waiting}
