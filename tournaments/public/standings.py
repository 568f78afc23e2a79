"""The public standings page: the standings after any round, per pair or per player."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import formats
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from scoring.access import permissions
from scoring.core.web import page_or_fragment
from scoring.models import Pair, Player, Tournament
from scoring.models.entrants import PLAYERS_SEPARATOR
from scoring.ranking.clubs import has_countries
from scoring.ranking.results import StandingsTable, standings_table
from tournaments.pages import LIVE, url_root
from tournaments.public.load import asked_round, public_load
from tournaments.rounds.draws import is_individual


def cell_text(value: Any) -> str:
    """A metric as the page shows it (integers as they are, fractions localized)."""
    return str(value) if isinstance(value, int) else formats.localize(value)


def standings_tabs(
    tournament: Tournament, table: StandingsTable, current: str
) -> list[dict[str, Any]]:
    """The tabs of the standings: the entrants', the clubs', and the countries' when any
    ranked player has a country (or when theirs is the tab shown)."""
    tabs = [
        ("standings", "tournaments:standings", _("Standings")),
        ("club", "tournaments:club_standings", _("Clubs")),
    ]
    if current == "country" or has_countries(table):
        tabs.append(("country", "tournaments:country_standings", _("Countries")))
    return [{"key": key, "url": reverse(name, args=[tournament.slug]), "label": label}
            for key, name, label in tabs]


def _pair_players(pair: Pair, profiles: str) -> str:
    """A pair's players' names, each linked to his record where he has a profile."""
    members = pair.players
    if not any(member.profile_id for member in members):
        return pair.players_label
    return format_html_join(PLAYERS_SEPARATOR, "{}", (
        (format_html('<a href="{}{}/">{}</a>', profiles, m.profile_id, m.name)
         if m.profile_id else m.name,) for m in members
    ))


def standings_lines(
    tournament: Tournament, table: StandingsTable, links: bool
) -> list[dict[str, Any]]:
    """The standings' lines ready to print, values already formatted into their cells.

    The template then looks up a handful of keys per line, so 500 lines stay fast.
    """
    kind = "tournaments:player" if table.per_player else "tournaments:pair"
    root = url_root(kind, tournament.slug) if links else ""
    profiles = url_root("tournaments:profile")
    lines = []
    for row, entrant, values in table.lines():
        url, parties_url = f"{root}{entrant.pk}/" if links else "", ""
        if isinstance(entrant, Player):  # the standings per player
            name, players = entrant.name, ""
            profile_url = f"{profiles}{entrant.profile_id}/" if entrant.profile_id else ""
        elif entrant.name:  # a named pair: its name, its players beneath
            name, players = entrant.name, _pair_players(entrant, profiles)
            profile_url = ""
        else:  # the players are the pair's name: printed once
            name, players, profile_url = _pair_players(entrant, profiles), "", ""
            if "href" in name:  # each name leads to his record; the pair's parties beside
                url, parties_url = "", url
        lines.append({
            "rank": f"{row.rank}=" if row.shared else str(row.rank),
            "name": name,
            "players": players,
            "profile_url": profile_url,
            "url": url,
            "parties_url": parties_url,
            "withdrawn": entrant.withdrawn,
            "disqualified": entrant.disqualified,
            # numbers only (digits, a sign, a decimal mark): nothing to escape
            "cells": mark_safe("".join(f"<td>{cell_text(v)}</td>" for v in values)),  # noqa: S308
        })
    return lines


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings after any round, per pair or per player (constant number of queries)."""
    load = public_load(request, slug, "standings")  # 404 when hidden
    tournament = load.tournament
    published = [(rnd.number, rnd.status) for rnd in load.published]
    numbers = [n for n, _status in published]
    after = asked_round(request, load)
    per_player = is_individual(tournament) or request.GET.get("by") == "player"
    table = standings_table(
        tournament, per_player=per_player, after_round=after, version=load.version
    )
    links = permissions.can_see_public_page(request.user, tournament, "entrants")
    context = {
        "tournament": tournament,
        "table": table,
        "lines": standings_lines(tournament, table, links),
        "numbers": numbers,
        "after": after,
        "by": "player" if per_player else "pair",
        "live": after is None and any(status in LIVE for _n, status in published),
        "individual": is_individual(tournament),
        "tabs": standings_tabs(tournament, table, "standings"),
        "current": "standings",
    }
    return page_or_fragment(
        request, "tournaments/standings.html", "tournaments/_standings.html", context
    )
