"""The organizer's check-in page: open a window before a round, tick entrants off (filtered
by name), close the window; the door's QR code and the entrants' cards to print."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring.core.errors import ServiceError
from scoring.models import CheckIn, CheckInWindow, Tournament
from tournaments.checkin import services
from tournaments.checkin.tokens import door_token, entrant_token
from tournaments.pages import show_refusal, tournament_for
from tournaments.qr import absolute, qr_svgs

LOCAL = "%Y-%m-%dT%H:%M"


class WindowForm(forms.Form):
    """A new window: its round and times (in the tournament's time zone)."""

    round_number = forms.IntegerField(label=gettext_lazy("Before round"), min_value=1,
                                      initial=1)
    opens_at = forms.DateTimeField(
        label=gettext_lazy("Opens at"), input_formats=[LOCAL],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL))
    closes_at = forms.DateTimeField(
        label=gettext_lazy("Closes at"), input_formats=[LOCAL],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL))


def _initial(tournament: Tournament) -> dict[str, Any]:
    """A new window's defaults: the next round without one, open now for half an hour."""
    now = timezone.localtime().replace(second=0, microsecond=0)
    taken = set(tournament.checkin_windows.values_list("round_number", flat=True))
    number = 1 + tournament.rounds.count()
    while number in taken:
        number += 1
    return {"round_number": number, "opens_at": now, "closes_at": now + timedelta(minutes=30)}


def entrant_rows(window: CheckInWindow, query: str = "") -> list[dict[str, Any]]:
    """The window's entrants (those whose name holds ``query``), each with its check-in."""
    done = {c.entrant_id: c for c in CheckIn.objects.filter(window=window)}
    rows = []
    for entrant in services.entrants(window.tournament):
        name = str(entrant)
        players = getattr(entrant, "players_label", "")
        if query and query.casefold() not in f"{name} {players}".casefold():
            continue
        rows.append({"entrant": entrant, "name": name,
                     "players": players if players != name else "",
                     "checkin": done.get(entrant.pk)})
    return rows


def _window(tournament: Tournament, pk: int) -> CheckInWindow:
    """One of the tournament's windows (404 otherwise)."""
    return get_object_or_404(CheckInWindow, pk=pk, tournament=tournament)


@login_required
def checkin_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The windows, and the chosen one's entrants to tick off; POST opens a window."""
    tournament = tournament_for(request, slug, manage=True)
    form = WindowForm(request.POST or None, initial=_initial(tournament))
    if request.method == "POST" and form.is_valid():
        try:
            window = services.open_window(tournament, actor=request.user, **form.cleaned_data)
        except ServiceError as err:
            show_refusal(form, err)
        else:
            messages.success(request, _("Check-in window before round %(number)s opened.")
                             % {"number": window.round_number})
            return redirect(f"{reverse('tournaments:checkin', args=[slug])}?window={window.pk}")
    windows = list(tournament.checkin_windows.order_by("round_number"))
    chosen = request.GET.get("window", "")
    shown: CheckInWindow | None = next((w for w in windows if str(w.pk) == chosen), None)
    shown = shown or next((w for w in windows if not w.closed),
                          windows[-1] if windows else None)
    query = request.GET.get("q", "").strip()[:100]
    rows = entrant_rows(shown, query) if shown is not None else []
    return render(request, "checkin/manage.html", {
        "tournament": tournament, "form": form, "windows": windows, "window": shown,
        "rows": rows, "query": query,
        "checked": sum(1 for row in rows if row["checkin"]) if not query else None,
        "pairs": not services.by_players(tournament),
    })


def _back(slug: str, window: CheckInWindow, request: HttpRequest, anchor: str = "") -> str:
    """The page of the window again, with the filter it was posted from."""
    query: dict[str, Any] = {"window": window.pk}
    if request.POST.get("q", "").strip():
        query["q"] = request.POST["q"].strip()
    return f"{reverse('tournaments:checkin', args=[slug])}?{urlencode(query)}{anchor}"


@login_required
@require_POST
def window_close(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Close a window now: the draw of its round seats only those checked in."""
    tournament = tournament_for(request, slug, manage=True)
    done = services.close_window(_window(tournament, pk).pk, actor=request.user)
    messages.success(request, _("Check-in closed: %(checked)s of %(entrants)s checked in.")
                     % {"checked": done.checked_in, "entrants": done.entrants})
    return redirect(_back(slug, done.window, request))


@login_required
@require_POST
def window_tick(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Tick an entrant off (``entrant``), or take a tick back (``undo``: the check-in)."""
    tournament = tournament_for(request, slug, manage=True)
    window = _window(tournament, pk)
    raw = request.POST.get("undo") or request.POST.get("entrant", "")
    if not raw.isdigit():
        raise Http404
    try:
        if request.POST.get("undo"):
            found = get_object_or_404(CheckIn, pk=int(raw), window=window)
            services.undo_check_in(found.pk, actor=request.user)
            anchor = f"#entrant-{found.entrant_id}"
        else:
            entrant = get_object_or_404(services.entrants(tournament), pk=int(raw))
            services.check_in(window.pk, entrant, how=CheckIn.How.ORGANIZER, by=request.user)
            anchor = f"#entrant-{entrant.pk}"
    except ServiceError as err:
        messages.error(request, err.message)
        anchor = ""
    return redirect(_back(slug, window, request, anchor))


@login_required
def window_qr(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The door's QR code of a window, and one card per entrant, to print or show."""
    tournament = tournament_for(request, slug, manage=True)
    window = _window(tournament, pk)
    door = absolute(reverse("tournaments:checkin_scan", args=[slug, door_token(window)]))
    cards = [(entrant, absolute(reverse("tournaments:checkin_scan",
                                        args=[slug, entrant_token(window, entrant.pk)])))
             for entrant in services.entrants(tournament)]
    svgs = qr_svgs([door, *(url for _e, url in cards)])
    response = render(request, "checkin/qr.html", {
        "tournament": tournament, "window": window, "door": door, "door_qr": svgs[door],
        "cards": [(entrant, svgs[url]) for entrant, url in cards],
    })
    response.headers["Cache-Control"] = "private, no-store"
    return response
