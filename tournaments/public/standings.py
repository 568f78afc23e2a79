"""The public standings page: the standings after any round, per pair or per player."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from scoring.access import permissions
from scoring.core.web import is_htmx, vary_on_htmx
from scoring.models import Pair, Player, Tournament
from scoring.models.entrants import PLAYERS_SEPARATOR
from scoring.ranking import paged
from scoring.ranking.clubs import has_countries
from scoring.ranking.results import StandingsTable, standings_table
from tournaments.pages import LIVE, url_root
from tournaments.public.load import PublicLoad, PublicRequest, asked_round, public_load
from tournaments.public.paging import (
    asked_query,
    cached_render,
    page_of,
    page_size,
    page_url,
    paging,
)
from tournaments.rounds.draws import is_individual


def entrant_anchor(entrant_id: int) -> str:
    """The id of an entrant's row in the standings ("my place" links to it)."""
    return f"e-{entrant_id}"


def cell_text(value: Any) -> str:
    """A metric as the page shows it (integers as they are, fractions localized)."""
    return str(value) if isinstance(value, int) else formats.localize(value)


def standings_tabs(
    tournament: Tournament, table: StandingsTable | bool, current: str
) -> list[dict[str, Any]]:
    """The tabs of the standings: the entrants', the clubs', and the countries' when any
    ranked player has a country (or when theirs is the tab shown); ``table``: the standings,
    or whether a player has a country where the page has not loaded them all."""
    tabs = [
        ("standings", "tournaments:standings", _("Standings")),
        ("club", "tournaments:club_standings", _("Clubs")),
    ]
    countries = table if isinstance(table, bool) else has_countries(table)
    if current == "country" or countries:
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
            "anchor": entrant_anchor(entrant.pk),
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


def _section(request: HttpRequest, load: PublicLoad, after: int | None, per_player: bool,
             live: bool) -> dict[str, Any]:
    """The standings section rendered (the whole table, or one page of a long one) and
    whether a ranked player has a country (the shell's tabs)."""
    tournament = load.tournament
    links = permissions.can_see_public_page(request.user, tournament, "entrants")
    query = asked_query(request)
    context: dict[str, Any] = {"tournament": tournament, "after": after, "live": live,
                               "paging": None, "mine": None}
    short = None if query else paged.first_entrants(tournament, per_player, page_size())
    if short is not None:  # a field of one page: the whole table, as it always was
        table = standings_table(tournament, per_player=per_player, after_round=after,
                                version=load.version, entrants=short)
        countries = has_countries(table)
    else:  # a long table (or a search): one page of rows, only its entrants loaded
        columns = paged.ranked_columns(tournament, per_player=per_player, after_round=after,
                                       version=load.version)
        found: Sequence[int] = range(len(columns.entrants))
        if query:
            names = paged.named(tournament, per_player, query)
            found = [i for i, entrant in enumerate(columns.entrants) if entrant in names]
        page = paging(request, len(found), query)
        rows = columns.rows(found[page.start:page.end])
        table = paged.page_table(tournament, rows, per_player=per_player, after_round=after,
                                 version=load.version)
        countries = paged.any_country(tournament, per_player)
        mine = paged.place_of(columns, paged.own_entrants(tournament, per_player, request.user))
        if mine is not None:
            index, row = mine
            anchor = "#" + entrant_anchor(row.entrant)
            context["mine"] = {"rank": row.rank, "url": page_url(
                request, page_of(index), query=False, anchor=anchor)}
        context["paging"] = page
        context["searchable"] = len(columns.entrants) > page_size() or bool(query)
    context.update(table=table, lines=standings_lines(tournament, table, links))
    html = render_to_string("tournaments/_standings.html", context, request=request)
    return {"html": html, "countries": countries, "long": short is None}


def standings(request: PublicRequest, slug: str) -> HttpResponse:
    """The standings after any round, per pair or per player (constant number of queries).

    A long table comes in pages with a search by name; the rendered section is cached under
    the page's ETag (``paging.cached_render``)."""
    load = public_load(request, slug, "standings")  # 404 when hidden
    tournament = load.tournament
    published = [(rnd.number, rnd.status) for rnd in load.published]
    numbers = [n for n, _status in published]
    after = asked_round(request, load)
    per_player = is_individual(tournament) or request.GET.get("by") == "player"
    live = after is None and any(status in LIVE for _n, status in published)
    section = cached_render(
        request, f"standings:{slug}", getattr(request, "public_etag", ""),
        lambda: _section(request, load, after, per_player, live),
    )
    if is_htmx(request):
        return vary_on_htmx(HttpResponse(section["html"]))
    context = {
        "tournament": tournament,
        "section": mark_safe(section["html"]),  # noqa: S308 - rendered by the template above
        "numbers": numbers,
        "after": after,
        "by": "player" if per_player else "pair",
        "individual": is_individual(tournament),
        "tabs": standings_tabs(tournament, section["countries"], "standings"),
        "current": "standings",
    }
    return vary_on_htmx(render(request, "tournaments/standings.html", context))
