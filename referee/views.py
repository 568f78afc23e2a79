"""The referee's pages: the overview of a round, the party screen and the referees of a tournament.

Pages work without JavaScript (plain forms, redirect after POST); with htmx the party screen
swaps its panel in place and the overview refreshes itself. Actions go through the same input
serializers and services as the API. No inline script or style: a strict CSP holds.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from referee import access, desk_steps, offline, services, state
from referee.api import advise, preview
from referee.corrections import deal_entry, record_to_correct
from referee.desk_context import FreshIds, flash_place, panel_context, seat_names
from referee.overview import round_overview
from referee.serializers import (
    PARTY_ACTIONS,
    ActionInput,
    AnnulDealInput,
    CancelPenaltyInput,
    CorrectDealInput,
    DealFields,
    FineInput,
    MoveAdviceInput,
    TilesPreviewInput,
    form_data,
)
from referee.sides import who_names
from referee.worded import service_errors, worded_line
from scoring.access import permissions
from scoring.access.permissions import request_grants
from scoring.core.errors import ServiceError, number_parameter, translate_engine_error
from scoring.core.timezones import activate_tournament_zone
from scoring.core.web import is_htmx, page_or_fragment, vary_on_htmx
from scoring.models import Deal, Party, Penalty
from scoring.models.event_text import describe_event
from scoring.party.done import Done, done_of
from scoring.rules import SEATS, RuleError, count_open_ends
from scoring.rules.moves import MAX_OPEN_ENDS


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
        points = data.get("points")
        rule_set, cfg = state.rules_of(party)
        who = data.get("seat") or data.get("side") or ""
        if who in rule_set.seats_for(cfg):
            who = rule_set.side_of(who)
        # the pairs' quick points stay as ``form_data`` made them; a player's go to his side
        if who and (not isinstance(points, dict) or who not in points):
            data["points"] = {who: quick}
    return data


def _answer(
    request: HttpRequest, party_id: int, *, message: str | None = "", error: str = "",
    code: int = 200, action: str = "", done: Done[Any] | None = None,
    read: Party | None = None, **extra: Any,
) -> HttpResponse:
    """After an action: the panel for htmx; else a redirect, or the page with the error.

    ``message``: what was done; None says the party's latest change (as the queue's answer
    does).
    ``action``: the action's name, whose section shows the message (``flash_place``).
    ``done``: the result of the action's service (``state.screen_party`` shows a deal
    entry's deals and totals), ``read``: the party as the view read it for the screen before.
    ``extra``: the undo offer (``undo``) after an action, or the confirmation step
    (``confirm_step``) an irreversible action asks first (the page, not a redirect).
    """
    if not is_htmx(request) and not error and not extra.get("confirm_step"):
        messages.success(request, _latest_change(party_id) if message is None else message)
        desk_steps.remember_undo(request, party_id, extra.get("undo"))
        return vary_on_htmx(redirect("referee:party", pk=party_id))
    party, shown = state.screen_party(party_id, done, read)
    context = panel_context(
        request, party, shown, done=message or "", error=error,
        flash_at=flash_place(action, party), **extra,
    )
    if message is None:  # the latest change is the newest event the panel lists
        latest = context["events"][0] if context["events"] else None
        context["done"] = (
            describe_event(latest.kind, latest.data or {}, context["names"]) if latest
            else _("Done.")
        )
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
    except ServiceError as err:  # its seat and side named, by the field of the form
        return None, service_errors(err, who_names(party)), err.status_code
    return result, {}, 200


def _panel_html(request: HttpRequest, party_id: int, action: str = "", **extra: Any) -> str:
    """The party screen's panel as it is now, with a message (the offline queue's answers)."""
    party = state.party_queryset().get(pk=party_id)
    context = panel_context(request, party, flash_at=flash_place(action, party), **extra)
    return render_to_string("referee/_panel.html", context, request=request)


def _perform(
    request: HttpRequest, party: Party, input_class: type[ActionInput], record: Any = None,
    action: str = "", screen: bool = False,
) -> HttpResponse:
    """Run a page form's action (``run_page_form``) and answer the desk's way, its message in
    the section of ``action`` and naming the pairs and players (``screen``: ``party`` was read
    with what the screen names, ``access.party_for_referee(..., screen=True)``).

    The device's action queue asks for JSON (``referee.offline.answer``: once per
    Idempotency-Key, with the party's version after the action).
    """
    if offline.wants_json(request):
        offer: dict[str, Any] = {}

        def run() -> tuple[Any, dict[str, Any], int]:
            result, errors, code = run_page_form(
                request.POST, party, request.user, input_class, record
            )
            if errors:
                return None, errors, code
            made = done_of(result).record
            offer["undo"] = services.undo_offer(made, request.user)
            return made, errors, code

        return offline.answer(
            request,
            party.pk,
            run,
            lambda **extra: _panel_html(
                request, party.pk, action, undo=offer.get("undo"), **extra
            ),
        )
    result, errors, code = run_page_form(request.POST, party, request.user, input_class, record)
    if errors:
        return _answer(
            request, party.pk, error=worded_line(errors, who_names(party)), code=code,
            action=action,
        )
    done = done_of(result)
    return _answer(
        request, party.pk, message=None, undo=services.undo_offer(done.record, request.user),
        action=action, done=done, read=party if screen else None,
    )


def _latest_change(party_id: int) -> str:
    """The party's latest change as the queue's answer says it (else "Done.")."""
    return offline.latest_change(party_id) or _("Done.")


@require_GET
def party_screen(request: HttpRequest, pk: int) -> HttpResponse:
    """The referee's screen of one party (its panel alone for htmx and the offline queue)."""
    if (login := _login_first(request)) is not None:
        return login
    party = access.party_for_referee(request.user, pk, grants=request_grants(request))
    undo = desk_steps.pending_undo(request, party.pk)
    context = panel_context(request, party, undo=undo)
    return page_or_fragment(request, "referee/party.html", "referee/_panel.html", context)


@require_GET
def party_status(request: HttpRequest, pk: int) -> HttpResponse:
    """The scoreboard fragment the party screen polls."""
    party = access.party_for_referee(request.user, pk, grants=request_grants(request))
    return render(
        request,
        "referee/_scoreboard.html",
        {"s": state.party_state(party), "names": who_names(party)},
    )


@require_POST
def party_action(request: HttpRequest, pk: int, name: str) -> HttpResponse:
    """Run one action on the party (start, pause, deal, warning, a ruling …)."""
    # the answer is the screen: what it names is read now, with the party (one query)
    party = access.party_for_referee(
        request.user, pk, full=False, screen=is_htmx(request), grants=request_grants(request)
    )
    input_class = PARTY_ACTIONS.get(name)
    if input_class is None:
        raise Http404
    data = page_data(request.POST, party, input_class)
    step = desk_steps.confirmation_step(request, party, name, data, input_class)
    if step is not None and offline.wants_json(request):  # queued without the question
        return offline.confirmation(request, party.pk, step)
    if step is not None:  # an irreversible action: nothing happens before the referee confirms
        return _answer(request, party.pk, confirm_step=step, action=name)
    return _perform(request, party, input_class, action=name, screen=is_htmx(request))


def deal_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a recorded deal, with a reason (the chief corrects anyone's and amends a locked
    party); the party page's correct and annul links lead here too."""
    if (login := _login_first(request)) is not None:
        return login
    deal, party = record_to_correct(request.user, Deal, pk, "recorded_by_id")
    if request.method == "POST":
        return _perform(request, party, CorrectDealInput, deal, action="correct")
    rule_set, cfg = state.rules_of(party)
    return render(
        request,
        "referee/deal_correct.html",
        {
            "deal": deal,
            "party": party,
            "tournament": party.round.tournament,
            "seats": seat_names(party),
            "names": who_names(party),
            "entry": deal_entry(party, rule_set, cfg, deal),
            "version": party.version,
        },
    )


@require_POST
def deal_annul(request: HttpRequest, pk: int) -> HttpResponse:
    """Annul a recorded deal, with a reason."""
    deal, party = record_to_correct(request.user, Deal, pk, "recorded_by_id")
    return _perform(request, party, AnnulDealInput, deal, action="correct")


@require_POST
def penalty_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """Cancel a warning or fine given by mistake, with a reason."""
    penalty, party = record_to_correct(request.user, Penalty, pk, "created_by_id")
    return _perform(request, party, CancelPenaltyInput, penalty, action="correct")


@require_POST
def move_advice(request: HttpRequest, pk: int) -> HttpResponse:
    """The move-time helper's answer (a fragment)."""
    party = access.party_for_referee(request.user, pk, full=False)
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
    context["names"] = who_names(party)
    context["version"] = party.version
    context["confirm"] = desk_steps.advice_texts(party, context["seat"])
    return render(request, "referee/_advice.html", context)


@require_POST
def ends_count(request: HttpRequest, pk: int) -> HttpResponse:
    """All Fives: the open ends the referee tapped, their sum and the play's score (a fragment)."""
    access.party_for_referee(request.user, pk, full=False)
    ends: list[object] = []
    for n in range(1, MAX_OPEN_ENDS + 1):
        value = request.POST.get(f"end_{n}", "")
        if value.isdigit():
            ends.append((int(value), int(value)) if request.POST.get(f"double_{n}") else int(value))
    context: dict[str, Any] = {}
    try:
        context["count"] = count_open_ends(ends)
    except RuleError as err:
        context["error"] = translate_engine_error(err).message
    return render(request, "referee/_ends_count.html", context)


@require_POST
def tiles_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The sums of the tiles picked in the deal form, and the deal's winner (a fragment)."""
    party = access.party_for_referee(request.user, pk, full=False)
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
    tournament = access.tournament_for_referee(request.user, slug=slug)
    activate_tournament_zone(tournament)
    data = round_overview(request.user, tournament, number_parameter(request.GET, "round"))
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
