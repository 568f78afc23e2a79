"""Pages of rounds: the list, a round's draw with its results, the organizer's round flow.

A round's page refreshes itself with htmx while the round is live, with a constant number of
queries whatever the field's size (the standings page is ``tournaments.public.standings``).
The organizer drives a round from its page: generate → preview with warnings → edit or swap
tables → publish → start the parties → close.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from scoring.access import permissions
from scoring.core.web import page_or_fragment
from scoring.models import Party, PrintJob, Round
from scoring.signoff.printing import unsigned_parties
from scoring.totals.compute import party_totals, prefetched_rows
from tournaments.pages import LIVE, PARTY_PLAYERS, run_service, tournament_for
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds
from tournaments.rounds.draws import DrawField, is_individual, load_field
from tournaments.rounds.forms import DrawEditForm, GenerateDrawForm, SwapTablesForm


def _round_for(request: HttpRequest, slug: str, number: int, manage: bool = False) -> Round:
    """A round the visitor may see (a draft only for organizers); 404 otherwise."""
    tournament = tournament_for(request, slug, manage=manage)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    rnd.tournament = tournament
    if not permissions.can_see_round(request.user, rnd):
        raise Http404
    return rnd


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
    return page_or_fragment(
        request, "tournaments/round.html", "tournaments/_round_draw.html", context
    )


@require_POST
@login_required
def round_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Create the next round as a draft and go to its page."""
    tournament = tournament_for(request, slug, manage=True)
    rnd = run_service(request, rounds.create_round, tournament.pk)
    if rnd is None:
        return redirect("tournaments:rounds", slug=slug)
    messages.success(
        request, _("Round %(number)s created: generate its draw.") % {"number": rnd.number}
    )
    return redirect(rnd.get_absolute_url())


@require_POST
@login_required
def tournament_status(request: HttpRequest, slug: str, change: str) -> HttpResponse:
    """Finish the tournament (its last round closed) or reopen it, from the rounds page."""
    tournament = tournament_for(request, slug, manage=True)
    if change == "finish":
        run_service(request, rounds.finish_tournament, tournament.pk,
                    success=_("The tournament is finished: it takes no new round or deal."))
    elif change == "reopen":
        run_service(request, rounds.reopen_tournament, tournament.pk,
                    success=_("The tournament is running again."))
    else:
        raise Http404
    return redirect("tournaments:rounds", slug=slug)


@require_POST
@login_required
def round_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    """Generate, publish, start, close or delete a round, or swap two of its tables."""
    rnd = _round_for(request, slug, number, manage=True)
    back = redirect(rnd.get_absolute_url())
    if action == "generate":
        form = GenerateDrawForm(request.POST)
        seed = form.cleaned_data.get("seed") if form.is_valid() else None
        run_service(request, draw_services.generate_draw, rnd.pk, seed=seed,
             success=_("The draw was generated. Check it, then publish it."))
    elif action == "swap":
        tables = list(rnd.tournament.tables.values_list("number", flat=True))
        swap_form = SwapTablesForm(request.POST, tables=tables)
        if swap_form.is_valid():
            run_service(request, draw_services.swap_tables, rnd.pk, swap_form.cleaned_data["first"],
                 swap_form.cleaned_data["second"], success=_("The tables were swapped."))
        else:
            messages.error(request, _("Choose two tables."))
    elif action == "publish":
        run_service(request, rounds.publish_round, rnd.pk, success=_("The draw is published."))
    elif action == "start":
        count = run_service(request, rounds.start_round, rnd.pk)
        if count is not None:
            messages.success(
                request,
                ngettext("%(count)d party started.", "%(count)d parties started.", count)
                % {"count": count},
            )
    elif action == "close":
        return _close(request, rnd)
    elif action == "delete":
        if run_service(request, rounds.delete_round, rnd.pk, success=_("The round was deleted.")):
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
    run_service(request, rounds.close_round, rnd.pk, success=done)
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
        done = run_service(
            request,
            draw_services.edit_draw,
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


