"""The rounds page: every round of a tournament; for the organizer the next round, and after
the last qualifying round the forms that start the groups or the finals (the qualifiers
proposed from the standings, editable before the draw; a refusal shown on the form)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.access import permissions
from scoring.core.errors import ServiceError
from scoring.models import Pair, Round, Stage, Team, Tournament
from scoring.stages.common import current_stage, knockout_stage
from scoring.stages.knockout import rounds_of
from scoring.stages.sheet import round_title
from tournaments.pages import show_refusal, tournament_for
from tournaments.pairing.groups import group_names
from tournaments.rounds import finals
from tournaments.rounds.forms import FinalsForm, GroupsForm, GroupsProposalForm


def _size(request: HttpRequest) -> int:
    """The bracket size asked for in the address (``?size=``), 8 by default."""
    try:
        return max(2, min(int(request.GET.get("size", 8)), 128))
    except ValueError:
        return 8


def _entrants(tournament: Tournament, stage: Stage) -> list[tuple[int, str]]:
    """The pairs that may still play in the qualifying standings' order, each labelled with
    its place; none after groups (their cross-over seeds the bracket)."""
    if stage.format == Stage.Format.GROUPS:
        return []
    order = finals.proposed_qualifiers(tournament, 10**6)
    names = {p.pk: p.display_name for p in Pair.objects.filter(pk__in=order).select_related(
        "player1", "player2")}
    return [(pk, f"{place}. {names[pk]}") for place, pk in enumerate(order, start=1)]


def _group_entrants(tournament: Tournament) -> list[tuple[int, str]]:
    """The pairs (a team event's teams) that may still play in the groups' seeding order, each
    labelled with its seed ("3. Name")."""
    order = finals.group_seeding(tournament)
    if tournament.format == Tournament.Format.TEAMS:
        names = dict(Team.objects.filter(pk__in=order).values_list("pk", "name"))
    else:
        names = {p.pk: p.display_name for p in Pair.objects.filter(
            pk__in=order).select_related("player1", "player2")}
    return [(pk, f"{seed}. {names[pk]}") for seed, pk in enumerate(order, start=1)]


def _count(value: object) -> int:
    """A posted number of groups as the form's choices take it (1 when not a number)."""
    try:
        return max(1, min(int(str(value)), 32))
    except ValueError:
        return 1


def _groups_forms(request: HttpRequest, tournament: Tournament,
                  entrants: list[tuple[int, str]] | None = None) -> dict[str, Any]:
    """The groups' proposal form (the query's count and club option, about four pairs a group
    by default) and the draw form showing its snake proposal, one group choice per pair; the
    proposal form alone when the count cannot be drawn (with the error when it was asked).
    ``entrants``: ``_group_entrants``', when the caller has them."""
    entrants = _group_entrants(tournament) if entrants is None else entrants
    query = {"group_count": request.GET.get("group_count") or max(1, min(4, len(entrants) // 4)),
             "avoid_same_club": request.GET.get("avoid_same_club", "")}
    proposal = GroupsProposalForm(query, auto_id="propose_%s")
    found: dict[str, Any] = {"groups_proposal": proposal}
    if not proposal.is_valid():
        return found
    count, club = proposal.cleaned_data["group_count"], proposal.cleaned_data["avoid_same_club"]
    try:
        split = finals.proposed_groups(tournament, count, avoid_same_club=club,
                                       order=[pk for pk, _name in entrants])
    except ServiceError as err:
        if "group_count" not in request.GET:  # too few pairs yet: no proposal, no error
            found["groups_proposal"] = GroupsProposalForm(auto_id="propose_%s", initial=query)
        else:
            show_refusal(proposal, err)
        return found
    initial: dict[str, Any] = {"group_count": count, "avoid_same_club": club}
    for letter, members in zip(group_names(count), split, strict=True):
        initial.update({f"pair_{pk}": letter for pk in members})
    found["groups_form"] = GroupsForm(entrants=entrants, count=count, initial=initial)
    return found


def _stage_forms(request: HttpRequest, tournament: Tournament, rounds: list[Round],
                 finals_form: FinalsForm | None, groups_form: GroupsForm | None
                 ) -> dict[str, Any]:
    """The forms that start the finals or the groups, when the round flow is at that point:
    every round closed (or none, for the groups) and no bracket drawn; a refused form always
    (the groups' with its proposal form)."""
    refused: dict[str, Any] = {
        name: form for name, form in (("finals_form", finals_form), ("groups_form", groups_form))
        if form is not None}
    if groups_form is not None:
        refused["groups_proposal"] = GroupsProposalForm(auto_id="propose_%s", initial={
            "group_count": len(groups_form.letters),
            "avoid_same_club": groups_form.data.get("avoid_same_club") in ("True", "on")})
    if refused:
        return refused
    if tournament.status == Tournament.Status.FINISHED or any(r.bracket_round for r in rounds):
        return {}
    if any(rnd.status != Round.Status.FINISHED for rnd in rounds):
        return {}
    stage = current_stage(tournament)
    found: dict[str, Any] = {}
    entrants = None
    if rounds:
        size = _size(request)
        entrants = _entrants(tournament, stage)
        found["finals_form"] = FinalsForm(entrants=entrants, initial={
            "bracket_size": size, "qualifiers": [pk for pk, _n in entrants[:size]]})
    if stage.format != Stage.Format.GROUPS and tournament.format != Tournament.Format.INDIVIDUAL:
        # after qualifying rounds the groups are seeded as the finals: the standings' order
        found.update(_groups_forms(request, tournament, entrants))
    return found


def _name_bracket_rounds(tournament: Tournament, rounds: list[Round]) -> None:
    """Give each round of the finals its bracket name (``bracket_title``: "Semi-finals")."""
    stage = knockout_stage(tournament) if any(r.bracket_round for r in rounds) else None
    if stage is None:
        return
    for rnd in rounds:
        if rnd.bracket_round:
            rnd.bracket_title = round_title(rnd.bracket_round, rounds_of(stage))  # type: ignore[attr-defined]


def _page(request: HttpRequest, tournament: Tournament, *, finals_form: FinalsForm | None = None,
          groups_form: GroupsForm | None = None, status: int = 200) -> HttpResponse:
    """The rounds page (with the stage forms given, bound after a refusal)."""
    can_manage = permissions.can_manage(request.user, tournament)
    rounds = list(tournament.rounds.order_by("number"))
    if not can_manage:
        rounds = [rnd for rnd in rounds if rnd.status != Round.Status.DRAFT]
    for rnd in rounds:
        rnd.tournament = tournament
    _name_bracket_rounds(tournament, rounds)
    context: dict[str, Any] = {
        "tournament": tournament, "rounds": rounds, "can_manage": can_manage,
        "finished": tournament.status == Tournament.Status.FINISHED,
        "has_bracket": any(rnd.bracket_round for rnd in rounds),
    }
    if can_manage:
        context.update(_stage_forms(request, tournament, rounds, finals_form, groups_form))
    return render(request, "tournaments/rounds.html", context, status=status)


def round_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Every round of a tournament; organizers create the next one, or start the finals."""
    tournament = tournament_for(request, slug)
    if not permissions.can_see_public_page(request.user, tournament, "results"):
        raise Http404
    return _page(request, tournament)


@require_POST
@login_required
def finals_start(request: HttpRequest, slug: str) -> HttpResponse:
    """Draw the finals from the form; on a refusal the form again with its error."""
    tournament = tournament_for(request, slug, manage=True)
    form = FinalsForm(request.POST, entrants=_entrants(tournament, current_stage(tournament)))
    if form.is_valid():
        data = form.cleaned_data
        try:
            done = finals.start_finals(
                tournament.pk, bracket_size=data["bracket_size"], third_place=data["third_place"],
                best_of=data["best_of"], qualifiers=data["qualifiers"], actor=request.user)
        except ServiceError as err:
            show_refusal(form, err)
        else:
            messages.success(request, _("The finals are drawn: %(count)s parties published.")
                             % {"count": len(done.parties)})
            return redirect("tournaments:bracket", slug=slug)
    return _page(request, tournament, finals_form=form, status=400)


@require_POST
@login_required
def groups_start(request: HttpRequest, slug: str) -> HttpResponse:
    """Draw the round-robin groups from the form (the groups as chosen pair by pair, or the
    snake seeding); on a refusal the form again with its error, nothing written."""
    tournament = tournament_for(request, slug, manage=True)
    form = GroupsForm(request.POST, entrants=_group_entrants(tournament),
                      count=_count(request.POST.get("group_count")))
    if form.is_valid():
        data = form.cleaned_data
        try:
            groups = finals.start_groups(tournament.pk, group_count=data["group_count"],
                                         avoid_same_club=data["avoid_same_club"],
                                         groups=data["groups"], actor=request.user)
        except ServiceError as err:
            show_refusal(form, err)
        else:
            messages.success(request, _("Groups drawn: %(count)s. Create the first round of "
                                        "the groups.") % {"count": len(groups)})
            return redirect("tournaments:rounds", slug=slug)
    return _page(request, tournament, groups_form=form, status=400)
