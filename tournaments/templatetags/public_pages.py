"""The navigation between a tournament's public pages: ``{% public_nav tournament "draw" %}``."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.access import permissions
from scoring.models import Tournament

register = template.Library()

#: (key, url name, switch that must be on, label) in the order of the tabs.
PAGES = (
    ("home", "tournaments:detail", None, _("Tournament")),
    ("draw", "tournaments:current_draw", "draw", _("Draw")),
    ("teams", "tournaments:team_standings", "standings", _("Teams")),
    ("standings", "tournaments:standings", "standings", _("Standings")),
    ("results", "tournaments:results", "results", _("Results")),
    ("rounds", "tournaments:rounds", "results", _("Rounds")),
    ("hall", "tournaments:hall", "hall", _("Hall screen")),
)


@register.inclusion_tag("public/_nav.html", takes_context=True)
def public_nav(context: dict[str, Any], tournament: Tournament, current: str = "") -> dict:
    """Tabs to the tournament's pages this visitor may open, and to his player area.

    Above them the tournament's name (a link to its page), but on its page and the player's.
    """
    user = context["request"].user
    links = [
        {"key": key, "url": reverse(name, args=[tournament.slug]), "label": label}
        for key, name, page, label in PAGES
        if (page is None or permissions.can_see_public_page(user, tournament, page))
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
