"""Standings of a tournament: load its finished parties in a few queries, call the engine.

The one Django entry point to the standings. Party points come from
:func:`scoring.totals.compute_party_totals` (deals and fines are loaded for the whole
tournament in a constant number of queries, then totals are derived party by party); the
ranking comes from :func:`scoring.standings.compute_standings` in the regulations' order.
Results are cached under the tournament's *results version* (a digest of its parties'
versions, so any recorded deal, fine, ruling or finished party gives a new key).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet, Sum

from referee.models import Penalty
from scoring.models import Deal
from scoring.standings import METRICS, PartyResult, StandingRow, compute_standings
from scoring.totals import (
    DEAL_ROW_FIELDS,
    FINE_ROW_FIELDS,
    DealRow,
    FineRow,
    compute_party_totals,
    fine_facts,
)
from tournaments.models import Pair, Party, Player, Round, Tournament

CACHE_SECONDS = 600
FORFEIT_REASONS = (Party.EndReason.FORFEIT, Party.EndReason.DISQUALIFICATION)
DECIDED_WITHOUT_PLAY = (*FORFEIT_REASONS, Party.EndReason.BYE)


@dataclass(frozen=True)
class StandingsTable:
    """Standings ready for a page: rows in rank order, the ranked objects, the shown metrics."""

    rows: list[StandingRow]
    entrants: dict[int, Pair | Player]
    per_player: bool
    order: tuple[str, ...]
    after_round: int | None

    def lines(self) -> list[tuple[StandingRow, Pair | Player, list[Any]]]:
        """Each row with the pair or player it ranks and its values in column order."""
        keys = [metric.key for metric in self.columns]
        return [
            (row, self.entrants[row.entrant], [row.metrics[key] for key in keys])
            for row in self.rows
        ]

    @property
    def columns(self) -> list[Any]:
        """The metrics to show: match points first, then the regulations' order."""
        keys = list(self.order)
        if "match_points" not in keys:
            keys.insert(0, "match_points")
        return [METRICS[key] for key in keys]


def _counted(tournament: Tournament, after_round: int | None, prefix: str = "") -> Q:
    """The filter of counted parties (``prefix`` "party__" for rows of a party), joined."""
    q = Q(**{f"{prefix}round__tournament": tournament, f"{prefix}status": Party.Status.FINISHED})
    q &= ~Q(**{f"{prefix}round__status": Round.Status.DRAFT})
    if after_round is not None:
        q &= Q(**{f"{prefix}round__number__lte": after_round})
    return q


def counted_parties(tournament: Tournament, after_round: int | None = None) -> QuerySet[Party]:
    """The parties the standings count: finished, in published rounds (up to ``after_round``)."""
    return Party.objects.filter(_counted(tournament, after_round))


def results_version(tournament: Tournament) -> str:
    """A digest that changes whenever a result of the tournament can have changed (one query).

    Every service that changes a party bumps its version; publishing a round, creating or
    deleting parties change the counts.
    """
    agg = Party.objects.filter(round__tournament=tournament).aggregate(
        n=Count("id"),
        v=Sum("version"),
        m=Max("id"),
        live=Count("id", filter=~Q(round__status=Round.Status.DRAFT)),
        done=Count("id", filter=Q(status=Party.Status.FINISHED)),
    )
    return "-".join(str(agg[k] or 0) for k in ("n", "v", "m", "live", "done"))


def _sides(row: tuple, per_player: bool) -> tuple[Any, Any]:
    """The two sides of a party row: pair ids, or tuples of player ids."""
    if not per_player:
        return row[2], row[3]
    a = tuple(p for p in row[6:8] if p is not None)
    b = tuple(p for p in row[8:10] if p is not None) if row[3] is not None else None
    return a, b


def deal_and_fine_rows(
    deals: QuerySet[Deal], penalties: QuerySet[Penalty]
) -> tuple[dict[int, list[DealRow]], dict[int, list[FineRow]]]:
    """The selected deals and the fines among the selected penalties, as plain rows by party.

    Two queries and no model instances, whatever the number of parties.
    """
    by_party: dict[int, list[DealRow]] = defaultdict(list)
    deal_rows = deals.order_by().values_list("party_id", *DEAL_ROW_FIELDS)
    for party_id, *deal in deal_rows:
        by_party[party_id].append(DealRow(*deal))
    fines: dict[int, list[FineRow]] = defaultdict(list)
    fine_rows = (
        penalties.filter(kind=Penalty.Kind.FINE, cancelled=False)
        .order_by()
        .values_list("party_id", *FINE_ROW_FIELDS)
    )
    for party_id, *fine in fine_rows:
        fines[party_id].append(FineRow(*fine))
    return by_party, fines


def load_party_results(
    tournament: Tournament, *, per_player: bool, after_round: int | None = None
) -> list[PartyResult]:
    """Every counted party as the standings engine's plain data (three queries).

    Sides are pair ids, or with ``per_player`` tuples of the players of each pair. Points are
    the party totals derived from the deals and fines by ``compute_party_totals``.
    """
    regulations = tournament.regulations
    cfg = regulations.rules_config()
    parties = counted_parties(tournament, after_round)
    fields = ["id", "round__number", "pair_a_id", "pair_b_id", "end_reason", "winner"]
    if per_player:
        fields += ["pair_a__player1_id", "pair_a__player2_id"]
        fields += ["pair_b__player1_id", "pair_b__player2_id"]
    rows = list(parties.order_by().values_list(*fields))
    counted = _counted(tournament, after_round, "party__")
    deals, fines = deal_and_fine_rows(
        Deal.objects.filter(counted).exclude(party__end_reason__in=DECIDED_WITHOUT_PLAY),
        Penalty.objects.filter(counted),
    )

    results: list[PartyResult] = []
    rule_set = tournament.rule_set
    for row in rows:
        party_id, number, _a, _b, end_reason, winner = row[:6]
        a, b = _sides(row, per_player)
        facts = fine_facts(fines[party_id]) if party_id in fines else ()
        totals = compute_party_totals(
            rule_set,
            cfg,
            deals.get(party_id, ()),
            fines.get(party_id, ()),
            end_reason=end_reason,
            winner=winner,
        )
        forfeit = end_reason in FORFEIT_REASONS
        loser = {"a": b, "b": a}.get(winner)
        results.append(
            PartyResult(
                round=number,
                a=a,
                b=b,
                points_a=totals.points.get("a", 0),
                points_b=totals.points.get("b", 0),
                winner={"a": a, "b": b}.get(winner),
                forfeit=forfeit and b is not None,
                forfeited_by=loser if forfeit and b is not None else None,
                ended_by_time=end_reason == Party.EndReason.TIME,
                fines_a=sum(f.points for f in facts if f.side == "a"),
                fines_b=sum(f.points for f in facts if f.side == "b"),
            )
        )
    return results


def _cache_key(
    tournament: Tournament, entrant_ids: Sequence[int], per_player: bool, after_round: int | None
) -> str:
    """The cache key of a standings computation: what it depends on, digested."""
    regulations = tournament.regulations
    parts = (
        tournament.pk,
        tournament.created_at.isoformat() if tournament.created_at else "",
        tournament.rule_set,
        repr(regulations.rules_config()),
        repr(regulations.standings_config()),
        per_player,
        after_round,
        results_version(tournament),
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
) -> list[StandingRow]:
    """Rank ``entrant_ids`` (pairs, or players with ``per_player``) after ``after_round``.

    Equal entrants keep the order given. Cached under the tournament's results version.
    """
    key = _cache_key(tournament, entrant_ids, per_player, after_round) if use_cache else ""
    if use_cache:
        cached = cache.get(key)
        if cached is not None:
            return cached
    results = load_party_results(tournament, per_player=per_player, after_round=after_round)
    rows = compute_standings(
        entrant_ids, results, tournament.regulations.standings_config(), after_round
    )
    if use_cache:
        cache.set(key, rows, CACHE_SECONDS)
    return rows


def ranked_entrants(tournament: Tournament, per_player: bool) -> QuerySet:
    """The pairs (or players) the standings list, in the order that breaks full ties.

    Withdrawn and disqualified entrants keep their line; ties keep the seeding order
    (rating, best first), then registration order.
    """
    if per_player:
        return Player.objects.filter(tournament=tournament).order_by("-rating", "id")
    return (
        Pair.objects.filter(tournament=tournament, formed_in_round__isnull=True)
        .select_related("player1", "player2")
        .order_by("-rating", "id")
    )


def standings_table(
    tournament: Tournament, *, per_player: bool | None = None, after_round: int | None = None
) -> StandingsTable:
    """Standings with the pairs or players they rank, for pages and the API.

    ``per_player`` defaults to the tournament's format (individual events rank players).
    A constant number of queries, whatever the number of entrants.
    """
    if per_player is None:
        per_player = tournament.format == Tournament.Format.INDIVIDUAL
    entrants = {e.pk: e for e in ranked_entrants(tournament, per_player)}
    rows = standings_rows(
        tournament, list(entrants), per_player=per_player, after_round=after_round
    )
    return StandingsTable(
        rows=rows,
        entrants=entrants,
        per_player=per_player,
        order=tuple(tournament.regulations.standings_config().order),
        after_round=after_round,
    )
