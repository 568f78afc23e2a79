"""Pages of rounds and standings: the public draw and standings, the organizer's round flow.

Public pages (a round's draw with its results, the standings) refresh themselves with htmx
while a round is live; each uses a constant number of queries whatever the field's size.
The organizer drives a round from its page: generate → preview with warnings → edit or swap
tables → publish → start the parties → close.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats
from django.utils.html import format_html, format_html_join
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from scoring.access import permissions
from scoring.core.errors import ServiceError
from scoring.core.web import page_or_fragment
from scoring.models import Pair, Party, Player, PrintJob, Round, Tournament
from scoring.ranking.results import StandingsTable, standings_table
from scoring.signoff.printing import unsigned_parties
from scoring.totals.compute import party_totals, prefetched_rows
from tournaments.public.load import public_load
from tournaments.rounds import services as rounds
from tournaments.rounds.draws import DrawField, is_individual, load_field
from tournaments.setup.forms import DrawEditForm, GenerateDrawForm, SwapTablesForm
from tournaments.setup.services import withdraw_pair, withdraw_player
from tournaments.setup.views import _tournament_for

LIVE = (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS)
PARTY_PLAYERS = (
    "table",
    "pair_a__player1",
    "pair_a__player2",
    "pair_b__player1",
    "pair_b__player2",
)


def _round_for(request: HttpRequest, slug: str, number: int, manage: bool = False) -> Round:
    """A round the visitor may see (a draft only for organizers); 404 otherwise."""
    tournament = _tournament_for(request, slug, manage=manage)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    rnd.tournament = tournament
    if not permissions.can_see_round(request.user, rnd):
        raise Http404
    return rnd


def _render(
    request: HttpRequest, template: str, partial: str, context: dict[str, Any]
) -> HttpResponse:
    """The whole page, or only its self-refreshing part for an htmx request."""
    return page_or_fragment(request, template, partial, context)


def round_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Every round of a tournament; organizers create the next one here."""
    tournament = _tournament_for(request, slug)
    if not permissions.can_see_public_page(request.user, tournament, "results"):
        raise Http404
    can_manage = permissions.can_manage(request.user, tournament)
    rounds_qs = tournament.rounds.order_by("number")
    if not can_manage:
        rounds_qs = rounds_qs.exclude(status=Round.Status.DRAFT)
    return render(
        request,
        "tournaments/rounds.html",
        {"tournament": tournament, "rounds": rounds_qs, "can_manage": can_manage},
    )


def draw_rows(rnd: Round) -> list[dict[str, Any]]:
    """The round's parties by table (byes last) with their totals (three queries)."""
    parties = list(
        Party.objects.filter(round=rnd)
        .select_related(*PARTY_PLAYERS)
        .prefetch_related("deals", "penalties")
        .order_by("table__number", "id")
    )
    parties.sort(key=lambda party: party.is_bye)
    rows = []
    for party in parties:
        party.round = rnd
        started = party.status != Party.Status.SCHEDULED and not party.is_bye
        totals = party_totals(party, prefetched_rows(party)) if started else None
        rows.append({"party": party, "totals": totals})
    return rows


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's draw and results; for organizers also the round's controls."""
    rnd = _round_for(request, slug, number)
    tournament = rnd.tournament
    if not permissions.can_see_public_page(request.user, tournament, "results"):
        raise Http404
    can_manage = permissions.can_manage(request.user, tournament)
    context: dict[str, Any] = {
        "tournament": tournament,
        "round": rnd,
        "rows": draw_rows(rnd),
        "live": rnd.status in LIVE,
        "can_manage": can_manage,
        "Status": Round.Status,
    }
    if can_manage and rnd.status != Round.Status.FINISHED:
        tables = list(tournament.tables.order_by("number").values_list("number", flat=True))
        context["generate_form"] = GenerateDrawForm(initial={"seed": rnd.seed})
        context["swap_form"] = SwapTablesForm(tables=tables)
        if request.GET.get("close") and rnd.status in LIVE:
            context["unsigned"] = unsigned_parties(rnd)
    if permissions.can_print_round(request.user, tournament) and context["rows"]:
        context["can_print"] = True
        context["print_job"] = rnd.print_jobs.first()
        context["Kind"] = PrintJob.Kind
    return _render(request, "tournaments/round.html", "tournaments/_round_draw.html", context)


def url_root(name: str, *args: Any) -> str:
    """The address of ``name`` without its last (id) argument, to append ids to.

    One ``reverse`` for a whole list instead of one per line (hundreds on a big field).
    """
    path = reverse(name, args=[*args, 0])
    if not path.endswith("/0/"):
        raise ValueError(f"{name} does not end with an id")
    return path[:-2]


def _cell_text(value: Any) -> str:
    """A metric as the page shows it (integers as they are, fractions localized)."""
    return str(value) if isinstance(value, int) else formats.localize(value)


def _pair_players(pair: Pair, profiles: str) -> str:
    """A pair's players' names, each linked to his record where he has a profile."""
    members = [pair.player1] + ([pair.player2] if pair.player2 is not None else [])
    if not any(member.profile_id for member in members):
        return Pair.label("", pair.player1.name, members[1].name if len(members) > 1 else None)
    return format_html_join(" / ", "{}", (
        (format_html('<a href="{}{}/">{}</a>', profiles, m.profile_id, m.name)
         if m.profile_id else m.name,) for m in members
    ))


def standings_lines(
    tournament: Tournament, table: StandingsTable, links: bool
) -> list[dict[str, Any]]:
    """The standings' lines ready to print, values already formatted into their cells.

    The template then looks up a handful of keys per line, so 500 lines stay fast.
    """
    kind = "tournaments:player" if table.per_player else "tournaments:pair"
    root = url_root(kind, tournament.slug) if links else ""
    profiles = url_root("tournaments:profile")
    lines = []
    for row, entrant, values in table.lines():
        if isinstance(entrant, Player):  # the standings per player
            name, players = entrant.name, ""
            profile_url = f"{profiles}{entrant.profile_id}/" if entrant.profile_id else ""
        else:
            name, players = entrant.display_name, _pair_players(entrant, profiles)
            profile_url = ""
        lines.append({
            "rank": f"{row.rank}=" if row.shared else str(row.rank),
            "name": name,
            "players": players if entrant.name or "href" in players else "",
            "profile_url": profile_url,
            "url": f"{root}{entrant.pk}/" if links else "",
            "withdrawn": entrant.withdrawn,
            "disqualified": entrant.disqualified,
            # numbers only (digits, a sign, a decimal mark): nothing to escape
            "cells": mark_safe("".join(f"<td>{_cell_text(v)}</td>" for v in values)),  # noqa: S308
        })
    return lines


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings after any round, per pair or per player (constant number of queries)."""
    load = public_load(request, slug, "standings")  # 404 when hidden
    tournament = load.tournament
    published = [(rnd.number, rnd.status) for rnd in load.published]
    numbers = [n for n, _status in published]
    try:
        after = int(request.GET["after"]) if request.GET.get("after") else None
    except ValueError:
        after = None
    if after not in numbers:
        after = None
    per_player = is_individual(tournament) or request.GET.get("by") == "player"
    table = standings_table(
        tournament, per_player=per_player, after_round=after, version=load.version
    )
    links = permissions.can_see_public_page(request.user, tournament, "entrants")
    context = {
        "tournament": tournament,
        "table": table,
        "lines": standings_lines(tournament, table, links),
        "numbers": numbers,
        "after": after,
        "by": "player" if per_player else "pair",
        "live": after is None and any(status in LIVE for _n, status in published),
        "individual": is_individual(tournament),
    }
    return _render(
        request, "tournaments/standings.html", "tournaments/_standings.html", context
    )


def _act(request: HttpRequest, action: Any, *args: Any, success: str = "", **kwargs: Any) -> Any:
    """Run a service for the organizer; show its error (or ``success``) as a message.

    Returns the service's result (``True`` for a service that returns nothing), or ``None``
    when it refused.
    """
    try:
        result = action(*args, actor=request.user, **kwargs)
    except ServiceError as err:
        messages.error(request, err.message)
        return None
    if success:
        messages.success(request, success)
    return True if result is None else result


@require_POST
@login_required
def round_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Create the next round as a draft and go to its page."""
    tournament = _tournament_for(request, slug, manage=True)
    rnd = _act(request, rounds.create_round, tournament.pk)
    if rnd is None:
        return redirect("tournaments:rounds", slug=slug)
    messages.success(
        request, _("Round %(number)s created: generate its draw.") % {"number": rnd.number}
    )
    return redirect(rnd.get_absolute_url())


@require_POST
@login_required
def round_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    """Generate, publish, start, close or delete a round, or swap two of its tables."""
    rnd = _round_for(request, slug, number, manage=True)
    back = redirect(rnd.get_absolute_url())
    if action == "generate":
        form = GenerateDrawForm(request.POST)
        seed = form.cleaned_data.get("seed") if form.is_valid() else None
        _act(request, rounds.generate_draw, rnd.pk, seed=seed,
             success=_("The draw was generated. Check it, then publish it."))
    elif action == "swap":
        tables = list(rnd.tournament.tables.values_list("number", flat=True))
        swap_form = SwapTablesForm(request.POST, tables=tables)
        if swap_form.is_valid():
            _act(request, rounds.swap_tables, rnd.pk, swap_form.cleaned_data["first"],
                 swap_form.cleaned_data["second"], success=_("The tables were swapped."))
        else:
            messages.error(request, _("Choose two tables."))
    elif action == "publish":
        _act(request, rounds.publish_round, rnd.pk, success=_("The draw is published."))
    elif action == "start":
        count = _act(request, rounds.start_round, rnd.pk)
        if count is not None:
            messages.success(
                request,
                ngettext("%(count)d party started.", "%(count)d parties started.", count)
                % {"count": count},
            )
    elif action == "close":
        return _close(request, rnd)
    elif action == "delete":
        if _act(request, rounds.delete_round, rnd.pk, success=_("The round was deleted.")):
            return redirect("tournaments:rounds", slug=slug)
    else:
        raise Http404
    return back


def _close(request: HttpRequest, rnd: Round) -> HttpResponse:
    """Close the round; with protocols still unsigned, first list them and ask to confirm."""
    unsigned = unsigned_parties(rnd)
    finished = all(party.status == Party.Status.FINISHED for party in unsigned)
    if unsigned and finished and request.POST.get("confirm") != "1":
        return redirect(f"{rnd.get_absolute_url()}?close=1#close")
    done = ngettext("The round is closed; %(count)d protocol is not signed yet.",
                    "The round is closed; %(count)d protocols are not signed yet.",
                    len(unsigned)) % {"count": len(unsigned)} if unsigned else _(
        "The round is closed: every protocol is signed.")
    _act(request, rounds.close_round, rnd.pk, success=done)
    return redirect(rnd.get_absolute_url())


def _entrant_choices(draw_field: DrawField) -> list[tuple[int, str]]:
    """(id, name) of the entrants of a draw, in standings order."""
    return [(e.id, draw_field.names[e.id]) for e in draw_field.entrants]


def _initial_draw(rnd: Round, individual: bool) -> tuple[dict[str, Any], int]:
    """The form's initial values from the round's current draw, and its row count."""
    initial: dict[str, Any] = {"byes": []}
    parties = Party.objects.filter(round=rnd).select_related("table", "pair_a", "pair_b")
    row = 0
    for party in parties.order_by("table__number"):
        if party.is_bye:
            initial["byes"].append(party.pair_a.player1_id if individual else party.pair_a_id)
            continue
        if party.table is None or party.pair_b is None:
            raise ValueError(f"Party {party.pk} of a draw has no table or no second side.")
        initial[f"table_{row}"] = party.table.number
        if individual:
            for side, pair in (("a", party.pair_a), ("b", party.pair_b)):
                initial[f"{side}1_{row}"] = pair.player1_id
                initial[f"{side}2_{row}"] = pair.player2_id
        else:
            initial[f"a_{row}"], initial[f"b_{row}"] = party.pair_a_id, party.pair_b_id
        row += 1
    return initial, row


@login_required
def draw_edit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Make or change a draft round's draw by hand; the engine checks it and warns."""
    rnd = _round_for(request, slug, number, manage=True)
    if rnd.status != Round.Status.DRAFT:
        messages.error(request, _("Only the draw of a draft round can be edited."))
        return redirect(rnd.get_absolute_url())
    tournament = rnd.tournament
    individual = is_individual(tournament)
    draw_field = load_field(tournament, rnd)
    tables = list(tournament.tables.order_by("number").values_list("number", flat=True))
    initial, used = _initial_draw(rnd, individual)
    per_table = 4 if individual else 2
    needed = -(-len(draw_field.entrants) // per_table)
    for row in range(used, needed):
        if row < len(tables):
            initial.setdefault(f"table_{row}", tables[row])
    form = DrawEditForm(
        request.POST or None,
        initial=initial,
        entrants=_entrant_choices(draw_field),
        tables=tables,
        rows=max(used, needed, 1),
        individual=individual,
    )
    if request.method == "POST" and form.is_valid():
        done = _act(
            request,
            rounds.edit_draw,
            rnd.pk,
            parties=form.cleaned_data["parties"],
            byes=form.cleaned_data["byes"],
            success=_("The draw was saved. Check the warnings, then publish it."),
        )
        if done is not None:
            return redirect(rnd.get_absolute_url())
    return render(
        request,
        "tournaments/draw_edit.html",
        {"tournament": tournament, "round": rnd, "form": form, "individual": individual},
        status=400 if request.method == "POST" else 200,
    )


@require_POST
@login_required
def entrant_withdraw(request: HttpRequest, slug: str, kind: str, pk: int) -> HttpResponse:
    """Withdraw a pair or player from later draws, or reinstate them."""
    tournament = _tournament_for(request, slug, manage=True)
    entrant: Pair | Player
    service: Callable[..., Pair | Player]
    if kind == "pairs":
        entrant = get_object_or_404(Pair, pk=pk, tournament=tournament)
        service = withdraw_pair
    elif kind == "players":
        entrant = get_object_or_404(Player, pk=pk, tournament=tournament)
        service = withdraw_player
    else:
        raise Http404
    withdrawn = request.POST.get("withdrawn", "1") == "1"
    done = _act(request, service, entrant.pk, withdrawn=withdrawn)
    if done is not None:
        text = _("%(name)s is withdrawn from later draws.") if withdrawn else _(
            "%(name)s takes part in the draws again."
        )
        name = entrant.display_name if isinstance(entrant, Pair) else entrant.name
        messages.success(request, text % {"name": name})
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}):
        target = tournament.get_absolute_url()
    return redirect(target)

