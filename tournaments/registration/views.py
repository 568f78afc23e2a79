"""The organizer's registration pages: a player, a pair (with its two players in one step) or
tables, new or edited, and withdrawing a pair or player from later draws."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.core.errors import ServiceError
from scoring.models import Pair, Player, Table, Team, Tournament
from tournaments.pages import run_service, show_refusal, tournament_for
from tournaments.registration.entry_forms import AddTablesForm, NewPairForm
from tournaments.registration.forms import PairForm, PlayerForm, TableForm
from tournaments.registration.services import withdraw_pair, withdraw_player
from tournaments.registration.teams import withdraw_team


def _edit_member(
    request: HttpRequest,
    slug: str,
    model: type,
    form_class: type,
    pk: int | None,
    titles: tuple[str, str],
    **extra: Any,
) -> HttpResponse:
    """Create or edit a player, pair or table of a tournament (``extra``: more arguments of
    the form)."""
    tournament = tournament_for(request, slug, manage=True)
    instance = get_object_or_404(model, pk=pk, tournament=tournament) if pk else None
    form = form_class(request.POST or None, instance=instance, tournament=tournament, **extra)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            form.save()
        messages.success(request, _("Saved."))
        if "add_another" in request.POST:
            return redirect(request.path)
        return redirect(tournament)
    title = titles[1] if instance else titles[0]
    return render(
        request,
        "tournaments/form.html",
        {"form": form, "tournament": tournament, "title": title, "add_another": True},
    )


@login_required
def player_edit(request: HttpRequest, slug: str, pk: int | None = None) -> HttpResponse:
    """Register or edit a player."""
    return _edit_member(request, slug, Player, PlayerForm, pk, (_("New player"), _("Edit player")),
                        viewer=request.user)


def _one_step(request: HttpRequest, tournament: Tournament, form_class: type, title: str,
              done: Any, **extra: Any) -> HttpResponse:
    """A form that registers several things through a service at once (nothing on refusal;
    ``extra``: more arguments of the form)."""
    form = form_class(request.POST or None, tournament=tournament, **extra)
    if request.method == "POST" and form.is_valid():
        try:
            saved = form.save()
        except ServiceError as err:
            show_refusal(form, err)
        else:
            messages.success(request, done(saved))
            if "add_another" in request.POST:
                return redirect(request.path)
            return redirect(tournament)
    return render(
        request,
        "tournaments/form.html",
        {"form": form, "tournament": tournament, "title": title, "add_another": True},
    )


@login_required
def pair_edit(request: HttpRequest, slug: str, pk: int | None = None) -> HttpResponse:
    """Register a pair with its two players in one step, or edit one (in singles a side)."""
    tournament = tournament_for(request, slug, manage=True)
    if pk is None and not tournament.singles:
        return _one_step(request, tournament, NewPairForm, _("New pair"), lambda pair: _(
            "The pair %(name)s is registered, rated %(rating)s."
        ) % {"name": pair.display_name, "rating": pair.rating}, viewer=request.user)
    titles = (_("New side"), _("Edit side")) if tournament.singles else (
        _("New pair"), _("Edit pair")
    )
    return _edit_member(request, slug, Pair, PairForm, pk, titles)


@login_required
def table_edit(request: HttpRequest, slug: str, pk: int | None = None) -> HttpResponse:
    """Number several tables at once, or relabel one."""
    if pk is None:
        tournament = tournament_for(request, slug, manage=True)
        return _one_step(request, tournament, AddTablesForm, _("New tables"), lambda tables: (
            _("Table %(number)s added.") % {"number": tables[0].number} if len(tables) == 1
            else _("Tables %(first)s–%(last)s added.")
            % {"first": tables[0].number, "last": tables[-1].number}))
    return _edit_member(request, slug, Table, TableForm, pk, (_("New table"), _("Edit table")))


@require_POST
@login_required
def entrant_withdraw(request: HttpRequest, slug: str, kind: str, pk: int) -> HttpResponse:
    """Withdraw a pair, player or team from later draws, or reinstate them."""
    tournament = tournament_for(request, slug, manage=True)
    entrant: Pair | Player | Team
    service: Callable[..., Pair | Player | Team]
    if kind == "pairs":
        entrant = get_object_or_404(Pair, pk=pk, tournament=tournament)
        service = withdraw_pair
    elif kind == "players":
        entrant = get_object_or_404(Player, pk=pk, tournament=tournament)
        service = withdraw_player
    elif kind == "teams":
        entrant = get_object_or_404(Team, pk=pk, tournament=tournament)
        service = withdraw_team
    else:
        raise Http404
    withdrawn = request.POST.get("withdrawn", "1") == "1"
    done = run_service(request, service, entrant.pk, withdrawn=withdrawn)
    if done is not None:
        text = _("%(name)s is withdrawn from later draws.") if withdrawn else _(
            "%(name)s takes part in the draws again."
        )
        name = entrant.display_name if isinstance(entrant, Pair) else str(entrant.name)
        messages.success(request, text % {"name": name})
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}):
        target = tournament.get_absolute_url()
    return redirect(target)
