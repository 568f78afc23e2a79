"""The organizer's team pages of a team tournament: the teams with their pairs, and a team
registered or changed by its form (withdrawing goes through the entrants' withdraw route)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import Pair, Player, Team, Tournament
from tournaments.pages import show_refusal, tournament_for
from tournaments.registration.squad_forms import SquadForm
from tournaments.registration.team_forms import TeamForm
from tournaments.registration.team_players import SquadChange


def _team_tournament(request: HttpRequest, slug: str) -> Tournament:
    """The organizer's team tournament of the URL (404 for another format)."""
    tournament = tournament_for(request, slug, manage=True)
    if tournament.format != Tournament.Format.TEAMS:
        raise Http404
    return tournament


@login_required
def team_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The teams of a team tournament with their pairs, captains and ratings."""
    tournament = _team_tournament(request, slug)
    pairs = Pair.objects.filter(formed_in_round__isnull=True).select_related(
        "player1", "player2").order_by("id")
    teams = list(Team.objects.filter(tournament=tournament).select_related("captain")
                 .prefetch_related(Prefetch("pairs", queryset=pairs),
                                   Prefetch("players", queryset=Player.objects.order_by("id")))
                 .order_by("name", "id"))
    unassigned = tournament.pairs.filter(formed_in_round__isnull=True, team__isnull=True,
                                         player2__isnull=False).select_related(
        "player1", "player2").order_by("id")
    by_players = tournament.team_members == Tournament.TeamMembers.PLAYERS
    return render(request, "tournaments/teams.html", {
        "tournament": tournament, "teams": teams, "by_players": by_players,
        "unassigned": [] if by_players else list(unassigned),
    })


@login_required
def team_edit(request: HttpRequest, slug: str, pk: int | None = None) -> HttpResponse:
    """Register a team with its pairs (new ones with their players), or change one."""
    tournament = _team_tournament(request, slug)
    team = get_object_or_404(Team, pk=pk, tournament=tournament) if pk else None
    form: TeamForm | SquadForm
    if tournament.team_members == Tournament.TeamMembers.PLAYERS:
        form = SquadForm(request.POST or None, tournament=tournament, team=team)
    else:
        form = TeamForm(request.POST or None, tournament=tournament, team=team)
    if request.method == "POST" and form.is_valid():
        try:
            done = form.save(actor=request.user)
        except ServiceError as err:
            show_refusal(form, err)
        else:
            if isinstance(done, SquadChange):
                messages.success(request, _(
                    "The team %(name)s is registered with %(count)s players, rated "
                    "%(rating)s.") % {"name": done.team.name, "count": len(done.players),
                                      "rating": done.team.rating})
            else:
                messages.success(request, _(
                    "The team %(name)s is registered with %(count)s pairs, rated %(rating)s.")
                    % {"name": done.team.name, "count": len(done.pairs),
                       "rating": done.team.rating})
            if "add_another" in request.POST:
                return redirect("tournaments:team_create", slug=slug)
            return redirect("tournaments:teams", slug=slug)
    return render(request, "tournaments/form.html", {
        "form": form, "tournament": tournament, "add_another": team is None,
        "title": _("Edit team %(name)s") % {"name": team.name} if team else _("New team"),
    })
