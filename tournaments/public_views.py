"""Public pages of a tournament: the table map, the results of every round, a pair's or
player's history with its standing round by round, and the hall screen for a projector.

No login is needed; the organizer switches each page off per tournament (404 then; the
people who run the tournament still see it). Pages refresh parts of themselves with htmx
while a round is played, carry no inline script or style (a strict CSP holds), and use a
number of queries that does not grow with the number of pairs.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import segno
from django.conf import settings
from django.core.cache import cache
from django.db.models import Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import permissions
from scoring.models import Deal, Pair, Party, Penalty, Player, Round, Tournament
from scoring.protocol_content import game_winners, party_games, tournament_layout
from scoring.results import (
    StandingsTable,
    deal_and_fine_rows,
    load_party_results,
    results_version,
    standings_table,
)
from scoring.rules import Totals
from scoring.standings import PartyResult, compute_standings
from scoring.totals import compute_party_totals, party_totals
from scoring.web import vary_on_htmx
from tournaments.draws import is_individual
from tournaments.round_views import LIVE, PARTY_PLAYERS, _render, url_root
from tournaments.views import _tournament_for

HALL_TABLES_PER_PAGE = 12
HALL_LINES_PER_PAGE = 12
HALL_STANDINGS_PAGES = 2
HALL_SECONDS = 15
CLOCK_FIELDS = ("started_at", "paused_at", "paused_seconds", "finished_at")
QR_CACHE_SECONDS = 30 * 24 * 3600
FIELD_CACHE_SECONDS = 600
NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10**9)

RESULT_LABELS = {
    "won": _("won"),
    "lost": _("lost"),
    "goat": _("the Goat"),
    "played": _("played"),
    "bye": _("bye"),
    "forfeit_won": _("won by forfeit"),
    "forfeit_lost": _("lost by forfeit"),
    "playing": _("playing"),
    "scheduled": _("not started"),
}


# -- loading -----------------------------------------------------------------------------


def public_tournament(request: HttpRequest, slug: str, page: str) -> Tournament:
    """A tournament whose ``page`` the visitor may see (404 when hidden or switched off)."""
    tournament = _tournament_for(request, slug)
    if not permissions.can_see_public_page(request.user, tournament, page):
        raise Http404
    return tournament


def current_round(tournament: Tournament) -> Round | None:
    """The latest published round (a draft is not the public's business)."""
    rnd = tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    if rnd is not None:
        rnd.tournament = tournament
    return rnd


def per_player_ranking(request: HttpRequest, tournament: Tournament) -> bool:
    """Rank players (individual events, or ``?by=player``) rather than pairs."""
    return is_individual(tournament) or request.GET.get("by") == "player"


def cached_for_field(
    tournament: Tournament, table: StandingsTable, what: str, compute: Callable[[], Any]
) -> Any:
    """``compute()``, cached for the whole field under the tournament's results version.

    The key also holds what the results are read with: the regulations, the ranked entrants
    and whether players or pairs are ranked (one query: the results version).
    """
    regulations = tournament.regulations
    depends_on = (
        tournament.created_at, regulations.rules_config(), regulations.standings_config(),
        table.per_player, list(table.entrants),
    )
    digest = hashlib.sha256(repr(depends_on).encode()).hexdigest()
    key = f"{what}:{tournament.pk}:{results_version(tournament)}:{digest}"
    found = cache.get(key)
    if found is None:
        found = compute()
        cache.set(key, found, FIELD_CACHE_SECONDS)
    return found


# -- QR codes of the tables --------------------------------------------------------------

_qr_memo: dict[str, str] = {}
QR_MEMO_MOST = 5000  # codes kept in a process (about 2 KB each)


def _make_qr_svg(url: str) -> str:
    """An inline SVG QR code of ``url`` that scales with its box (no size, no inline style)."""
    return segno.make(url, error="m", micro=False).svg_inline(
        border=2, omitsize=True, svgclass="qr", lineclass="qr-line"
    )


def qr_svgs(urls: Iterable[str]) -> dict[str, SafeString]:
    """Inline SVG QR codes, made once and kept in this process and in the shared cache."""
    wanted = list(dict.fromkeys(urls))
    missing = [url for url in wanted if url not in _qr_memo]
    if missing:
        if len(_qr_memo) + len(missing) > QR_MEMO_MOST:
            _qr_memo.clear()
        keys = {f"qr-svg:{hashlib.sha256(url.encode()).hexdigest()}": url for url in missing}
        found = {keys[key]: svg for key, svg in cache.get_many(list(keys)).items()}
        made = {url: _make_qr_svg(url) for url in missing if url not in found}
        if made:
            cache.set_many(
                {key: made[url] for key, url in keys.items() if url in made}, QR_CACHE_SECONDS
            )
        _qr_memo.update(found | made)
    return {url: mark_safe(_qr_memo[url]) for url in wanted}  # noqa: S308 - made by segno


def absolute(path: str) -> str:
    """The address of a path on the site's public host (what a QR code must hold)."""
    return f"{settings.SITE_URL}{path}"


# -- the draw as a table map -------------------------------------------------------------

MAP_FIELDS = (
    "pk", "table_id", "table__number", "table__label", "status", "winner", "end_reason", "game",
    "started_at", "paused_at", "paused_seconds", "finished_at",
    "pair_a__name", "pair_a__player1__name", "pair_a__player2__name",
    "pair_b_id", "pair_b__name", "pair_b__player1__name", "pair_b__player2__name",
)


def _side(row: dict[str, Any], side: str) -> tuple[str, str]:
    """A side's name, and its players' names when the pair has a name of its own."""
    name, first, second = (row[f"pair_{side}__{f}"] for f in ("name", "player1__name",
                                                                "player2__name"))
    players = Pair.label("", first, second) if name else ""
    return Pair.label(name, first, second), players


def seats_of(totals: Totals, side: str) -> list[str]:
    """The seats of a side ("a": a1, a2) among the totals' players, in seat number order."""
    return sorted(key for key in totals.points if key != side and key.startswith(side))


def score_text(layout: str, totals: Totals, *, finished: bool) -> str:
    """A party's score in one line, as its rule set counts it.

    Two sides: ``120 : 85``. A match of games: the games won (and, while it is played, the
    score of the game in play). Every player for himself: the players' points, side A's
    players then side B's (``0 / 95 : 105 / 15``, in the order their names are shown).
    """
    games = game_winners(totals)
    if layout == "games" and games:
        wins = {side: sum(1 for _n, _p, won in games if won == side) for side in "ab"}
        if finished:
            return gettext("%(a)s : %(b)s in games") % wins
        number, points, _won = games[-1]  # the game in play
        return gettext("%(won_a)s : %(won_b)s in games, %(a)s : %(b)s in game %(game)s") % {
            "won_a": wins["a"], "won_b": wins["b"], "a": points.get("a", 0),
            "b": points.get("b", 0), "game": number}
    if layout in ("seats", "kozel"):
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
        Party.objects.filter(round=rnd).order_by("table__number", "pk").values(*MAP_FIELDS)
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


def draw_map(request: HttpRequest, slug: str) -> HttpResponse:
    """The current round's draw as a table map: table number → pairs, with a QR per table.

    While the round is played the page polls: the answer carries only the scores and states
    of the tables (htmx out-of-band swaps); a new round, or a round's new status, reloads it.
    """
    tournament = public_tournament(request, slug, "draw")
    rnd = current_round(tournament)
    rows = map_tables(tournament, rnd) if rnd is not None else []
    state = draw_state(rnd, rows)
    if request.htmx and "seen" in request.GET:
        if request.GET["seen"] != state:
            response = HttpResponse(status=204)
            response["HX-Refresh"] = "true"
            return vary_on_htmx(response)
        return vary_on_htmx(render(request, "public/_draw_live.html", {"rows": rows}))
    return vary_on_htmx(render(request, "public/draw.html", {
        "tournament": tournament,
        "round": rnd,
        "rows": _with_table_qr(tournament, rows),
        "state": state,
        "poll": _poll_seconds(tournament, rnd),
    }))


def table_party(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """What a table's QR code opens: the party at that table in the current round."""
    tournament = public_tournament(request, slug, "draw")
    rnd = current_round(tournament)
    party = (
        Party.objects.filter(round=rnd, table__number=number).only("pk").first()
        if rnd is not None
        else None
    )
    if party is None:
        return redirect("tournaments:current_draw", slug=slug)
    return redirect(party)


# -- results of every round --------------------------------------------------------------


@dataclass
class Cell:
    """One entrant's party of one round in the results table."""

    result: str
    points_for: int
    points_against: int
    opponents: tuple[int, ...] = ()

    @property
    def label(self) -> str:
        """The result in words."""
        return str(RESULT_LABELS[self.result])


def _outcome(result: PartyResult, side: str) -> Cell:
    """The party of ``result`` as seen from ``side`` ("a" or "b")."""
    own, other = (result.a, result.b) if side == "a" else (result.b, result.a)
    points = (result.points_a, result.points_b)
    if side == "b":
        points = points[::-1]
    if other is None:
        return Cell("bye", *points)
    won = result.winner is not None and (
        result.winner == own or (isinstance(own, tuple) and result.winner in own)
    )
    kind = ("forfeit_won" if won else "forfeit_lost") if result.forfeit else (
        "won" if won else "lost"
    )
    return Cell(kind, *points, opponents=other if isinstance(other, tuple) else (other,))


def results_cells(results: Iterable[PartyResult]) -> dict[int, dict[int, Cell]]:
    """{entrant: {round: cell}} from the counted parties (sides are ids or tuples of ids)."""
    cells: dict[int, dict[int, Cell]] = {}
    for result in results:
        for side in ("a", "b"):
            own = result.a if side == "a" else result.b
            if own is None:
                continue
            for entrant in own if isinstance(own, tuple) else (own,):
                cells.setdefault(entrant, {})[result.round] = _outcome(result, side)
    return cells


def _cell_html(cell: Cell | None, ranks: list[int], labels: dict[str, str]) -> str:
    """One cell of the results table (numbers and our own escaped labels only)."""
    if cell is None:
        return '<td class="cell"><span class="muted">·</span></td>'
    label = labels[cell.result]
    if cell.result == "bye":
        return f'<td class="cell r-bye">{label}</td>'
    opponents = ",".join(f"#{rank}" for rank in ranks if rank is not None)
    small = f' <small class="muted">{opponents}</small>' if opponents else ""
    return (
        f'<td class="cell r-{cell.result}"><span class="sr-only">{label}</span>'
        f"{cell.points_for}:{cell.points_against}{small}</td>"
    )


def results_lines(
    tournament: Tournament, table: StandingsTable, numbers: list[int], links: bool
) -> list[dict[str, Any]]:
    """The lines of the results table in standings order, each round's cell rendered.

    The cells are computed once per results version for the whole field; the page then
    prints a few strings per line, so 500 pairs over many rounds stay fast.
    """
    cells = cached_for_field(
        tournament, table, "results-cells",
        lambda: results_cells(load_party_results(tournament, per_player=table.per_player)),
    )
    rank = {row.entrant: row.rank for row in table.rows}
    labels = {key: str(escape(label)) for key, label in RESULT_LABELS.items()}
    kind = "tournaments:player" if table.per_player else "tournaments:pair"
    root = url_root(kind, tournament.slug) if links else ""
    lines = []
    for row in table.rows:
        entrant = table.entrants[row.entrant]
        own = cells.get(row.entrant, {})
        html = "".join(
            _cell_html(own.get(n), [rank.get(o) for o in own[n].opponents] if n in own else [],
                       labels)
            for n in numbers
        )
        lines.append({
            "rank": f"{row.rank}=" if row.shared else str(row.rank),
            "name": entrant.name if table.per_player else entrant.display_name,
            "url": f"{root}{entrant.pk}/" if links else "",
            "muted": entrant.withdrawn or entrant.disqualified,
            "match_points": row.metrics["match_points"],
            "cells": mark_safe(html),  # noqa: S308 - numbers and escaped labels only
        })
    return lines


def results(request: HttpRequest, slug: str) -> HttpResponse:
    """The results of every round in one table: each entrant's party round by round."""
    tournament = public_tournament(request, slug, "results")
    per_player = per_player_ranking(request, tournament)
    numbers = list(
        tournament.rounds.exclude(status=Round.Status.DRAFT)
        .order_by("number")
        .values_list("number", flat=True)
    )
    table = standings_table(tournament, per_player=per_player)
    links = permissions.can_see_public_page(request.user, tournament, "entrants")
    return render(request, "public/results.html", {
        "tournament": tournament,
        "numbers": numbers,
        "lines": results_lines(tournament, table, numbers, links),
        "per_player": per_player,
        "by": "player" if per_player else "pair",
        "individual": is_individual(tournament),
    })


# -- a pair's or a player's history ------------------------------------------------------


@dataclass
class HistoryRow:
    """One party of a pair or player: the round, the sides from its point of view, the score.

    ``layout`` is the tournament's (``scoring.protocol_content.tournament_layout``); ``seat``
    the player's seat where every player scores for himself (Kozel, Draw, Block, Classic).
    """

    party: Party
    side: str
    own: Pair
    opponent: Pair | None
    totals: Totals | None
    layout: str = ""
    seat: str | None = None

    @property
    def per_seat(self) -> bool:
        """Whether every player of the party scores for himself."""
        return self.layout in ("seats", "kozel")

    @property
    def result(self) -> str:
        """won, lost, bye, forfeit_won, forfeit_lost, playing or scheduled (Kozel: the Goat,
        or played for a player who is neither the winner nor the Goat)."""
        party = self.party
        if party.is_bye:
            return "bye"
        if party.status == Party.Status.SCHEDULED:
            return "scheduled"
        if party.status != Party.Status.FINISHED:
            return "playing"
        own = {self.side, self.seat} - {None}
        won = party.winner in own
        if party.end_reason in (Party.EndReason.FORFEIT, Party.EndReason.DISQUALIFICATION):
            return "forfeit_won" if won else "forfeit_lost"
        if self.per_seat and not won:
            return "goat" if party.loser and party.loser in own else "played"
        return "won" if won else "lost"

    @property
    def result_label(self) -> str:
        """The result in words."""
        return str(RESULT_LABELS[self.result])

    @property
    def points_for(self) -> int | None:
        """The points of this side (None before the party started); where every player
        scores for himself, the player's own (or his side's players' together)."""
        if not self.totals:
            return None
        if self.per_seat:
            if self.seat:
                return self.totals.points.get(self.seat, 0)
            return sum(self.totals.points.get(s, 0) for s in seats_of(self.totals, self.side))
        return self.totals.points.get(self.side, 0)

    @property
    def points_against(self) -> int | None:
        """The opponents' points (None before the party started or for a bye); where every
        player scores for himself, the other side's players' together."""
        if not self.totals or self.opponent is None:
            return None
        other = "b" if self.side == "a" else "a"
        if self.per_seat:
            return sum(self.totals.points.get(s, 0) for s in seats_of(self.totals, other))
        return self.totals.points.get(other, 0)

    @property
    def score(self) -> str:
        """The score as the history shows it, from this side's point of view: points, games
        won (a match of games), or the player's own points (every player for himself)."""
        if not self.totals:
            return ""
        if self.per_seat:
            return str(self.points_for)
        games = party_games(self.party, self.totals)
        if self.layout == "games" and games:
            mine = sum(1 for _n, _p, won in games if won == self.side)
            theirs = sum(1 for _n, _p, won in games if won and won != self.side)
            return gettext("%(a)s : %(b)s in games") % {"a": mine, "b": theirs}
        return f"{self.points_for} : {self.points_against}"


def history(
    tournament: Tournament, mine: Q, is_own: Callable[[Pair], bool],
    seat_of: Callable[[Party], str | None] | None = None,
) -> list[HistoryRow]:
    """The parties of published rounds that ``mine`` selects, in round order (three queries).

    ``is_own`` tells which of a party's pairs is the one whose history this is; ``seat_of``
    the seat of the player whose history it is (a side of one player sits at its first seat).
    """
    layout = tournament_layout(tournament)
    parties = (
        Party.objects.filter(mine, round__tournament=tournament)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round", *PARTY_PLAYERS)
        .prefetch_related(
            "deals", Prefetch("penalties", queryset=Penalty.objects.select_related("player"))
        )
        .order_by("round__number", "id")
    )
    rows = []
    for party in parties:
        party.round.tournament = tournament
        side = "a" if is_own(party.pair_a) else "b"
        started = party.status != Party.Status.SCHEDULED
        own = party.pair(side)
        seat = seat_of(party) if seat_of else None
        if seat is None and own.player2_id is None:
            seat = f"{side}1"
        rows.append(HistoryRow(
            party=party,
            side=side,
            own=own,
            opponent=party.pair("b" if side == "a" else "a"),
            totals=party_totals(party) if started else None,
            layout=layout,
            seat=seat,
        ))
    return rows


def player_parties(player: Player) -> Q:
    """The parties a player sits in, on either side."""
    return (
        Q(pair_a__player1=player) | Q(pair_a__player2=player)
        | Q(pair_b__player1=player) | Q(pair_b__player2=player)
    )


def player_history(tournament: Tournament, player: Player) -> list[HistoryRow]:
    """A player's parties (with whichever partner the round gave him)."""
    def seat_of(party: Party) -> str | None:
        return next((seat for seat, who in party.seat_players().items() if who.pk == player.pk),
                    None)

    return history(
        tournament, player_parties(player),
        lambda pair: player.pk in (pair.player1_id, pair.player2_id),
        seat_of,
    )


def rank_history(
    tournament: Tournament, table: StandingsTable
) -> tuple[list[int], dict[int, list[int]]]:
    """Round numbers with counted parties, and each entrant's rank after each of them.

    One load of the results and one standings computation per round, cached for the whole
    field under the tournament's results version (every entrant's page reads the same entry).
    """

    def compute() -> tuple[list[int], dict[int, list[int]]]:
        entrants = list(table.entrants)
        results = load_party_results(tournament, per_player=table.per_player)
        numbers = sorted({result.round for result in results})
        ranks: dict[int, list[int]] = {pk: [] for pk in entrants}
        config = tournament.regulations.standings_config()
        for number in numbers:
            for row in compute_standings(entrants, results, config, number):
                ranks[row.entrant].append(row.rank)
        return numbers, ranks

    return cached_for_field(tournament, table, "rank-history", compute)


@dataclass
class RankChart:
    """A line chart of a standing round by round, laid out for an SVG of ``width × height``."""

    numbers: Sequence[int]
    ranks: Sequence[int]
    field_size: int
    width: int = 420
    height: int = 220
    pad: int = 34
    points: list[dict[str, Any]] = field(default_factory=list)
    ticks: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Place the points: round on x, rank on y (first place at the top)."""
        if not self.ranks:
            return
        best, worst = min(self.ranks), max(self.ranks)
        top, bottom = (1, self.field_size) if self.field_size <= 32 else (
            max(1, best - 3), min(self.field_size, worst + 3)
        )
        bottom = max(bottom, top + 1)
        span_x = max(len(self.ranks) - 1, 1)
        inner_w, inner_h = self.width - 2 * self.pad, self.height - 2 * self.pad

        def y(rank: int) -> float:
            return round(self.pad + inner_h * (rank - top) / (bottom - top), 1)

        for i, (number, rank) in enumerate(zip(self.numbers, self.ranks, strict=True)):
            x = self.pad + (inner_w * i / span_x if len(self.ranks) > 1 else inner_w / 2)
            self.points.append({"x": round(x, 1), "y": y(rank), "round": number, "rank": rank})
        step = next(s for s in NICE_STEPS if s >= (bottom - top) / 4)
        marks = {top, bottom} | {
            r for r in range(step, bottom, step) if min(r - top, bottom - r) >= step / 2
        }
        self.ticks = [{"rank": r, "y": y(r)} for r in sorted(marks)]

    @property
    def polyline(self) -> str:
        """The points as an SVG polyline's ``points``."""
        return " ".join(f"{p['x']},{p['y']}" for p in self.points)

    @property
    def right(self) -> int:
        """Where the plot ends on the right."""
        return self.width - self.pad

    @property
    def base(self) -> int:
        """Where the round numbers are written."""
        return self.height - self.pad // 3


def _entrant_page(
    request: HttpRequest,
    tournament: Tournament,
    entrant: Pair | Player,
    rows: list[HistoryRow],
    per_player: bool,
) -> HttpResponse:
    """The page of a pair or player: standing, chart of ranks, parties round by round."""
    table = standings_table(tournament, per_player=per_player)
    standing = next((row for row in table.rows if row.entrant == entrant.pk), None)
    numbers, ranks = rank_history(tournament, table)
    chart = RankChart(numbers, ranks.get(entrant.pk, []), len(table.rows))
    return render(request, "public/entrant.html", {
        "tournament": tournament,
        "entrant": entrant,
        "per_player": per_player,
        "rows": rows,
        "standing": standing,
        "metrics": [(m, standing.metrics[m.key]) for m in table.columns] if standing else [],
        "chart": chart,
        "can_see_standings": permissions.can_see_public_page(
            request.user, tournament, "standings"
        ),
        "current": "entrants",
    })


def pair_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A registered pair's history and its standing round by round."""
    tournament = public_tournament(request, slug, "entrants")
    pair = get_object_or_404(
        Pair.objects.select_related("player1", "player2"),
        pk=pk, tournament=tournament, formed_in_round__isnull=True,
    )
    rows = history(tournament, Q(pair_a=pair) | Q(pair_b=pair), lambda p: p.pk == pair.pk)
    return _entrant_page(request, tournament, pair, rows, per_player=False)


def player_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A player's history (with each round's partner) and standing round by round."""
    tournament = public_tournament(request, slug, "entrants")
    player = get_object_or_404(Player, pk=pk, tournament=tournament)
    rows = player_history(tournament, player)
    return _entrant_page(request, tournament, player, rows, per_player=True)


# -- the hall screen ---------------------------------------------------------------------


@dataclass(frozen=True)
class Panel:
    """One screenful of the hall screen: what it shows and which page of it."""

    kind: str
    page: int = 1
    pages: int = 1

    @property
    def key(self) -> str:
        """The panel's name in the address, e.g. ``draw-2``."""
        return f"{self.kind}-{self.page}"

    def window(self, items: Sequence[Any], size: int) -> Sequence[Any]:
        """The items of this page."""
        return items[(self.page - 1) * size: self.page * size]


def _pages(kind: str, count: int, size: int, most: int | None = None) -> list[Panel]:
    """The panels that show ``count`` items ``size`` at a time (at most ``most`` pages)."""
    pages = math.ceil(count / size)
    if most is not None:
        pages = min(pages, most)
    return [Panel(kind, page, pages) for page in range(1, pages + 1)]


def _hall_seconds(request: HttpRequest) -> int:
    """How long each panel stays (``?seconds=``, 5 to 300)."""
    try:
        seconds = int(request.GET.get("seconds", HALL_SECONDS))
    except ValueError:
        seconds = HALL_SECONDS
    return min(max(seconds, 5), 300)


def hall(request: HttpRequest, slug: str) -> HttpResponse:
    """The hall screen: the draw, the running parties with time left and the standings.

    Each poll (htmx, every few seconds) brings the next panel, with fresh data.
    """
    tournament = public_tournament(request, slug, "hall")
    user = request.user
    rnd = current_round(tournament)
    live = rnd is not None and rnd.status in LIVE
    show_draw = permissions.can_see_public_page(user, tournament, "draw")
    rows = map_tables(tournament, rnd) if live and show_draw else []
    running = [row for row in rows if row["status"] == Party.Status.IN_PROGRESS]
    table = (
        standings_table(tournament)
        if permissions.can_see_public_page(user, tournament, "standings")
        else None
    )
    lines = table.lines() if table else []
    panels = [
        *_pages("draw", len(rows), HALL_TABLES_PER_PAGE),
        *_pages("running", len(running), HALL_LINES_PER_PAGE),
        *_pages("standings", len(lines), HALL_LINES_PER_PAGE, HALL_STANDINGS_PAGES),
    ] or [Panel("welcome")]
    panel = next((p for p in panels if p.key == request.GET.get("panel")), panels[0])
    following = panels[(panels.index(panel) + 1) % len(panels)]
    seconds = _hall_seconds(request)
    for row in panel.window(running, HALL_LINES_PER_PAGE) if panel.kind == "running" else ():
        clock = Party(round=rnd, **{f: row[f] for f in CLOCK_FIELDS})
        row["seconds_left"] = int(clock.seconds_left())
    context = {
        "tournament": tournament,
        "round": rnd,
        "panel": panel,
        "position": panels.index(panel) + 1,
        "dots": range(1, len(panels) + 1),
        "next_url": f"{request.path}?panel={following.key}&seconds={seconds}",
        "seconds": seconds,
        "rows": panel.window(rows, HALL_TABLES_PER_PAGE) if panel.kind == "draw" else [],
        "running": panel.window(running, HALL_LINES_PER_PAGE),
        "table": table,
        "lines": panel.window(lines, HALL_LINES_PER_PAGE) if panel.kind == "standings" else [],
    }
    return _render(request, "public/hall.html", "public/_hall_panel.html", context)
