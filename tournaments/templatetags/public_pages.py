"""The navigation between a tournament's public pages: ``{% public_nav tournament "draw" %}``."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.access import permissions
from scoring.models import Tournament
from scoring.stages.common import stage_state

register = template.Library()

#: (key, url name, switch that must be on, label, the stage it needs) in the order of the tabs.
PAGES = (
    ("home", "tournaments:detail", None, _("Tournament"), None),
    ("draw", "tournaments:current_draw", "draw", _("Draw"), None),
    ("teams", "tournaments:team_standings", "standings", _("Teams"), None),
    ("standings", "tournaments:standings", "standings", _("Standings"), None),
    ("groups", "tournaments:groups", "standings", _("Groups"), "has_groups"),
    ("bracket", "tournaments:bracket", "standings", _("Bracket"), "has_knockout"),
    ("results", "tournaments:results", "results", _("Results"), None),
    ("rounds", "tournaments:rounds", "results", _("Rounds"), None),
    ("hall", "tournaments:hall", "hall", _("Hall screen"), None),
)


@register.inclusion_tag("public/_nav.html", takes_context=True)
def public_nav(context: dict[str, Any], tournament: Tournament, current: str = "") -> dict:
    """Tabs to the tournament's pages this visitor may open, and to his player area.

    Above them the tournament's name (a link to its page), but on its page and the player's.
    The groups' and the bracket's tabs once the tournament has such a stage; the teams' in a
    team event.
    """
    user = context["request"].user
    stages = stage_state(tournament)
    links = [
        {"key": key, "url": reverse(name, args=[tournament.slug]), "label": label}
        for key, name, page, label, stage in PAGES
        if (stage is None or stages.get(stage))
        and (page is None or permissions.can_see_public_page(user, tournament, page))
        and (key != "teams" or tournament.format == Tournament.Format.TEAMS)
    ]
    if user.is_authenticated and tournament.players.filter(user=user).exists():
        links.append({
            "key": "me",
            "url": reverse("tournaments:player_area", args=[tournament.slug]),
            "label": _("My games"),
        })
    return {"links": links, "current": current, "tournament": tournament}


@register.simple_tag(takes_context=True)
def public_page_open(context: dict[str, Any], tournament: Tournament, page: str) -> bool:
    """Whether this visitor may see one of the tournament's switchable pages."""
    return permissions.can_see_public_page(context["request"].user, tournament, page)
