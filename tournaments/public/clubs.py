"""The public club and country standings: tabs of the standings, the best results of each club
(country) added up (``scoring.ranking.clubs``); shown where the standings are, 304 alike."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.core.web import page_or_fragment
from scoring.models import Pair, Player
from scoring.ranking.clubs import By, ClubStandingsTable, club_standings_table
from tournaments.pages import LIVE
from tournaments.public.load import asked_round, public_load
from tournaments.public.standings import cell_text, standings_tabs


def _entrant_name(entrant: Pair | Player) -> str:
    """A counted entrant as the standings name it."""
    return entrant.name if isinstance(entrant, Player) else entrant.display_name


def club_lines(table: ClubStandingsTable) -> list[dict[str, Any]]:
    """The club standings' lines ready to print: rank, club, sums and the counted entrants."""
    keys = [metric.key for metric in table.criteria]
    return [{
        "rank": f"{row.rank}=" if row.shared else str(row.rank),
        "name": row.name,
        "cells": [cell_text(row.total)] + (
            [cell_text(row.tie_break)] if row.tie_break is not None else []),
        "counted": [{
            "rank": f"{line.rank}=" if line.shared else str(line.rank),
            "name": _entrant_name(entrant),
            "figures": " · ".join(cell_text(line.metrics[key]) for key in keys),
        } for line, entrant in table.counted(row)],
    } for row in table.rows]


def club_rule(table: ClubStandingsTable) -> str:
    """What the table adds up, in words: how many results, which criteria, the tie-breaks."""
    names = [_(metric.name) for metric in table.criteria]
    values = {"best": table.best, "first": names[0], "second": names[-1]}
    if table.by == "country" and len(names) > 1:
        text = ngettext(
            "The best result of each country counts: its “%(first)s”, ties broken by its "
            "“%(second)s”, then by its place.",
            "The best %(best)s results of each country count: the sum of their “%(first)s”, "
            "ties broken by the sum of their “%(second)s”, then by the best place among them.",
            table.best)
    elif table.by == "country":
        text = ngettext(
            "The best result of each country counts: its “%(first)s”, ties broken by its "
            "place.",
            "The best %(best)s results of each country count: the sum of their “%(first)s”, "
            "ties broken by the best place among them.",
            table.best)
    elif len(names) > 1:
        text = ngettext(
            "The best result of each club counts: its “%(first)s”, ties broken by its "
            "“%(second)s”, then by its place.",
            "The best %(best)s results of each club count: the sum of their “%(first)s”, "
            "ties broken by the sum of their “%(second)s”, then by the best place among them.",
            table.best)
    else:
        text = ngettext(
            "The best result of each club counts: its “%(first)s”, ties broken by its place.",
            "The best %(best)s results of each club count: the sum of their “%(first)s”, ties "
            "broken by the best place among them.",
            table.best)
    return text % values


def club_legend(table: ClubStandingsTable) -> str:
    """How to read a line: the entrants counted, each with its place and figures."""
    figures = " · ".join(_(metric.abbr) for metric in table.criteria)
    if table.by == "country":
        text = _("Under each country, the results counted: the entrant's place in the "
                 "standings, its name and (%(figures)s). A pair of players of two countries "
                 "counts for both; players without a country are left out.")
    else:
        text = _("Under each club, the results counted: the entrant's place in the "
                 "standings, its name and (%(figures)s). A pair of players of two clubs counts "
                 "for both; players without a club are left out.")
    return text % {"figures": figures}


def _club_page(request: HttpRequest, slug: str, by: By) -> HttpResponse:
    """The club (or country) standings after any round (constant number of queries)."""
    load = public_load(request, slug, "standings")  # 404 when hidden
    tournament = load.tournament
    published = [(rnd.number, rnd.status) for rnd in load.published]
    numbers = [n for n, _status in published]
    after = asked_round(request, load)
    table = club_standings_table(tournament, by=by, after_round=after, version=load.version)
    context = {
        "tournament": tournament,
        "table": table,
        "lines": club_lines(table),
        "rule": club_rule(table),
        "legend": club_legend(table),
        "tabs": standings_tabs(tournament, table.standings, by),
        "current": by,
        "numbers": numbers,
        "after": after,
        "live": after is None and any(status in LIVE for _n, status in published),
    }
    return page_or_fragment(
        request, "tournaments/club_standings.html", "tournaments/_club_standings.html", context
    )


def club_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The clubs' tab of the standings: each club's best results added up."""
    return _club_page(request, slug, "club")


def country_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The countries' tab of the standings: each country's best results added up."""
    return _club_page(request, slug, "country")
