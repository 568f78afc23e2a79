"""The public results table: every entrant's party round by round."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.access import permissions
from scoring.models import Pair, Round, Tournament
from scoring.ranking.loaders import load_party_results
from scoring.ranking.results import StandingsTable, standings_table
from scoring.standings import PartyResult
from tournaments.pages import url_root
from tournaments.public.common import (
    RESULT_LABELS,
    cached_for_field,
    per_player_ranking,
    public_tournament,
)
from tournaments.rounds.draws import is_individual

# -- results of every round --------------------------------------------------------------


@dataclass
class Cell:
    """One entrant's party of one round in the results table."""

    result: str
    points_for: int
    points_against: int | None
    opponents: tuple[int, ...] = ()

    @property
    def label(self) -> str:
        """The result in words."""
        return str(RESULT_LABELS[self.result])


def _own_outcome(result: PartyResult, entrant: int, other: tuple[int, ...]) -> Cell:
    """A game where every player keeps his own account (Kozel): the player's own points, and
    the Goat, the winner or "played" as the engine decided (a joint leader is no loser)."""
    if result.own is None:
        raise ValueError("Only a game where each keeps his own account has own outcomes.")
    mine = result.own[entrant]
    if result.forfeit:
        kind = "forfeit_lost" if mine.goat else "forfeit_won"
    elif mine.goat:
        kind = "goat"
    else:
        kind = "won" if result.winner == entrant else "played"
    return Cell(kind, mine.points, None, opponents=other)


def _outcome(result: PartyResult, side: str, entrant: int | None = None) -> Cell:
    """The party of ``result`` as seen from ``side`` ("a" or "b"), for ``entrant`` of it."""
    own, other = (result.a, result.b) if side == "a" else (result.b, result.a)
    if result.own and entrant is not None and entrant in result.own and other is not None:
        others = tuple(key for key in result.own if key != entrant)
        return _own_outcome(result, entrant, others)
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
                cells.setdefault(entrant, {})[result.round] = _outcome(result, side, entrant)
    return cells


def _cell_view(
    cell: Cell | None, ranks: list[int | None], labels: dict[str, str]
) -> dict[str, Any] | None:
    """What the template prints in one cell of the results table (None: no party)."""
    if cell is None:
        return None
    return {
        "result": cell.result,
        "label": labels[cell.result],
        "score": f"{cell.points_for}" if cell.points_against is None
        else f"{cell.points_for}:{cell.points_against}",
        "opponents": ",".join(f"#{rank}" for rank in ranks if rank is not None),
    }


def results_lines(
    tournament: Tournament, table: StandingsTable, numbers: list[int], links: bool
) -> list[dict[str, Any]]:
    """The lines of the results table in standings order, each round's cell ready to print.

    The cells are computed once per results version for the whole field; the page then
    prints a few strings per line, so 500 pairs over many rounds stay fast.
    """
    cells = cached_for_field(
        tournament, table, "results-cells",
        lambda: results_cells(load_party_results(tournament, per_player=table.per_player)),
    )
    rank = {row.entrant: row.rank for row in table.rows}
    labels = {key: str(label) for key, label in RESULT_LABELS.items()}
    lead = table.columns[0]  # match points, or what the game ranks by first (Kozel: ratings)
    kind = "tournaments:player" if table.per_player else "tournaments:pair"
    root = url_root(kind, tournament.slug) if links else ""
    lines = []
    for row in table.rows:
        entrant = table.entrants[row.entrant]
        own = cells.get(row.entrant, {})
        views = [
            _cell_view(own.get(n), [rank.get(o) for o in own[n].opponents] if n in own else [],
                       labels)
            for n in numbers
        ]
        lines.append({
            "rank": f"{row.rank}=" if row.shared else str(row.rank),
            "name": entrant.display_name if isinstance(entrant, Pair) else entrant.name,
            "url": f"{root}{entrant.pk}/" if links else "",
            "muted": entrant.withdrawn or entrant.disqualified,
            "match_points": row.metrics[lead.key],
            "cells": views,
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
        "lead": table.columns[0],
        "numbers": numbers,
        "lines": results_lines(tournament, table, numbers, links),
        "per_player": per_player,
        "by": "player" if per_player else "pair",
        "individual": is_individual(tournament),
    })
