"""The line-up page of a team match: the team's captain (or the organizer) names, on his
phone, who plays at board 1 and at board 2 before the round is published
(``tournaments.rounds.team_lineups``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.core.errors import ServiceError
from scoring.models import Pair, Party, Player, Round, Team, TeamMatch
from scoring.teams.seating import by_players
from tournaments.pages import show_refusal
from tournaments.rounds.team_lineups import may_name_lineup, set_lineup

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

SEATS = ("board1_first", "board1_second", "board2_first", "board2_second")
"""The four players' fields of a team of players' line-up, in the service's order."""

BOARDS = ("board1", "board2")
"""The two pairs' fields of a team of fixed pairs' line-up."""


class LineupForm(forms.Form):
    """A team's line-up for one team match: four of its players (board 1's pair, board 2's)
    or two of its pairs; the current line-up shown first."""

    intro = gettext_lazy("Who plays at board 1 and at board 2 until the round is published.")

    def __init__(self, *args: Any, tm: TeamMatch, team: Team, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tm, self.team = tm, team
        self.players = by_players(tm.round.tournament)
        current = list(Party.objects.filter(team_match=tm, half=1).order_by("board")
                       .values_list("pair_a_id" if team.pk == tm.team_a_id else "pair_b_id",
                                    flat=True))
        if self.players:
            choices = [(p.pk, p.name) for p in Player.objects.filter(
                team=team, withdrawn=False, disqualified=False).order_by("id")]
            labels = [_("Board 1: first player"), _("Board 1: second player"),
                      _("Board 2: first player"), _("Board 2: second player")]
            seated = [pk for pair in Pair.objects.filter(pk__in=current).order_by("id")
                      for pk in (pair.player1_id, pair.player2_id)]
            seats = [*seated, None, None, None, None][:4]
            for name, label, initial in zip(SEATS, labels, seats, strict=True):
                self.fields[name] = forms.TypedChoiceField(
                    label=label, choices=choices, coerce=int, initial=initial)
        else:
            choices = [(p.pk, p.display_name) for p in Pair.objects.filter(
                team=team, formed_in_round__isnull=True, withdrawn=False,
                disqualified=False).select_related("player1", "player2").order_by("id")]
            boards = [*current, None, None][:2]
            for name, label, initial in zip(BOARDS, [_("Board 1"), _("Board 2")], boards,
                                            strict=True):
                self.fields[name] = forms.TypedChoiceField(
                    label=label, choices=choices, coerce=int, initial=initial)

    def sections(self) -> list[tuple[StrOrPromise, list[forms.BoundField]]]:
        """Board 1's players (pair), then board 2's."""
        names = SEATS if self.players else BOARDS
        half = len(names) // 2
        return [(_("Board %(number)s") % {"number": n + 1},
                 [self[name] for name in names[n * half:(n + 1) * half]]) for n in range(2)]

    def clean(self) -> dict[str, Any]:
        """Nobody named twice (the error on the second place naming him)."""
        data = super().clean() or {}
        seen: set[int] = set()
        for name in SEATS if self.players else BOARDS:
            value = data.get(name)
            if value is None:
                continue
            if value in seen:
                self.add_error(name, _("Named twice in the line-up."))
            seen.add(int(value))
        return data

    def save(self, actor: Any) -> None:
        """Name the line-up (``ServiceError`` as the service refuses it)."""
        data = self.cleaned_data
        if self.players:
            set_lineup(self.tm.pk, self.team.pk, players=[data[n] for n in SEATS],
                       actor=actor)
        else:
            set_lineup(self.tm.pk, self.team.pk, pairs=[data[n] for n in BOARDS], actor=actor)


@login_required
def lineup_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A team's line-up form for a team match (``?team=`` chooses the team when the user may
    name both): the organizers' and the team's captain's; 404 for anyone else."""
    tm = get_object_or_404(TeamMatch.objects.select_related(
        "round__tournament", "team_a__captain", "team_b__captain"), pk=pk,
        round__tournament__slug=slug)
    teams = [t for t in (tm.team_a, tm.team_b)
             if t is not None and may_name_lineup(request.user, tm, t)]
    if not teams:
        raise Http404
    wanted = request.POST.get("team") or request.GET.get("team")
    team = next((t for t in teams if str(t.pk) == wanted), teams[0])
    form = LineupForm(request.POST or None, tm=tm, team=team)
    if tm.round.status != Round.Status.DRAFT:
        form.add_error(None, _("The draw of this round is already published."))
    elif request.method == "POST" and form.is_valid():
        try:
            form.save(request.user)
        except ServiceError as err:
            show_refusal(form, err)
        else:
            messages.success(request, _("The line-up of %(team)s is saved.")
                             % {"team": team.name})
            return redirect(request.get_full_path())
    other = tm.team_b if team == tm.team_a else tm.team_a
    return render(request, "tournaments/form.html", {
        "form": form, "tournament": tm.round.tournament,
        "title": _("%(team)s: line-up against %(other)s, round %(number)s") % {
            "team": team.name, "other": other.name if other else _("bye"),
            "number": tm.round.number},
        "team_choices": teams if len(teams) > 1 else [],
        "team": team,
    })
