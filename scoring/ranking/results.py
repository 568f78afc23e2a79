"""Standings of a tournament: load its finished parties in a few queries, call the engine.

The one Django entry point to the standings. Party points are the totals stored with each
finished party (``scoring.totals.stored``: made by
:func:`scoring.totals.compute.compute_party_totals`
when its result was recorded, one row per party read in one query; a missing or stale row is
replayed from the deals and stored again); the ranking comes from
:func:`scoring.standings.compute_standings` in the regulations' order, or the rule set's own
when they name none (:func:`standings_config`). Sides of one player rank
like pairs; matches of games carry their game wins; in Kozel every player keeps his own
account, so each entrant carries his own score and rating (:func:`own_scores`).
Results are cached under the tournament's *results version* (a digest of its parties'
versions, so any recorded deal, fine, ruling or finished party gives a new key).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet, Sum

from scoring.models import Pair, Party, Player, Round, Tournament
from scoring.ranking.loaders import load_party_rows
from scoring.standings import (
    METRICS,
    StandingRow,
    StandingsConfig,
    compute_standings,
    paused_gc,
)

CACHE_SECONDS = 600


@dataclass(frozen=True)
class StandingsTable:
    """Standings ready for a page: rows in rank order, the ranked objects, the shown metrics."""

    rows: list[StandingRow]
    entrants: dict[int, Pair | Player]
    per_player: bool
    order: tuple[str, ...]
    after_round: int | None
    version: str = ""
    """The results version the rows were ranked under (``results_version``)."""

    def lines(self) -> list[tuple[StandingRow, Pair | Player, list[Any]]]:
        """Each row with the pair or player it ranks and its values in column order."""
        keys = [metric.key for metric in self.columns]
        return [
            (row, self.entrants[row.entrant], [row.metrics[key] for key in keys])
            for row in self.rows
        ]

    @property
    def columns(self) -> list[Any]:
        """The metrics to show: match points first, then the regulations' order.

        Where the order ranks by rating points (Kozel) those are the match points: no column
        of their own for the match points then.
        """
        keys = list(self.order)
        if "match_points" not in keys and "rating_points" not in keys:
            keys.insert(0, "match_points")
        return [METRICS[key] for key in keys]


def standings_config(tournament: Tournament) -> StandingsConfig:
    """The tournament's standings settings; an empty order means its rule set's own order.

    Sport domino's default order stays :data:`~scoring.standings.DEFAULT_ORDER`; UDL and All
    Fives rank by match points, game wins difference and points, Kozel by rating points,
    Goat games and points taken (``RuleSet.standings_order``).
    """
    return tournament.regulations.standings_config()


def results_version(tournament: Tournament) -> str:
    """A digest that changes whenever a result of the tournament can have changed (one query).

    Every service that changes a party bumps its version; publishing a round, creating or
    deleting parties change the counts. A request that read it once (a public page's ETag)
    passes it on to ``standings_table`` rather than asking again.
    """
    return _version(Party.objects.filter(round__tournament=tournament).aggregate(**_counts()))


def results_versions(tournament_ids: Sequence[int]) -> dict[int, str]:
    """:func:`results_version` of each of these tournaments (one query)."""
    rows = (Party.objects.filter(round__tournament__in=tournament_ids)
            .values("round__tournament").annotate(**_counts()).order_by())
    found = {row["round__tournament"]: _version(row) for row in rows}
    return {pk: found.get(pk, _version({})) for pk in tournament_ids}


def _counts() -> dict[str, Any]:
    """The aggregates a results version digests: parties, their versions' sum, the last id,
    the parties of published rounds, the finished ones."""
    return {
        "n": Count("id"), "v": Sum("version"), "m": Max("id"),
        "live": Count("id", filter=~Q(round__status=Round.Status.DRAFT)),
        "done": Count("id", filter=Q(status=Party.Status.FINISHED)),
    }


def _version(counts: Mapping[str, Any]) -> str:
    """A results version from :func:`_counts`' figures."""
    return "-".join(str(counts.get(k) or 0) for k in ("n", "v", "m", "live", "done"))


def standings_cache_key(
    tournament: Tournament, entrant_ids: Sequence[int], per_player: bool, after_round: int | None,
    version: str,
) -> str:
    """The cache key of a standings computation: what it depends on, digested."""
    regulations = tournament.regulations
    parts = (
        tournament.pk,
        tournament.created_at.isoformat() if tournament.created_at else "",
        tournament.rule_set,
        repr(regulations.rules_config()),
        repr(standings_config(tournament)),
        per_player,
        after_round,
        version,
        ",".join(map(str, entrant_ids)),
    )
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()
    return f"standings:{tournament.pk}:{digest}"


def standings_rows(
    tournament: Tournament,
    entrant_ids: Sequence[int],
    *,
    per_player: bool,
    after_round: int | None = None,
    use_cache: bool = True,
    version: str | None = None,
    results: Callable[[], Sequence[Any]] | None = None,
) -> list[StandingRow]:
    """Rank ``entrant_ids`` (pairs, or players with ``per_player``) after ``after_round``.

    Equal entrants keep the order given. Cached under the tournament's results ``version``
    (read here when the caller has not). ``results``: where a caller ranking several lists
    (the groups) loads the parties once (``load_party_rows``), asked only on a cache miss.
    """
    key = ""
    if use_cache:
        version = results_version(tournament) if version is None else version
        key = standings_cache_key(tournament, entrant_ids, per_player, after_round, version)
    if use_cache:
        cached = cache.get(key)
        if cached is not None:
            return cached
    with paused_gc():  # tens of thousands of plain rows: nothing for the collector to find
        parties = (load_party_rows(tournament, per_player=per_player, after_round=after_round)
                   if results is None else results())
        rows = compute_standings(entrant_ids, parties, standings_config(tournament), after_round)
    if use_cache:
        cache.set(key, rows, CACHE_SECONDS)
    return rows


def ranked_entrants(tournament: Tournament | list[int], per_player: bool) -> QuerySet:
    """The pairs (or players) the standings list, in the order that breaks full ties; of one
    tournament, or of every tournament in a list of ids.

    Withdrawn and disqualified entrants keep their line; ties keep the seeding order
    (rating, best first), then registration order.
    """
    where = {"tournament__in" if isinstance(tournament, list) else "tournament": tournament}
    if per_player:
        return Player.objects.filter(**where).order_by("-rating", "id")
    return (
        Pair.objects.filter(**where, formed_in_round__isnull=True)
        .select_related("player1", "player2")
        .order_by("-rating", "id")
    )


def warm_standings(tournament: Tournament) -> int:
    """Compute and cache the standings :func:`standings_table` shows; the number of lines.

    The same cache entry as the page's and the next draw's, without loading the entrants'
    objects: their ids in the same order.
    """
    per_player = tournament.format == Tournament.Format.INDIVIDUAL
    ids = list(ranked_entrants(tournament, per_player).values_list("pk", flat=True))
    return len(standings_rows(tournament, ids, per_player=per_player))


def standings_table(
    tournament: Tournament,
    *,
    per_player: bool | None = None,
    after_round: int | None = None,
    version: str | None = None,
    entrants: dict[int, Pair | Player] | None = None,
) -> StandingsTable:
    """Standings with the pairs or players they rank, for pages and the API.

    ``per_player`` defaults to the tournament's format; individual events always rank
    players (their pairs change every round). A constant number of queries, whatever the
    number of entrants. ``version``: the results version, when the request has read it (a
    public page's ETag); the table carries it for what is cached beside it. ``entrants``:
    every ranked entrant by id in ranking order, when the caller has loaded them
    (``ranked_entrants``).
    """
    version = results_version(tournament) if version is None else version
    per_player = bool(per_player) or tournament.format == Tournament.Format.INDIVIDUAL
    if entrants is None:
        entrants = {e.pk: e for e in ranked_entrants(tournament, per_player)}
    rows = standings_rows(
        tournament, list(entrants), per_player=per_player, after_round=after_round,
        version=version,
    )
    return table_of(tournament, rows, entrants, per_player=per_player,
                    after_round=after_round, version=version)


def table_of(
    tournament: Tournament, rows: list[StandingRow], entrants: dict[int, Pair | Player], *,
    per_player: bool, after_round: int | None, version: str,
) -> StandingsTable:
    """Ranked ``rows`` and the ``entrants`` they name as a table in the tournament's order
    (all of them, or one page's: ``scoring.ranking.paged``)."""
    return StandingsTable(
        rows=rows,
        entrants=entrants,
        per_player=per_player,
        order=tuple(standings_config(tournament).order),
        after_round=after_round,
        version=version,
    )
