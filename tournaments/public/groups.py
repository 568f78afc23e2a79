"""The groups' public page: each group of a groups stage with its standings (live like the
standings page, 304 while nothing changed); a team event's groups with their team
standings."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse

from scoring.access import permissions
from scoring.core.web import page_or_fragment
from scoring.models import Round, Stage, Tournament
from scoring.ranking.results import StandingsTable, ranked_entrants, standings_config
from scoring.stages.common import groups_stage
from scoring.stages.groups import group_rows
from scoring.stages.team_groups import team_group_rows
from tournaments.pages import LIVE
from tournaments.public.load import public_load
from tournaments.public.standings import standings_lines
from tournaments.public.team_rows import SCORE_ABBRS, SCORE_NAMES, standings_order, team_lines
from tournaments.rounds.team_draws import is_team_event


def groups(request: HttpRequest, slug: str) -> HttpResponse:
    """Each group's standings, its pairs ranked among themselves in the tournament's order and
    columns (404 without groups, or when the standings are not public)."""
    load = public_load(request, slug, "standings")  # 404 when hidden
    tournament = load.tournament
    stage = groups_stage(tournament)
    if stage is None:
        raise Http404
    stage.tournament = tournament
    if is_team_event(tournament):
        return _team_groups(request, tournament, stage, load.published)
    entrants: dict[int, Any] = {pair.pk: pair for pair in ranked_entrants(tournament, False)}
    order = tuple(standings_config(tournament).order)
    links = permissions.can_see_public_page(request.user, tournament, "entrants")
    sections: list[dict[str, Any]] = []
    for group, rows in group_rows(stage, version=load.version):
        table = StandingsTable(rows=rows, entrants=entrants, per_player=False, order=order,
                               after_round=None, version=load.version)
        sections.append({"group": group, "anchor": f"group-{group.pk}", "table": table,
                         "lines": standings_lines(tournament, table, links)})
    context = {
        "tournament": tournament,
        "sections": sections,
        "columns": sections[0]["table"].columns if sections else [],
        "live": _live(stage, load.published),
    }
    return page_or_fragment(request, "public/groups.html", "tournaments/_groups.html", context)


def _live(stage: Stage, published: list[Round]) -> bool:
    """Whether a round of the groups is being played (the page refreshes itself)."""
    return stage.status != Stage.Status.FINISHED and any(
        rnd.status in LIVE for rnd in published if rnd.stage_id == stage.pk)


def _team_groups(request: HttpRequest, tournament: Tournament, stage: Stage,
                 published: list[Round]) -> HttpResponse:
    """A team event's groups: each group's team standings (its own team matches)."""
    sections = [
        {"group": group, "anchor": f"group-{group.pk}",
         "lines": team_lines(tournament, rows=rows)}
        for group, rows in team_group_rows(stage)
    ]
    context = {
        "tournament": tournament, "sections": sections, "teams": True,
        "order": standings_order(tournament),
        "score_abbr": SCORE_ABBRS[tournament.team_scoring],
        "score_name": SCORE_NAMES[tournament.team_scoring],
        "live": _live(stage, published),
    }
    return page_or_fragment(request, "public/groups.html", "tournaments/_groups.html", context)
