"""The table map of the current round (a QR code per table) and what a table's code opens."""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from scoring.core.web import vary_on_htmx
from scoring.models import Deal, Pair, Party, Penalty, Round, Tournament
from scoring.rules import Layout, Totals
from scoring.signoff.content import game_winners, tournament_layout
from scoring.totals.compute import compute_party_totals
from scoring.totals.stored import deal_and_fine_rows
from tournaments.pages import LIVE, url_root
from tournaments.public.common import current_round, public_tournament, seats_of
from tournaments.public.load import PublicRequest, public_load
from tournaments.public.team_rows import round_matches
from tournaments.qr import absolute, qr_svgs
from tournaments.rounds.team_draws import is_team_event

# -- the draw as a table map -------------------------------------------------------------

MAP_FIELDS = (
    "pk", "table_id", "table__number", "table__label", "status", "winner", "end_reason", "game",
    "started_at", "paused_at", "paused_seconds", "finished_at",
    "pair_a__name", "pair_a__player1__name", "pair_a__player2__name",
    "pair_b_id", "pair_b__name", "pair_b__player1__name", "pair_b__player2__name",
    "team_match_id", "board", "half",
)


def _side(row: dict[str, Any], side: str) -> tuple[str, str]:
    """A side's name, and its players' names when the pair has a name of its own."""
    name, first, second = (row[f"pair_{side}__{f}"] for f in ("name", "player1__name",
                                                                "player2__name"))
    players = Pair.label("", first, second) if name else ""
    return Pair.label(name, first, second), players


def score_text(layout: Layout, totals: Totals, *, finished: bool) -> str:
    """A party's score in one line, as its rule set counts it.

    Two sides: ``120 : 85``. A match of games: the games won (and, while it is played, the
    score of the game in play). Every player for himself: the players' points, side A's
    players then side B's (``0 / 95 : 105 / 15``, in the order their names are shown).
    """
    games = game_winners(totals)
    if layout.games and games:
        wins = {side: sum(1 for _n, _p, won in games if won == side) for side in "ab"}
        if finished:
            return gettext("%(a)s : %(b)s in games") % wins
        number, points, _won = games[-1]  # the game in play
        return gettext("%(won_a)s : %(won_b)s in games, %(a)s : %(b)s in game %(game)s") % {
            "won_a": wins["a"], "won_b": wins["b"], "a": points.get("a", 0),
            "b": points.get("b", 0), "game": number}
    if layout.per_seat:
        return " : ".join(
            " / ".join(str(totals.points.get(seat, 0)) for seat in seats_of(totals, side))
            for side in "ab")
    return f"{totals.points.get('a', 0)} : {totals.points.get('b', 0)}"


def map_tables(tournament: Tournament, rnd: Round) -> list[dict[str, Any]]:
    """The round's parties as plain rows (byes last), with the score of each started one.

    Three queries and no model instances: the table map of a big field stays fast. Scores
    come from the one totals function, from the deals and fines of the round.
    """
    rows = list(
        Party.objects.filter(round=rnd).order_by("table__number", "half", "pk")
        .values(*MAP_FIELDS)
    )
    deals, fines = deal_and_fine_rows(
        Deal.objects.filter(party__round=rnd), Penalty.objects.filter(party__round=rnd)
    )
    cfg = tournament.regulations.rules_config()
    layout = tournament_layout(tournament)
    labels = dict(Party.Status.choices)
    party_root = url_root("tournaments:party")
    for row in rows:
        pk = row["pk"]
        row["bye"] = row["pair_b_id"] is None
        row["a"], row["a_players"] = _side(row, "a")
        row["b"], row["b_players"] = _side(row, "b") if not row["bye"] else ("", "")
        row["status_label"] = labels[row["status"]]
        row["title"] = gettext("Table %(number)s") % {"number": row["table__number"]}
        row["url"] = f"{party_root}{pk}/"
        row["score"] = ""
        if row["status"] != Party.Status.SCHEDULED and not row["bye"]:
            totals = compute_party_totals(
                tournament.rule_set, cfg, deals.get(pk, ()), fines.get(pk, ()),
                end_reason=row["end_reason"], winner=row["winner"], game=row["game"],
            )
            row["score"] = score_text(
                layout, totals, finished=row["status"] == Party.Status.FINISHED)
    rows.sort(key=lambda row: row["bye"])
    return rows


def _with_table_qr(tournament: Tournament, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each table's row with its stable address and that address's QR code.

    The address names the table, not the party, so a printed code stays right every round.
    """
    root = absolute(url_root("tournaments:table", tournament.slug))
    for row in rows:
        row["table_url"] = f"{root}{row['table__number']}/" if row["table_id"] else ""
    svgs = qr_svgs(row["table_url"] for row in rows if row["table_url"])
    for row in rows:
        row["qr"] = svgs.get(row["table_url"])
    return rows


def draw_state(rnd: Round | None, rows: list[dict[str, Any]]) -> str:
    """What a table map must reload for when it changes: the round, its status, its tables."""
    if rnd is None:
        return "none"
    tables = ",".join(f"{row['pk']}@{row['table_id']}" for row in rows)
    digest = hashlib.sha256(tables.encode()).hexdigest()[:16]
    return f"{rnd.pk}-{rnd.status}-{digest}"


def _poll_seconds(tournament: Tournament, rnd: Round | None) -> int | None:
    """How often the table map asks for news: often while playing, less between rounds."""
    if rnd is not None and rnd.status in LIVE:
        return 10
    if tournament.status == Tournament.Status.RUNNING:
        return 30
    return None


def draw_map(request: PublicRequest, slug: str) -> HttpResponse:
    """The current round's draw as a table map: table number → pairs, with a QR per table.

    While the round is played the page polls: the answer carries only the scores and states
    of the tables (htmx out-of-band swaps); a new round, or a round's new status, reloads it.
    """
    load = public_load(request, slug, "draw")
    tournament = load.tournament
    rnd = current_round(tournament, load.rounds)
    rows = map_tables(tournament, rnd) if rnd is not None else []
    state = draw_state(rnd, rows)
    matches = round_matches(tournament, rnd, rows) if rnd is not None and is_team_event(
        tournament) else []
    if request.htmx and "seen" in request.GET:
        if request.GET["seen"] != state:
            response = HttpResponse(status=204)
            response["HX-Refresh"] = "true"
            return vary_on_htmx(response)
        return vary_on_htmx(render(request, "public/_draw_live.html",
                                   {"rows": rows, "matches": matches}))
    return vary_on_htmx(render(request, "public/draw.html", {
        "tournament": tournament,
        "round": rnd,
        "rows": _with_table_qr(tournament, rows),
        "matches": matches,
        "state": state,
        "poll": _poll_seconds(tournament, rnd),
    }))


def table_party(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """What a table's QR code opens: the party at that table in the current round."""
    tournament = public_tournament(request, slug, "draw")
    rnd = current_round(tournament)
    party = None
    if rnd is not None:  # a team match's table: the half in play, else the last one
        at_table = Party.objects.filter(round=rnd, table__number=number).only("pk")
        party = (at_table.exclude(status=Party.Status.FINISHED).order_by("half").first()
                 or at_table.order_by("-half").first())
    if party is None:
        return redirect("tournaments:current_draw", slug=slug)
    return redirect(party)
