"""A page of a long standings table: every row ranked (from the standings' cache), the
entrants of the page's rows only loaded, a search by name and the visitor's own place.

The standings of 20,000 pairs are ranked as always (:func:`~scoring.ranking.results.standings_rows`,
cached under the results version); a page then loads the 150 pairs it shows, not 20,000.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Q

from scoring.models import Pair, Player, Tournament
from scoring.ranking.results import (
    StandingsTable,
    ranked_entrants,
    standings_rows,
    table_of,
)
from scoring.standings import StandingRow


def first_entrants(
    tournament: Tournament, per_player: bool, most: int
) -> dict[int, Pair | Player] | None:
    """Every ranked entrant by id (``ranked_entrants``) when there are at most ``most`` of
    them, else None: a short field is loaded whole in the query that tells it is short."""
    entrants = {e.pk: e for e in ranked_entrants(tournament, per_player)[: most + 1]}
    return entrants if len(entrants) <= most else None


def all_rows(
    tournament: Tournament, *, per_player: bool, after_round: int | None, version: str
) -> list[StandingRow]:
    """Every line of the standings in rank order (the entrants' ids: one query; the rows:
    the standings' cache, computed on a miss)."""
    ids = list(ranked_entrants(tournament, per_player).values_list("pk", flat=True))
    return standings_rows(
        tournament, ids, per_player=per_player, after_round=after_round, version=version
    )


def named(tournament: Tournament, per_player: bool, query: str) -> set[int]:
    """The entrants whose name (a pair's, or one of its players') holds ``query``, any case."""
    if per_player:
        return set(Player.objects.filter(tournament=tournament, name__icontains=query)
                   .values_list("pk", flat=True))
    return set(
        Pair.objects.filter(tournament=tournament, formed_in_round__isnull=True)
        .filter(Q(name__icontains=query) | Q(player1__name__icontains=query)
                | Q(player2__name__icontains=query))
        .values_list("pk", flat=True)
    )


def own_entrants(tournament: Tournament, per_player: bool, user: Any) -> set[int]:
    """The entrants a logged-in user plays as in the tournament (his players, or their
    pairs); empty for a visitor."""
    if not getattr(user, "is_authenticated", False):
        return set()
    players = Player.objects.filter(tournament=tournament, user=user)
    if per_player:
        return set(players.values_list("pk", flat=True))
    return set(
        Pair.objects.filter(tournament=tournament, formed_in_round__isnull=True)
        .filter(Q(player1__in=players) | Q(player2__in=players))
        .values_list("pk", flat=True)
    )


def place_of(rows: Sequence[StandingRow], entrants: set[int]) -> tuple[int, StandingRow] | None:
    """The index and row of the first of ``entrants`` in ``rows``, or None."""
    for index, row in enumerate(rows):
        if row.entrant in entrants:
            return index, row
    return None


def page_table(
    tournament: Tournament, rows: list[StandingRow], *, per_player: bool,
    after_round: int | None, version: str,
) -> StandingsTable:
    """A table of some rows of the standings, with only their entrants loaded (one query)."""
    ids = [row.entrant for row in rows]
    entrants = {e.pk: e for e in ranked_entrants(tournament, per_player).filter(pk__in=ids)}
    return table_of(tournament, rows, entrants, per_player=per_player,
                    after_round=after_round, version=version)


def any_country(tournament: Tournament, per_player: bool) -> bool:
    """Whether any player the standings rank has a country (one query, nothing loaded)."""
    if per_player:
        return Player.objects.filter(tournament=tournament, country__gt="").exists()
    return Pair.objects.filter(tournament=tournament, formed_in_round__isnull=True).filter(
        Q(player1__country__gt="") | Q(player2__country__gt="")).exists()
