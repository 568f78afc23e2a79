"""The party page: its deals with running totals, fines and the clock; referees and organizers
record deals, start the clock, record a no-show and correct deals there."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch, prefetch_related_objects
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
from scoring.models import PARTY_RELATED, Deal, Party, Penalty
from scoring.party.done import done_of
from scoring.party.match_format import match_format_text
from scoring.totals.compute import next_deal_number, party_totals


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


def _deal_form(
    party: Party, deals: list[Deal], next_number: int, post: Any = None
) -> dict[str, Any]:
    """The party page's new-deal form: the desk's fields for the rule set (``deal_entry``,
    of the party's ``deals``), filled in again with what was posted when it was refused."""
    rule_set, cfg = referee_state.rules_of(party)
    entry = deal_entry(party, rule_set, cfg, deals=deals)
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
    from scoring.signoff.sheet import party_sheet  # the protocol's own lines, per rule set

    prefetch_related_objects([party], "deals", Prefetch(
        "penalties", queryset=Penalty.objects.select_related("player")))
    deals, penalties = list(party.deals.all()), list(party.penalties.all())
    totals = party_totals(party, (deals, penalties))
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
        "deal_form": _deal_form(party, deals, next_number, post) if can_ref else None,
        "correctable": permissions.correctable(request.user, party, deals) if can_ref else set(),
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
    done, errors, code = referee_views.run_page_form(request.POST, party, request.user, DealInput)
    if not errors:
        number = done_of(done).record.number
        messages.success(request, _("Deal %(number)s recorded.") % {"number": number})
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
