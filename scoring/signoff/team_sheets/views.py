"""Pages of a team match sheet: the captains' signing page (the referee's device or a
captain's own phone), the referee's countersignature, the PDF and a round's signed sheets."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.access import permissions
from scoring.core.errors import ServiceError
from scoring.core.timezones import activate_tournament_zone
from scoring.models import Round, TeamMatch
from scoring.people import lockouts
from scoring.signoff.pins import players_without_pin
from scoring.signoff.team_sheets import services
from scoring.signoff.team_sheets.content import build_sheet_content
from scoring.signoff.views import pdf_response


def visible_team_match(request: HttpRequest, slug: str, pk: int) -> TeamMatch:
    """A team match of the tournament ``slug`` that the visitor may see (404 otherwise)."""
    team_match = get_object_or_404(services.team_match_queryset(), pk=pk,
                                   round__tournament__slug=slug)
    if not permissions.can_view(request.user, team_match.round.tournament):
        raise Http404
    activate_tournament_zone(team_match.round.tournament)
    return team_match


def sheet_context(request: HttpRequest, state: services.SheetState) -> dict[str, Any]:
    """What the signing page shows this visitor: each team's line, who may sign it and how."""
    user = request.user
    can_run = services.may_run_sheet(user, state)
    undecided = services.undecided_reason(state)
    waiting = not undecided and not state.signed
    rows = []
    for key, team in (("a", state.team_match.team_a), ("b", state.team_match.team_b)):
        if team is None:
            continue
        signers = services.signers_of(state, team)
        own = [p for p in signers if getattr(user, "is_authenticated", False)
               and p.user_id == user.pk]
        rows.append({"key": key.upper(), "team": team, "signers": signers, "own": own,
                     "signature": state.signature_of(team),
                     "no_pin": players_without_pin(signers) if waiting and can_run else []})
    return {
        "team_match": state.team_match,
        "tournament": state.team_match.round.tournament,
        "state": state,
        "result": state.result,
        "undecided": undecided,
        "boards": [] if undecided else build_sheet_content(
            state.team_match, state.result, state.parties, state.sheet).boards,
        "rows": rows,
        "waiting": waiting,
        "can_run": can_run,
        "can_countersign": waiting and can_run and all(row["signature"] for row in rows),
        "countersignature": state.countersignature,
    }


def team_sheet(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The sheet's page: the boards, the team score, the signatures and the actions."""
    state = services.sheet_state(visible_team_match(request, slug, pk))
    return render(request, "scoring/team_sheet.html", sheet_context(request, state))


def _after(request: HttpRequest, team_match: TeamMatch, action: Any, done: str,
           **kwargs: Any) -> HttpResponse:
    """Run a sign-off service and come back to the sheet's page with its outcome."""
    try:
        action(team_match.pk, actor=request.user, **kwargs)
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, done)
    return redirect("scoring:team_sheet", slug=team_match.round.tournament.slug, pk=team_match.pk)


@require_POST
@login_required
def team_sheet_sign(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A captain signs: with his PIN on the referee's device, or on his own login."""
    team_match = visible_team_match(request, slug, pk)
    return _after(request, team_match, services.sign_as_captain, _("Signed."),
                  team_id=request.POST.get("team", ""), player_id=request.POST.get("player", ""),
                  pin=request.POST.get("pin", "").strip(),
                  address=lockouts.client_address(request))


@require_POST
@login_required
def team_sheet_countersign(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The referee countersigns the sheet last: it is signed and kept for good."""
    team_match = visible_team_match(request, slug, pk)
    return _after(request, team_match, services.countersign_sheet,
                  _("The team match sheet is signed."))


def team_sheet_pdf(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The sheet's PDF: the signed file, else a draft; before the match is decided, the page
    says why there is none yet (409)."""
    state = services.sheet_state(visible_team_match(request, slug, pk))
    try:
        return pdf_response(*services.sheet_download(state))
    except ServiceError:
        return render(request, "scoring/team_sheet.html", sheet_context(request, state),
                      status=409)


@login_required
def round_team_sheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's signed team match sheets in one signed PDF (referees and organizers)."""
    rnd = get_object_or_404(Round.objects.select_related("tournament"), number=number,
                            tournament__slug=slug)
    if not permissions.can_view(request.user, rnd.tournament):
        raise Http404
    if not permissions.can_print_round(request.user, rnd.tournament):
        raise PermissionDenied
    try:
        pdf, _left_out = services.round_sheets_pdf(rnd)
    except ServiceError as err:
        messages.error(request, err.message)
        return redirect("tournaments:round", slug=slug, number=number)
    return pdf_response(pdf, f"round-{number}-team-sheets.pdf")
