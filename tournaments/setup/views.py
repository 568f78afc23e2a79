"""The organizer's set-up pages: the tournament list, a tournament's page with its next step,
creating and editing a tournament, its regulations."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scoring.access import permissions
from scoring.core.errors import ServiceError
from scoring.models import (
    Pair,
    Party,
    Regulations,
    Round,
    Tournament,
)
from tournaments.pages import show_refusal, tournament_for
from tournaments.setup.forms import (
    RegulationsForm,
    TournamentForm,
    rule_set_guide,
)
from tournaments.setup.game_setting_fields import game_settings_display
from tournaments.setup.manage_steps import manage_groups, next_step
from tournaments.setup.services import (
    create_tournament,
    registers_sides,
    update_regulations,
    update_tournament,
)
from tournaments.timetable import timetable


def tournament_list(request: HttpRequest) -> HttpResponse:
    """Every tournament the visitor may see, newest first; ``?mine=1``: the ones he organizes."""
    mine = request.GET.get("mine") == "1" and request.user.is_authenticated
    qs = Tournament.objects.all()
    if mine:
        qs = permissions.managed_tournaments(request.user)
    elif not request.user.is_superuser:
        visible = Q(public=True)
        if request.user.is_authenticated:
            visible |= Q(roles__user=request.user) | Q(players__user=request.user)
        qs = qs.filter(visible).distinct()
    return render(
        request,
        "tournaments/list.html",
        {
            "tournaments": qs.select_related("regulations"),  # each one's kind: its rule set's
            "mine": mine,
            "can_create": permissions.can_create_tournament(request.user),
        },
    )


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    """Create a tournament; its regulations start from its rule set's preset."""
    if not permissions.can_create_tournament(request.user):
        raise PermissionDenied
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = {k: v for k, v in form.cleaned_data.items() if k not in ("name", "slug")}
        try:
            tournament = create_tournament(
                name=form.cleaned_data["name"],
                slug=form.cleaned_data["slug"],
                organizer=request.user,
                **data,
            )
        except ServiceError as err:
            show_refusal(form, err)
        else:
            messages.success(
                request, _("The tournament was created. Now check its regulations.")
            )
            return redirect("tournaments:regulations", slug=tournament.slug)
    return render(
        request,
        "tournaments/form.html",
        {"form": form, "title": _("New tournament"), "rule_set_guide": rule_set_guide()},
    )


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A tournament's page: regulations, pairs, tables, rounds and the latest round's parties."""
    tournament = tournament_for(request, slug)
    can_manage = permissions.can_manage(request.user, tournament)
    pairs: QuerySet[Pair] | list[Pair] = tournament.pairs.filter(
        formed_in_round__isnull=True
    ).select_related("player1", "player2", "fixed_table")
    rounds = list(tournament.rounds.order_by("number"))
    lines = timetable(tournament, rounds)  # a draft's planned start is no secret, its draw is
    if not can_manage:
        rounds = [rnd for rnd in rounds if rnd.status != Round.Status.DRAFT]
    latest = rounds[-1] if rounds else None
    parties = (
        Party.objects.filter(round=latest)
        .select_related(
            "table", "pair_a__player1", "pair_a__player2", "pair_b__player1", "pair_b__player2"
        )
        .order_by("table__number", "id")
        if latest
        else Party.objects.none()
    )
    players, tables = list(tournament.players.all()), list(tournament.tables.all())
    individual = tournament.format == Tournament.Format.INDIVIDUAL
    step = groups = None
    if can_manage:
        pairs = list(pairs)
        entrants = len(players) if individual else len(pairs)
        step = next_step(tournament, entrants, len(tables), rounds)
        groups = manage_groups(tournament, step, pairs=not individual, latest=latest,
                               can_create=permissions.can_create_tournament(request.user))
    return render(
        request,
        "tournaments/detail.html",
        {
            "tournament": tournament,
            "regulations": tournament.regulations,
            "pairs": pairs,
            "players": players,
            "tables": tables,
            "next_step": step,
            "manage_groups": groups,
            "rounds": rounds,
            "timetable_lines": lines,
            "latest": latest,
            "latest_parties": parties,
            "has_bracket": any(rnd.bracket_round for rnd in rounds),
            "can_manage": can_manage,
            "can_referee": permissions.can_referee_tournament(request.user, tournament),
            "individual": individual,
            "singles": registers_sides(tournament),
            "game_settings": game_settings_display(tournament.regulations),
        },
    )


@login_required
def tournament_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """Edit a tournament's own fields."""
    tournament = tournament_for(request, slug, manage=True)
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            update_tournament(tournament.pk, actor=request.user, **form.cleaned_data)
        except ServiceError as err:
            show_refusal(form, err)
        else:
            messages.success(request, _("Saved."))
            return redirect(tournament)
    return render(
        request,
        "tournaments/form.html",
        {
            "form": form,
            "tournament": tournament,
            "title": _("Edit tournament"),
            "rule_set_guide": rule_set_guide(),
        },
    )


@login_required
def regulations_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """Edit every rule setting of a tournament."""
    tournament = tournament_for(request, slug, manage=True)
    regulations, _created = Regulations.objects.get_or_create(tournament=tournament)
    form = RegulationsForm(request.POST or None, instance=regulations)
    if request.method == "POST" and form.is_valid():
        try:
            update_regulations(tournament.pk, actor=request.user, **form.cleaned_data)
        except ServiceError as err:
            show_refusal(form, err)
        else:
            messages.success(request, _("The regulations were saved."))
            return redirect(tournament)
    return render(
        request,
        "tournaments/form.html",
        {"form": form, "tournament": tournament, "title": _("Regulations")},
    )


