"""The player's ways in: "I'm here" in his area (logged in or by his personal link), and the
check-in QR codes (the door's, scanned logged in; an entrant's card) with their page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.core.errors import ServiceError
from scoring.core.timezones import activate_tournament_zone
from scoring.models import CheckIn, Pair, Player, Tournament
from tournaments.checkin import services
from tournaments.checkin.tokens import TokenRefused, read_token
from tournaments.pages import tournament_for


def area_state(tournament: Tournament, player: Player) -> dict[str, Any] | None:
    """What the player's area shows of check-in: the open window, his entrant, his check-in
    (None when no window is open or he is not an entrant that draws)."""
    window = services.current_window(tournament)
    entrant = services.own_entrant(tournament, player)
    if window is None or entrant is None or not entrant.available:
        return None
    return {"window": window, "entrant": entrant, "done": services.checkin_of(window, entrant)}


def _record(request: HttpRequest, window_id: int, entrant: Pair | Player, how: str) -> None:
    """Check in and say so (or why not) in a message."""
    try:
        result = services.check_in(window_id, entrant, how=how, by=request.user)
    except ServiceError as err:
        messages.error(request, err.message)
        return
    if result.created:
        messages.success(request, _("%(name)s: checked in.") % {"name": entrant})
    else:
        messages.info(request, _("%(name)s was already checked in.") % {"name": entrant})


def _phone(request: HttpRequest, tournament: Tournament, player: Player | None) -> None:
    """Check the player's entrant in to the open window, from his phone."""
    state = area_state(tournament, player) if player is not None else None
    if state is None:
        messages.error(request, _("Check-in is not open."))
        return
    _record(request, state["window"].pk, state["entrant"], CheckIn.How.PHONE)


@require_POST
def checkin_me(request: HttpRequest, slug: str) -> HttpResponse:
    """"I'm here" from the logged-in player's area."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("tournaments:player_area", args=[slug]))
    tournament = tournament_for(request, slug)
    player = services.player_of(tournament, request.user)
    if player is None:
        raise Http404
    _phone(request, tournament, player)
    return redirect("tournaments:player_area", slug=slug)


@require_POST
def checkin_personal(request: HttpRequest, token: str) -> HttpResponse:
    """"I'm here" from the area opened by the player's personal link (the link is the key)."""
    player = (Player.objects.select_related("tournament").filter(access_token=token).first()
              if len(token) >= 20 else None)
    if player is None:
        raise Http404
    activate_tournament_zone(player.tournament)
    _phone(request, player.tournament, player)
    return redirect("tournaments:personal_area", token=token)


def _refused(request: HttpRequest, tournament: Tournament, message: str) -> HttpResponse:
    """The page of a code that cannot check anyone in (nothing recorded)."""
    return render(request, "checkin/refused.html",
                  {"tournament": tournament, "message": message}, status=400)


def scan(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """What a check-in QR code opens: who it checks in, and the button (POST records it).

    The door's code checks in the logged-in player's own entrant (a visitor logs in first);
    an entrant's card checks in that entrant.
    """
    tournament = tournament_for(request, slug)
    try:
        scanned = read_token(token, tournament)
    except TokenRefused as err:
        return _refused(request, tournament, err.message)
    window = scanned.window
    if scanned.entrant_id is not None:
        entrant = services.entrants(tournament).filter(pk=scanned.entrant_id).first()
        if entrant is None:
            return _refused(request, tournament, _("This entrant no longer takes part."))
    else:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        entrant = services.own_entrant(
            tournament, services.player_of(tournament, request.user))
        if entrant is None:
            return _refused(request, tournament, _("You do not play in this tournament: "
                                                   "log in with your player's account."))
    if request.method == "POST":
        _record(request, window.pk, entrant, CheckIn.How.QR)
        return redirect(request.path)
    return render(request, "checkin/scan.html", {
        "tournament": tournament, "window": window, "entrant": entrant,
        "done": services.checkin_of(window, entrant),
        "open": window.is_open(),
    })
