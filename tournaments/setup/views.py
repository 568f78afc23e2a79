"""Server-rendered pages: tournaments, registration, and the party page."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from referee import services as referee_services
from referee import state as referee_state
from referee import views as referee_views
from referee.corrections import deal_entry
from referee.serializers import DealInput
from referee.sides import who_names
from scoring.access import permissions
from scoring.core.errors import ServiceError
from scoring.core.timezones import activate_tournament_zone
from scoring.models import (
    PARTY_RELATED,
    Pair,
    Party,
    Penalty,
    Player,
    Regulations,
    Round,
    Table,
    Tournament,
)
from scoring.party.match_format import match_format_text
from scoring.totals.compute import next_deal_number, party_totals
from tournaments.registration.entry_forms import AddTablesForm, NewPairForm
from tournaments.setup.forms import (
    PairForm,
    PlayerForm,
    RegulationsForm,
    TableForm,
    TournamentForm,
    registers_sides,
    rule_set_guide,
)
from tournaments.setup.game_setting_fields import game_settings_display
from tournaments.setup.manage_steps import manage_groups, next_step
from tournaments.setup.services import create_tournament, update_regulations, update_tournament


def _tournament_for(request: HttpRequest, slug: str, manage: bool = False) -> Tournament:
    """Load a tournament the user may see (or manage); 404 for a hidden one."""
    tournament = get_object_or_404(Tournament.objects.select_related("regulations"), slug=slug)
    if not permissions.can_view(request.user, tournament):
        raise Http404
    if manage and not permissions.can_manage(request.user, tournament):
        raise PermissionDenied
    activate_tournament_zone(tournament)
    return tournament


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
            "tournaments": qs,
            "mine": mine,
            "can_create": permissions.can_create_tournament(request.user),
        },
    )


def _service_error(form: Any, err: ServiceError) -> None:
    """Show a service's refusal on the form field it names (above the form otherwise)."""
    form.add_error(err.field if err.field in form.fields else None, err.message)


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
            _service_error(form, err)
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
    tournament = _tournament_for(request, slug)
    can_manage = permissions.can_manage(request.user, tournament)
    pairs: QuerySet[Pair] | list[Pair] = tournament.pairs.filter(
        formed_in_round__isnull=True
    ).select_related("player1", "player2", "fixed_table")
    rounds = list(tournament.rounds.order_by("number"))
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
            "latest": latest,
            "latest_parties": parties,
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
    tournament = _tournament_for(request, slug, manage=True)
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            update_tournament(tournament.pk, actor=request.user, **form.cleaned_data)
        except ServiceError as err:
            _service_error(form, err)
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
    tournament = _tournament_for(request, slug, manage=True)
    regulations, _created = Regulations.objects.get_or_create(tournament=tournament)
    form = RegulationsForm(request.POST or None, instance=regulations)
    if request.method == "POST" and form.is_valid():
        try:
            update_regulations(tournament.pk, actor=request.user, **form.cleaned_data)
        except ServiceError as err:
            _service_error(form, err)
        else:
            messages.success(request, _("The regulations were saved."))
            return redirect(tournament)
    return render(
        request,
        "tournaments/form.html",
        {"form": form, "tournament": tournament, "title": _("Regulations")},
    )


def _edit_member(
    request: HttpRequest,
    slug: str,
    model: type,
    form_class: type,
    pk: int | None,
    titles: tuple[str, str],
) -> HttpResponse:
    """Create or edit a player, pair or table of a tournament."""
    tournament = _tournament_for(request, slug, manage=True)
    instance = get_object_or_404(model, pk=pk, tournament=tournament) if pk else None
    form = form_class(request.POST or None, instance=instance, tournament=tournament)
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
    return _edit_member(request, slug, Player, PlayerForm, pk, (_("New player"), _("Edit player")))


def _one_step(request: HttpRequest, tournament: Tournament, form_class: type, title: str,
              done: Any) -> HttpResponse:
    """A form that registers several things through a service at once (nothing on refusal)."""
    form = form_class(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            saved = form.save()
        except ServiceError as err:
            _service_error(form, err)
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
    tournament = _tournament_for(request, slug, manage=True)
    if pk is None and not tournament.singles:
        return _one_step(request, tournament, NewPairForm, _("New pair"), lambda pair: _(
            "The pair %(name)s is registered, rated %(rating)s."
        ) % {"name": pair.display_name, "rating": pair.rating})
    titles = (_("New side"), _("Edit side")) if tournament.singles else (
        _("New pair"), _("Edit pair")
    )
    return _edit_member(request, slug, Pair, PairForm, pk, titles)


@login_required
def table_edit(request: HttpRequest, slug: str, pk: int | None = None) -> HttpResponse:
    """Number several tables at once, or relabel one."""
    if pk is None:
        tournament = _tournament_for(request, slug, manage=True)
        return _one_step(request, tournament, AddTablesForm, _("New tables"), lambda tables: (
            _("Table %(number)s added.") % {"number": tables[0].number} if len(tables) == 1
            else _("Tables %(first)s–%(last)s added.")
            % {"first": tables[0].number, "last": tables[-1].number}))
    return _edit_member(request, slug, Table, TableForm, pk, (_("New table"), _("Edit table")))


def _party_for(request: HttpRequest, pk: int) -> Party:
    """Load a party the visitor may see."""
    party = get_object_or_404(
        Party.objects.select_related(*PARTY_RELATED),
        pk=pk,
    )
    if not permissions.can_view(request.user, party.round.tournament):
        raise Http404
    activate_tournament_zone(party.round.tournament)
    return party


def _deal_form(party: Party, next_number: int, post: Any = None) -> dict[str, Any]:
    """The party page's new-deal form: the desk's fields for the rule set (``deal_entry``),
    filled in again with what was posted when it was refused."""
    rule_set, cfg = referee_state.rules_of(party)
    entry = deal_entry(party, rule_set, cfg)
    if post is not None:
        entry["initial"] = {
            key: post.get(key, "") for key in ("outcome", "winner", "went_out", "led", "plays")
        }
        entry["pip_rows"] = [
            (seat, label, post.get(f"pips_{seat}") or None) for seat, label, _v in entry["pip_rows"]
        ]
        entry["point_rows"] = [
            (key, label, post.get(f"points_{key}") or None)
            for key, label, _v in entry["point_rows"]
        ]
    return {
        "entry": entry,
        "number": next_number,
        "version": party.version,
        "client_id": uuid.uuid4().hex,
    }


def party_context(
    request: HttpRequest,
    party: Party,
    post: Any = None,
    errors: list[tuple[str, str]] | None = None,
) -> dict:
    """Everything the party page shows: pairs, clock, deals with running totals, fines.

    Beside that, the rule set's own sheet (``party_sheet``): the games of a match, or a
    column per player where every player scores for himself (Kozel: memorized points, the
    Goat), and one player per side in singles. A referee gets the desk's deal form
    (``deal_form``), with ``errors`` (field, message) of a refused ``post``.
    """
    from scoring.signoff.content import party_sheet  # the protocol's own lines, per rule set

    prefetch_related_objects([party], "deals", Prefetch(
        "penalties", queryset=Penalty.objects.select_related("player")))
    deals, penalties = list(party.deals.all()), list(party.penalties.all())
    totals = party_totals(party)
    sheet = party_sheet(party, deals, penalties, totals)
    running, uncollected = iter(totals.running), iter(totals.uncollected)
    rows = [{**row, "running": next(running, None), "uncollected": next(uncollected, None) or {}}
            for row in sheet.pop("rows")]
    for game in sheet["games"]:
        game["rows"] = [row for row in rows if row["deal"].game == game["number"]]
    can_ref = permissions.can_referee(request.user, party)
    next_number = next_deal_number(deals)
    left = party.seconds_left() if party.started_at and party.has_clock else None
    return {
        "party": party,
        "tournament": party.round.tournament,
        "regulations": party.round.tournament.regulations,
        "rows": rows,
        "uncollected": any(totals.uncollected),
        "totals": totals,
        "penalties": penalties,
        "events": party.events.select_related("actor").order_by("-seq")[:50],
        "names": who_names(party),
        "can_referee": can_ref,
        "deal_form": _deal_form(party, next_number, post) if can_ref else None,
        "deal_errors": errors or [],
        "next_number": next_number,
        "seconds_left": int(left) if left is not None else None,
        "match_format": match_format_text(party.round.tournament.regulations.rules_config())
        if party.round.tournament.plays_games
        else "",
        "game_seconds_left": int(party.game_seconds_left())
        if party.started_at and party.round.tournament.plays_games and not party.finished_at
        else None,
        "Status": Party.Status,
        **sheet,
    }


def party_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The party page; referees and organizers record deals here, through the desk's
    ``DealInput`` and its service (``referee.views.run_page_form``)."""
    party = _party_for(request, pk)
    if request.method != "POST":
        return render(request, "tournaments/party.html", party_context(request, party))
    if not permissions.can_referee(request.user, party):
        raise PermissionDenied
    deal, errors, code = referee_views.run_page_form(request.POST, party, request.user, DealInput)
    if not errors:
        messages.success(request, _("Deal %(number)s recorded.") % {"number": deal.number})
        return redirect(party)
    party.refresh_from_db()
    context = party_context(request, party, request.POST, referee_views.error_rows(errors))
    return render(request, "tournaments/party.html", context, status=code)


def _run_action(request: HttpRequest, party: Party, action: Any, **kwargs: Any) -> HttpResponse:
    """Run a party service for a referee; show its error as a message."""
    if not permissions.can_referee(request.user, party):
        raise PermissionDenied
    try:
        action(party.pk, actor=request.user, **kwargs)
    except ServiceError as err:
        messages.error(request, err.message)
    return redirect(party)


@require_POST
@login_required
def party_start(request: HttpRequest, pk: int) -> HttpResponse:
    """Start the party's clock."""
    party = _party_for(request, pk)
    return _run_action(request, party, referee_services.start_party)


@require_POST
@login_required
def party_forfeit(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a no-show: the absent pair forfeits."""
    party = _party_for(request, pk)
    return _run_action(
        request,
        party,
        referee_services.forfeit_party,
        absent_side=request.POST.get("absent_side", ""),
        reason=request.POST.get("reason", ""),
    )


@login_required
def deal_change(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """The party page's correct and annul links: the referee desk's one correction editor.

    Same serializer, service and permission as the desk and the API: a referee changes the
    deals he recorded (the chief referee anyone's), a locked party only by the chief's amendment.
    """
    if action == "correct" or (action == "annul" and request.method != "POST"):
        return referee_views.deal_correct(request, pk)
    if action == "annul":
        return referee_views.deal_annul(request, pk)
    raise Http404
