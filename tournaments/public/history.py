"""A pair's or player's public page: its parties round by round and a chart of its rank."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext

from scoring.access import permissions
from scoring.models import Pair, Party, Penalty, Player, Round, Tournament
from scoring.ranking.loaders import load_party_results
from scoring.ranking.results import StandingsTable, standings_table
from scoring.rules import SIDES_LAYOUT, Layout, Totals
from scoring.signoff.content import party_games, tournament_layout
from scoring.standings import compute_standings
from scoring.totals.compute import party_totals, prefetched_rows
from tournaments.pages import PARTY_PLAYERS
from tournaments.public.common import (
    RESULT_LABELS,
    cached_for_field,
    public_tournament,
    seats_of,
)

NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10**9)


# -- a pair's or a player's history ------------------------------------------------------


@dataclass
class HistoryRow:
    """One party of a pair or player: the round, the sides from its point of view, the score.

    ``layout`` is the tournament's (``scoring.signoff.content.tournament_layout``); ``seat``
    the player's seat where every player scores for himself (Kozel, Draw, Block, Classic).
    """

    party: Party
    side: str
    own: Pair
    opponent: Pair | None
    totals: Totals | None
    layout: Layout = SIDES_LAYOUT
    seat: str | None = None

    @property
    def per_seat(self) -> bool:
        """Whether every player of the party scores for himself."""
        return self.layout.per_seat

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
        keys = {key for key in (self.side, self.seat) if key is not None}
        return party.result_for(keys, self.per_seat)

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
        if self.layout.games and games:
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
        if own is None:
            raise ValueError(f"Party {party.pk} has no side {side!r} for its entrant.")
        seat = seat_of(party) if seat_of else None
        if seat is None and own.player2_id is None:
            seat = f"{side}1"
        rows.append(HistoryRow(
            party=party,
            side=side,
            own=own,
            opponent=party.pair("b" if side == "a" else "a"),
            totals=party_totals(party, prefetched_rows(party)) if started else None,
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
