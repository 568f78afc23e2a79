"""The calendar page, the iCalendar feeds and the organizer's timetable page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from scoring.core.errors import ServiceError
from scoring.models import Round, TimetableItem
from tournaments.pages import show_refusal, tournament_for
from tournaments.schedule import services
from tournaments.schedule.calendar import (
    CalendarFilterForm,
    calendar_rows,
    page_rows,
    sections,
)
from tournaments.schedule.forms import RoundStartForm, TimetableItemForm
from tournaments.schedule.ical import calendar_feed, timetable_feed
from tournaments.timetable import timetable

ICAL_TYPE = "text/calendar; charset=utf-8"


def _site(request: HttpRequest) -> str:
    """The site's address as the visitor reached it (the feeds' links)."""
    return f"{request.scheme}://{request.get_host()}"


def calendar_page(request: HttpRequest) -> HttpResponse:
    """The public calendar: upcoming, running and finished tournaments, filtered by GET."""
    form = CalendarFilterForm(request.GET or None)
    chosen = form.chosen() if request.GET else {}
    rows = page_rows(chosen)
    query = request.GET.urlencode()
    return render(request, "schedule/calendar.html", {
        "form": form, "sections": sections(rows, chosen.get("when", "")),
        "count": len(rows), "ics_query": f"?{query}" if query else "",
    })


def calendar_ics(request: HttpRequest) -> HttpResponse:
    """The calendar as an iCalendar feed, with the page's filters."""
    chosen = CalendarFilterForm(request.GET or None).chosen() if request.GET else {}
    body = calendar_feed(calendar_rows(chosen), _site(request), _("Domino tournaments"))
    return HttpResponse(body, content_type=ICAL_TYPE)


def timetable_ics(request: HttpRequest, slug: str) -> HttpResponse:
    """One tournament's rounds and timetable items as an iCalendar feed (its time zone)."""
    tournament = tournament_for(request, slug)
    body = timetable_feed(tournament, timetable(tournament), _site(request))
    response = HttpResponse(body, content_type=ICAL_TYPE)
    response["Content-Disposition"] = f'inline; filename="{tournament.pk}-timetable.ics"'
    return response


@login_required
def timetable_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """The organizer's timetable: each round's planned start (moving the later ones if asked)
    and the items (the hall's opening, breaks, the prize-giving…); POST adds an item."""
    tournament = tournament_for(request, slug, manage=True)
    form = TimetableItemForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.create_item(tournament, actor=request.user, **form.cleaned_data)
        except ServiceError as err:
            show_refusal(form, err)
        else:
            messages.success(request, _("Added to the timetable."))
            return redirect("tournaments:timetable", tournament.slug)
    rounds = list(tournament.rounds.order_by("number"))
    items = list(tournament.timetable_items.all())
    return render(request, "schedule/timetable_edit.html", {
        "tournament": tournament, "form": form, "items": items,
        "lines": timetable(tournament, rounds, items),
        "round_forms": [(rnd, RoundStartForm(prefix=f"r{rnd.number}", initial={
            "starts_at": rnd.scheduled_start})) for rnd in rounds],
    })


@login_required
@require_POST
def round_start(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Set a round's planned start; ticked, the later rounds and items move by as much."""
    tournament = tournament_for(request, slug, manage=True)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    form = RoundStartForm(request.POST, prefix=f"r{number}")
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errs in form.errors.values() for e in errs))
        return redirect("tournaments:timetable", tournament.slug)
    try:
        shift = services.move_round_start(
            rnd.pk, form.cleaned_data["starts_at"],
            shift_later=form.cleaned_data["shift_later"], actor=request.user)
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        moved = len(shift.rounds) + len(shift.items)
        text = _("The start of %(round)s is saved.") % {"round": rnd}
        if shift.delta:
            text += " " + ngettext("%(count)d later entry moved with it.",
                                   "%(count)d later entries moved with it.", moved) % {
                "count": moved}
        messages.success(request, text)
    return redirect("tournaments:timetable", tournament.slug)


@login_required
def item_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Change one item of the timetable."""
    tournament = tournament_for(request, slug, manage=True)
    item = get_object_or_404(TimetableItem, pk=pk, tournament=tournament)
    form = TimetableItemForm(request.POST or None, instance=item)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_item(item.pk, actor=request.user, **form.cleaned_data)
        except ServiceError as err:
            show_refusal(form, err)
        else:
            messages.success(request, _("The timetable is saved."))
            return redirect("tournaments:timetable", tournament.slug)
    return render(request, "schedule/item_edit.html",
                  {"tournament": tournament, "form": form, "item": item})


@login_required
@require_POST
def item_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Remove one item of the timetable."""
    tournament = tournament_for(request, slug, manage=True)
    item = get_object_or_404(TimetableItem, pk=pk, tournament=tournament)
    services.delete_item(item.pk, actor=request.user)
    messages.success(request, _("Removed from the timetable."))
    return redirect("tournaments:timetable", tournament.slug)
