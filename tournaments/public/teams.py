"""The public pages of a team event: the draw by team match, a team's page, the team standings.

A team match is two boards (tables next to each other), in two halves when the tournament
says so; each board is an ordinary party. Every figure of a team match comes from
``scoring.teams.results`` and every figure of the team standings from
``scoring.teams.standings``: these pages only arrange them.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from scoring.access import permissions
from scoring.core.web import page_or_fragment
from scoring.models import Team
from tournaments.pages import LIVE, url_root
from tournaments.public.load import asked_round, public_load, public_tournament
from tournaments.public.team_rows import (
    OUTCOME_LABELS,
    SCORE_ABBRS,
    SCORE_NAMES,
    MatchView,
    member_records,
    number_text,
    round_matches,
    standings_order,
    team_history,
    team_lines,
)
from tournaments.rounds.team_draws import is_team_event


def team_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A team's page: its standing, its members' records, its matches round by round with
    every board's result."""
    tournament = public_tournament(request, slug, "entrants")
    if not is_team_event(tournament):
        raise Http404
    team = get_object_or_404(Team.objects.select_related("captain"), pk=pk,
                             tournament=tournament)
    links = permissions.can_see_public_page(request.user, tournament, "entrants")
    columns, members = member_records(tournament, team, links)
    matches = team_history(tournament, team)
    show_standings = permissions.can_see_public_page(request.user, tournament, "standings")
    lines = team_lines(tournament) if show_standings else []
    standing = next((line for line in lines if line["pk"] == team.pk), None)
    team_root = url_root("tournaments:team", tournament.slug)
    return render(request, "public/team.html", {
        "tournament": tournament,
        "team": team,
        "columns": columns,
        "members": members,
        "by_players": tournament.team_members == tournament.TeamMembers.PLAYERS,
        "matches": [_match_item(view, team.pk, team_root) for view in matches],
        "standing": standing,
        "standing_size": len(lines),
        "score_abbr": SCORE_ABBRS[tournament.team_scoring],
        "score_name": SCORE_NAMES[tournament.team_scoring],
    })


def _match_item(view: MatchView, team: int, team_root: str) -> dict[str, Any]:
    """One match of a team's page from the team's side: the other team and its page, the
    outcome, the scores."""
    opponent = view.opponent_of(team)
    outcome = view.outcome_for(team)
    return {
        "view": view,
        "opponent": opponent,
        "opponent_url": f"{team_root}{opponent.pk}/" if opponent is not None else "",
        "outcome": outcome,
        "outcome_label": OUTCOME_LABELS[outcome],
        "own_score": _own_score(view, team),
    }


def _own_score(view: MatchView, team: int) -> dict[str, str]:
    """A match's parties won and team score from ``team``'s side ("3 : 1")."""
    result = view.result
    if result is None or result.b is None:
        return {"parties": "", "team": ""}
    own, other = (result.a, result.b) if result.a.team == team else (result.b, result.a)
    return {
        "parties": f"{own.parties_won} : {other.parties_won}",
        "team": f"{number_text(own.score)} : {number_text(other.score)}",
    }


def team_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The team standings after any round, live while a round is played (304 while
    unchanged), with the team matches in play above them (a decided match moves the table;
    each party won shows in its match's score at once)."""
    load = public_load(request, slug, "standings")  # 404 when hidden
    tournament = load.tournament
    if not is_team_event(tournament):
        raise Http404
    numbers = [rnd.number for rnd in load.published]
    after = asked_round(request, load)
    live = after is None and any(rnd.status in LIVE for rnd in load.published)
    playing = load.published[-1] if live else None
    context = {
        "tournament": tournament,
        "round": playing,
        "matches": round_matches(tournament, playing, []) if playing is not None else [],
        "lines": team_lines(tournament, after),
        "order": standings_order(tournament),
        "score_abbr": SCORE_ABBRS[tournament.team_scoring],
        "score_name": SCORE_NAMES[tournament.team_scoring],
        "numbers": numbers,
        "after": after,
        "live": live,
    }
    return page_or_fragment(request, "public/teams.html", "public/_teams.html", context)
