"""The referee's pages: the overview of a round, the party screen and the referees of a tournament.

Pages work without JavaScript (plain forms, redirect after POST); with htmx the party screen
swaps its panel in place and the overview refreshes itself. Actions go through the same input
serializers and services as the API. No inline script or style: a strict CSP holds.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from referee import desk_steps, offline, services, state
from referee.api import advise, preview, referee_roles
from referee.corrections import deal_entry, may_correct, record_to_correct
from referee.rulings import ALL_TILES, PRESET_UDL, scores_by_seat
from referee.serializers import (
    PARTY_ACTIONS,
    ActionInput,
    AnnulDealInput,
    CancelPenaltyInput,
    CorrectDealInput,
    DealFields,
    FineInput,
    MoveAdviceInput,
    RefereeSettingsSerializer,
    TilesPreviewInput,
    form_data,
)
from scoring import permissions
from scoring.errors import ServiceError, translate_engine_error
from scoring.models import Deal, Party, Penalty, RefereeSettings, Ruling, TournamentRole
from scoring.models.event_text import describe_event
from scoring.rules import LAYOUT_KOZEL, SEATS, RulesConfig, RuleSet
from scoring.timezones import activate_tournament_zone
from scoring.web import page_or_fragment, vary_on_htmx

TILES = [(f"{low}-{high}", low, high) for low, high in ALL_TILES]
RULING_BUTTONS = ("continue", "reshuffle", "fits", "misfit", "false_pass")
"""The one-tap ruling buttons per seat (each its own form and client id)."""


class FreshIds(dict):
    """Client ids for the forms of one rendering: a new one for every name asked."""

    def __missing__(self, key: str) -> str:
        self[key] = uuid.uuid4().hex
        return self[key]


def _login_first(request: HttpRequest) -> HttpResponse | None:
    """Send an anonymous visitor of a page to the login form (a POST is simply refused)."""
    if request.user.is_authenticated or request.method != "GET":
        return None
    return redirect(f"{reverse('login')}?next={request.path}")


def _error_text(errors: Any) -> str:
    """Serializer errors as one line."""
    if isinstance(errors, dict):
        return " ".join(_error_text(value) for value in errors.values())
    if isinstance(errors, list):
        return " ".join(_error_text(value) for value in errors)
    return str(errors)


def error_rows(errors: Any, field: str = "") -> list[tuple[str, str]]:
    """Serializer errors as (field, message) rows, a nested field named like "pips a1"."""
    if isinstance(errors, dict):
        return [
            row
            for key, value in errors.items()
            for row in error_rows(value, f"{field} {key}".strip() if key != "non_field_errors"
                                  else field)
        ]
    if isinstance(errors, list):
        return [row for value in errors for row in error_rows(value, field)]
    return [(field, str(errors))]


def _seat_names(party: Party) -> list[tuple[str, str]]:
    """(seat, "A1 · name") of the players at the table under the rule set, in playing order."""
    rule_set, cfg = state.rules_of(party)
    return state.seat_names(party, rule_set, cfg)


def _warning_cells(
    code: str, by_kind: dict[str, dict[str, int]], seats: list[tuple[str, str]], by_seat: bool,
    ids: FreshIds,
) -> list[dict[str, Any]]:
    """The warning buttons of one kind: one per pair, or one per player where he keeps his own
    score (the warnings then escalate per player)."""
    if not by_seat:
        return [
            {"side": side, "seat": "", "label": side.upper(), "title": "",
             "count": by_kind.get(side, {}).get(code, 0), "id": ids[f"warning-{code}-{side}"],
             "key": side}
            for side in ("a", "b")
        ]
    return [
        {"side": seat[0], "seat": seat, "label": seat.upper(), "title": label,
         "count": by_kind.get(seat, {}).get(code, 0), "id": ids[f"warning-{code}-{seat}"],
         "key": seat}
        for seat, label in seats
    ]


def panel_context(request: HttpRequest, party: Party, **extra: Any) -> dict[str, Any]:
    """Everything the party screen's panel shows, with fresh client ids for its forms."""
    activate_tournament_zone(party.round.tournament)
    data = state.party_state(party)
    ids = FreshIds()
    by_kind = data["warnings_by_kind"]
    seats = _seat_names(party)
    rule_set, cfg = state.rules_of(party)
    by_seat = scores_by_seat(rule_set, cfg)
    context = {
        "party": party,
        "tournament": party.round.tournament,
        "regulations": party.round.tournament.regulations,
        "settings": (desk_settings := services.referee_settings(party.round.tournament)),
        "udl_slow_play": desk_settings.penalty_preset == PRESET_UDL,
        "s": data,
        "events": state.events(party, limit=30),
        "seats": seats,
        "side_choices": [
            (key, f"{key.upper()} · {name}") for key, name in state.side_names(party, rule_set, cfg)
        ],
        "seat_rows": [
            {
                "seat": seat,
                "label": label,
                "ids": {name: ids[f"{name}-{seat}"] for name in RULING_BUTTONS},
            }
            for seat, label in seats
        ],
        "tiles": TILES,
        "ends": range(7),
        "warning_rows": [
            {
                "code": c.value,
                "label": c.label,
                "a": by_kind["a"].get(c.value, 0),
                "b": by_kind["b"].get(c.value, 0),
                "id_a": ids[f"warning-{c.value}-a"],
                "id_b": ids[f"warning-{c.value}-b"],
                "cells": _warning_cells(c.value, by_kind, seats, by_seat, ids),
            }
            for c in services.WARNING_CATEGORIES
        ],
        "entry": deal_entry(party, rule_set, cfg),
        "correctable": {
            deal.pk for deal in party.deals.only("pk", "recorded_by_id")
            if may_correct(request.user, party, deal.recorded_by_id)
        },
        "rule_set": rule_set,
        "cfg": cfg,
        "by_seat": by_seat,
        "fine_to_account": rule_set.layout_for(cfg) == LAYOUT_KOZEL,
        "udl": _udl_context(rule_set, cfg, seats, ids),
        "fine_kinds": Penalty.Category.choices,
        "check_in_rows": [(side, data["check_in"][side]) for side in ("a", "b")],
        "singles": party.pair_a.player2_id is None,
        "Choice": Ruling.Choice,
        "cid": ids,
        **extra,
    }
    context.update(desk_steps.panel_safety(context))
    return context


def _udl_context(
    rule_set: RuleSet, cfg: RulesConfig, seats: list[tuple[str, str]], ids: FreshIds
) -> dict[str, Any] | None:
    """The UDL violations block: each violation and its consequence, the slow-play buttons."""
    if not rule_set.violations:
        return None
    return {
        "violations": [
            (code, _(label),
             _(rule_set.consequences[code]) % {"points": cfg.udl_slow_play_points})
            for code, label in rule_set.violations.items()
        ],
        "slow_play": [
            {"seat": seat, "label": label, "id": ids[f"udl-slow-{seat}"]} for seat, label in seats
        ],
    }


def page_data(post: Any, party: Party, input_class: type[ActionInput]) -> dict[str, Any]:
    """A page form in the shape the action serializers take, for the party's rule set.

    On top of ``form_data``: each player's points (``points_<seat>``: Kozel's deal totals, the
    referee's points of a false pass), quick points won by a player where every player keeps
    his own score, and a fine's own points.
    """
    data = form_data(post)
    per_seat = {
        seat: post.get(f"points_{seat}")
        for seat in SEATS
        if post.get(f"points_{seat}") not in (None, "")
    }
    quick = post.get("points")
    if per_seat:
        data["points"] = per_seat
    elif input_class is FineInput and quick not in (None, ""):
        data["points"] = quick
    elif issubclass(input_class, DealFields) and quick not in (None, ""):
        if not isinstance(data.get("points"), dict):
            rule_set, cfg = state.rules_of(party)
            who = data.get("seat") or data.get("side") or ""
            if who in rule_set.seats_for(cfg):
                who = rule_set.side_of(who)
            if who:
                data["points"] = {who: quick}
    return data


def _answer(
    request: HttpRequest, party_id: int, *, done: str = "", error: str = "", code: int = 200,
    **extra: Any,
) -> HttpResponse:
    """After an action: the panel for htmx; else a redirect, or the page with the error.

    ``extra``: the undo offer (``undo``) after an action, or the confirmation step
    (``confirm_step``) an irreversible action asks first (the page, not a redirect).
    """
    if not request.htmx and not error and not extra.get("confirm_step"):
        messages.success(request, done)
        desk_steps.remember_undo(request, party_id, extra.get("undo"))
        return vary_on_htmx(redirect("referee:party", pk=party_id))
    party = state.party_queryset().get(pk=party_id)
    context = panel_context(request, party, done=done, error=error, **extra)
    response = page_or_fragment(
        request, "referee/party.html", "referee/_panel.html", context, code
    )
    if extra.get("confirm_step"):
        response[desk_steps.CONFIRM_HEADER] = "1"
        response["HX-Reswap"] = "outerHTML show:#confirm-step:top"
    return response


def run_page_form(
    post: Any, party: Party, user: Any, input_class: type[ActionInput], record: Any = None
) -> tuple[Any, dict[str, Any], int]:
    """Validate a page form with the action's serializer and run its service.

    The one path of every page that acts on a party (the desk's screen, its correction editor,
    the party page's deal form). Returns (the result, the errors by field, the status): a
    refused form changes nothing and gives 400 (or the service's status) with its errors.
    """
    serializer = input_class(data=page_data(post, party, input_class), context={"party": party})
    if not serializer.is_valid():
        return None, dict(serializer.errors), 400
    try:
        result = serializer.perform(party, user, "", record)
    except ServiceError as err:
        return None, {err.field: [err.message]}, err.status_code
    return result, {}, 200


def _panel_html(request: HttpRequest, party_id: int, **extra: Any) -> str:
    """The party screen's panel as it is now, with a message (the offline queue's answers)."""
    party = state.party_queryset().get(pk=party_id)
    return render_to_string(
        "referee/_panel.html", panel_context(request, party, **extra), request=request
    )


def _perform(
    request: HttpRequest, party: Party, input_class: type[ActionInput], record: Any = None
) -> HttpResponse:
    """Run a page form's action (``run_page_form``) and answer the desk's way.

    The device's action queue asks for JSON (``referee.offline.answer``: once per
    Idempotency-Key, with the party's version after the action).
    """
    if offline.wants_json(request):
        offer: dict[str, Any] = {}

        def run() -> tuple[Any, dict[str, Any], int]:
            result, errors, code = run_page_form(
                request.POST, party, request.user, input_class, record
            )
            offer["undo"] = None if errors else services.undo_offer(result, request.user)
            return result, errors, code

        return offline.answer(
            request,
            party.pk,
            run,
            lambda **extra: _panel_html(request, party.pk, undo=offer.get("undo"), **extra),
        )
    result, errors, code = run_page_form(request.POST, party, request.user, input_class, record)
    if errors:
        return _answer(request, party.pk, error=_error_text(errors), code=code)
    latest = party.events.order_by("-seq").first()
    done = describe_event(latest.kind, latest.data or {}) if latest else _("Done.")
    return _answer(request, party.pk, done=done, undo=services.undo_offer(result, request.user))


@require_GET
def party_screen(request: HttpRequest, pk: int) -> HttpResponse:
    """The referee's screen of one party (its panel alone for htmx and the offline queue)."""
    if (login := _login_first(request)) is not None:
        return login
    party = state.party_for_referee(request.user, pk)
    undo = desk_steps.pending_undo(request, party.pk)
    context = panel_context(request, party, undo=undo)
    return page_or_fragment(request, "referee/party.html", "referee/_panel.html", context)


@require_GET
def party_status(request: HttpRequest, pk: int) -> HttpResponse:
    """The scoreboard fragment the party screen polls."""
    party = state.party_for_referee(request.user, pk)
    return render(request, "referee/_scoreboard.html", {"s": state.party_state(party)})


@require_POST
def party_action(request: HttpRequest, pk: int, name: str) -> HttpResponse:
    """Run one action on the party (start, pause, deal, warning, a ruling …)."""
    party = state.party_for_referee(request.user, pk, full=False)
    input_class = PARTY_ACTIONS.get(name)
    if input_class is None:
        raise Http404
    data = page_data(request.POST, party, input_class)
    step = desk_steps.confirmation_step(request, party, name, data, input_class)
    if step is not None and offline.wants_json(request):  # queued without the question
        return offline.confirmation(request, party.pk, step)
    if step is not None:  # an irreversible action: nothing happens before the referee confirms
        return _answer(request, party.pk, confirm_step=step)
    return _perform(request, party, input_class)


def deal_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a recorded deal, with a reason (the chief corrects anyone's and amends a locked
    party); the party page's correct and annul links lead here too."""
    if (login := _login_first(request)) is not None:
        return login
    deal, party = record_to_correct(request.user, Deal, pk, "recorded_by_id")
    if request.method == "POST":
        return _perform(request, party, CorrectDealInput, deal)
    rule_set, cfg = state.rules_of(party)
    return render(
        request,
        "referee/deal_correct.html",
        {
            "deal": deal,
            "party": party,
            "tournament": party.round.tournament,
            "seats": _seat_names(party),
            "entry": deal_entry(party, rule_set, cfg, deal),
            "version": party.version,
        },
    )


@require_POST
def deal_annul(request: HttpRequest, pk: int) -> HttpResponse:
    """Annul a recorded deal, with a reason."""
    deal, party = record_to_correct(request.user, Deal, pk, "recorded_by_id")
    return _perform(request, party, AnnulDealInput, deal)


@require_POST
def penalty_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """Cancel a warning or fine given by mistake, with a reason."""
    penalty, party = record_to_correct(request.user, Penalty, pk, "created_by_id")
    return _perform(request, party, CancelPenaltyInput, penalty)


@require_POST
def move_advice(request: HttpRequest, pk: int) -> HttpResponse:
    """The move-time helper's answer (a fragment)."""
    party = state.party_for_referee(request.user, pk, full=False)
    serializer = MoveAdviceInput(data=form_data(request.POST))
    context: dict[str, Any] = {"party": party, "seat": request.POST.get("seat", "")}
    if serializer.is_valid():
        try:
            context["advice"] = advise(serializer.validated_data, party)
        except ServiceError as err:
            context["error"] = err.message
    else:
        context["error"] = _error_text(serializer.errors)
    context["cid"] = FreshIds()
    context["version"] = party.version
    context["confirm"] = desk_steps.advice_texts(party, context["seat"])
    return render(request, "referee/_advice.html", context)


@require_POST
def tiles_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The sums of the tiles picked in the deal form, and the deal's winner (a fragment)."""
    party = state.party_for_referee(request.user, pk, full=False)
    data = form_data(request.POST)
    data.setdefault("tiles", {})
    if data.get("outcome") not in ("domino", "fish"):
        data["outcome"] = "fish"
    serializer = TilesPreviewInput(data=data)
    context: dict[str, Any] = {}
    if serializer.is_valid():
        try:
            result = preview(party, serializer.validated_data)
        except ServiceError as err:
            context["error"] = err.message
        else:
            context["preview"] = result
            if result.error:
                context["rule"] = translate_engine_error(result.error).message
    else:
        context["error"] = _error_text(serializer.errors)
    return render(request, "referee/_tiles_sum.html", context)


@require_GET
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    """Every party of the current round the referee runs, refreshed in place."""
    if (login := _login_first(request)) is not None:
        return login
    tournament = state.tournament_for_referee(request.user, slug=slug)
    activate_tournament_zone(tournament)
    number = request.GET.get("round")
    data = state.overview(request.user, tournament, int(number) if number else None)
    return page_or_fragment(
        request,
        "referee/overview.html",
        "referee/_overview.html",
        {
            "tournament": tournament,
            "o": data,
            "can_manage": permissions.can_manage(request.user, tournament),
        },
    )


def referees(request: HttpRequest, slug: str) -> HttpResponse:
    """Organizers assign referees (optionally to tables) and set the penalty rules."""
    if (login := _login_first(request)) is not None:
        return login
    tournament = state.tournament_for_referee(request.user, manage=True, slug=slug)
    if request.method == "POST":
        _change_referees(request, tournament)
        return redirect("referee:referees", slug=slug)
    return render(
        request,
        "referee/referees.html",
        {
            "tournament": tournament,
            "roles": referee_roles(tournament.pk),
            "tables": tournament.tables.all(),
            "settings": services.referee_settings(tournament),
            "presets": RefereeSettings.Preset.choices,
            "Role": TournamentRole.Role,
        },
    )


def _change_referees(request: HttpRequest, tournament: Any) -> None:
    """Apply the referees page's form: assign, remove, or save the penalty rules."""
    post = request.POST
    if "remove" in post:
        TournamentRole.objects.filter(
            pk=post["remove"],
            tournament=tournament,
            role__in=[TournamentRole.Role.REFEREE, TournamentRole.Role.CHIEF],
        ).delete()
        messages.success(request, _("The referee was removed."))
        return
    if "penalty_preset" in post:
        serializer = RefereeSettingsSerializer(data=post)
        if serializer.is_valid():
            services.save_referee_settings(tournament, **serializer.validated_data)
            messages.success(request, _("Saved."))
        else:
            messages.error(request, _error_text(serializer.errors))
        return
    user = get_user_model().objects.filter(username=post.get("username", "").strip()).first()
    if user is None:
        messages.error(request, _("No user with that name."))
        return
    tables = list(tournament.tables.filter(pk__in=post.getlist("tables")))
    try:
        services.assign_referee(tournament, user=user, role=post.get("role", ""), tables=tables)
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("%(name)s is a referee now.") % {"name": user.username})
