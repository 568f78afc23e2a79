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
    conf = rules.settings_of(tournament)
    state = rules.window_state(conf)
    if state == "off":
        return {"state": state}
    pairs = rules.enters_as_pair(tournament, conf)
    left = max(conf.capacity - rules.places_taken(tournament, conf), 0)
    return {"tournament": tournament, "conf": conf, "state": state, "pairs": pairs,
            "places_left": left, "waiting": rules.waiting_count(tournament)}
