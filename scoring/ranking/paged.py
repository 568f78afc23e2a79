"""A page of a long standings table: every row ranked (from the standings' cache), the
entrants of the page's rows only loaded, a search by name and the visitor's own place.

The standings of 20,000 pairs are ranked as always (:func:`~scoring.ranking.results.standings_rows`,
cached under the results version); a page then loads the 150 pairs it shows, not 20,000.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Q, Subquery

from scoring.models import Pair, Player, Tournament
from scoring.ranking.results import (
    CACHE_SECONDS,
    StandingsTable,
    ranked_entrants,
    standings_cache_key,
    standings_rows,
    table_of,
)
from scoring.standings import StandingRow


def first_entrants(
    tournament: Tournament, per_player: bool, most: int
) -> dict[int, Pair | Player] | None:
    """Every ranked entrant by id (``ranked_entrants``) when there are at most ``most`` of
    them, else None: a short field is loaded whole in the query that tells it is short."""
    ranked = ranked_entrants(tournament, per_player)
    first = Subquery(ranked.values("pk")[: most + 1])
    entrants = {e.pk: e for e in ranked.filter(pk__in=first)}  # the join after the top-N
    return entrants if len(entrants) <= most else None


@dataclass(frozen=True)
class RankedColumns:
    """Every line of the standings as columns of plain values (entrants, ranks, shared,
    each metric's values): what a page of 20,000 lines keeps in the cache, read back in a
    few milliseconds where 20,000 ``StandingRow`` s take a few hundred; rows are made for
    the page's slice only."""

    entrants: list[int]
    ranks: list[int]
    shared: list[bool]
    keys: tuple[str, ...]
    values: list[list[float | int]]

    @classmethod
    def of(cls, rows: Sequence[StandingRow]) -> RankedColumns:
        """The columns of ranked rows."""
        keys = tuple(rows[0].metrics) if rows else ()
        return cls(
            entrants=[row.entrant for row in rows],
            ranks=[row.rank for row in rows],
            shared=[row.shared for row in rows],
            keys=keys,
            values=[[row.metrics[key] for row in rows] for key in keys],
        )

    def rows(self, indexes: Iterable[int]) -> list[StandingRow]:
        """The rows at ``indexes`` (positions in rank order)."""
        keys, values = self.keys, self.values
        return [
            StandingRow(self.entrants[i], self.ranks[i],
                        {key: column[i] for key, column in zip(keys, values, strict=True)},
                        self.shared[i])
            for i in indexes
        ]


def ranked_columns(
    tournament: Tournament, *, per_player: bool, after_round: int | None, version: str
) -> RankedColumns:
    """Every line of the standings in rank order as columns (the entrants' ids: one query;
    the columns: the cache, else made from the standings' rows, cached or computed)."""
    ids = list(ranked_entrants(tournament, per_player).values_list("pk", flat=True))
    key = "columns:" + standings_cache_key(tournament, ids, per_player, after_round, version)
    found = cache.get(key)
    if found is None:
        found = RankedColumns.of(standings_rows(
            tournament, ids, per_player=per_player, after_round=after_round, version=version))
        cache.set(key, found, CACHE_SECONDS)
    return found


def named(tournament: Tournament, per_player: bool, query: str) -> set[int]:
    """The entrants whose name (a pair's, or one of its players') holds ``query``, any case."""
    if per_player:
        return set(Player.objects.filter(tournament=tournament, name__icontains=query)
                   .values_list("pk", flat=True))
    players = Player.objects.filter(tournament=tournament, name__icontains=query).values("pk")
    return set(  # the players found first: one scan of the names, not one per side
        Pair.objects.filter(tournament=tournament, formed_in_round__isnull=True)
        .filter(Q(name__icontains=query) | Q(player1__in=players) | Q(player2__in=players))
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


def place_of(columns: RankedColumns, entrants: set[int]) -> tuple[int, StandingRow] | None:
    """The index and row of the first of ``entrants`` in the standings, or None."""
    for index, entrant in enumerate(columns.entrants):
        if entrant in entrants:
            return index, columns.rows([index])[0]
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
    with_country = Player.objects.filter(tournament=tournament, country__gt="")
    if not with_country.exists():
        return False
    if per_player:
        return True
    return Pair.objects.filter(tournament=tournament, formed_in_round__isnull=True).filter(
        Q(player1__in=with_country) | Q(player2__in=with_country)).exists()
