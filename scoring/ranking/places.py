"""Final places of entrants in many tournaments at once, in a constant number of queries.

The same standings as each tournament's page (:func:`scoring.ranking.results.standings_table`): the
same counted parties and stored totals (:func:`scoring.ranking.loaders.results_from_rows`), the same
ranked entrants in the same tie order, the same engine and order — read for every tournament
in one query each rather than a few per tournament. A profile's record asks for its places
here. A tournament with a knockout stage places by its bracket first, then by those
standings (:func:`final_standings`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from scoring.models import Match, Stage, Tournament
from scoring.ranking.loaders import counted_parties, party_row_fields, results_from_rows
from scoring.ranking.results import ranked_entrants, standings_config
from scoring.standings import StandingRow, compute_standings
from scoring.standings.knockout import MatchResult, final_placings, rounds_for, slots_for


def _per_player(tournament: Tournament) -> bool:
    """Individual events rank players (their pairs change every round), others pairs."""
    return tournament.format == Tournament.Format.INDIVIDUAL


def standings_of(tournaments: Sequence[Tournament]) -> dict[int, dict[int, StandingRow]]:
    """Each tournament's standings (after its last published round) by entrant id.

    Entrants are players in individual events and registered pairs otherwise. Four queries
    for any number of tournaments, five when one has a knockout stage (plus a few per
    tournament whose stored totals are stale). A knockout stage's bracket places first.
    The tournaments should have their ``regulations`` loaded (``select_related``).
    """
    if not tournaments:
        return {}
    ids = [t.pk for t in tournaments]
    entrants: dict[int, list[int]] = defaultdict(list)
    individual = [t.pk for t in tournaments if _per_player(t)]
    in_pairs = [t.pk for t in tournaments if not _per_player(t)]
    for per_player, among in ((True, individual), (False, in_pairs)):
        if among:
            for tournament_id, pk in ranked_entrants(among, per_player).values_list(
                "tournament_id", "id"
            ):
                entrants[tournament_id].append(pk)  # the standings' own tie order
    fields, tail = party_row_fields(per_player=True, seats=True)
    rows: dict[int, list[tuple]] = defaultdict(list)
    for row in counted_parties(ids).order_by().values_list(*fields, "round__tournament_id"):
        rows[row[-1]].append(row)
    tables: dict[int, dict[int, StandingRow]] = {}
    for tournament in tournaments:
        per_player = _per_player(tournament)
        results = results_from_rows(
            tournament, rows.get(tournament.pk, []), per_player=per_player, tail=tail
        )
        ranked = compute_standings(
            entrants.get(tournament.pk, []), results, standings_config(tournament), None
        )
        tables[tournament.pk] = {row.entrant: row for row in ranked}
    brackets = _brackets(ids)
    for tournament_id, (matches, rounds) in brackets.items():
        table = tables[tournament_id]
        placed = final_rows([table[pk] for pk in sorted(table, key=lambda e: table[e].rank)],
                            matches, rounds)
        tables[tournament_id] = {row.entrant: row for row in placed}
    return tables


def _brackets(tournament_ids: Sequence[int]) -> dict[int, tuple[list[MatchResult], int]]:
    """The knockout brackets of the tournaments that have one (two queries for any number):
    their matches as the placings see them and their rounds, by tournament id."""
    stages = {
        pk: (tournament_id, size)
        for pk, tournament_id, size in Stage.objects.filter(
            tournament_id__in=tournament_ids, format=Stage.Format.KNOCKOUT,
        ).values_list("pk", "tournament_id", "bracket_size")
    }
    if not stages:
        return {}
    out: dict[int, tuple[list[MatchResult], int]] = {
        tournament_id: ([], rounds_for(slots_for(size or 2)))
        for tournament_id, size in stages.values()
    }
    rows = Match.objects.filter(stage_id__in=stages).order_by().values_list(
        "stage_id", "bracket_round", "pair_a_id", "pair_b_id", "winner_id", "third_place")
    for stage_id, bracket_round, a, b, winner, third in rows:
        out[stages[stage_id][0]][0].append(MatchResult(bracket_round, a, b, winner, third))
    return out


def final_rows(
    rows: Sequence[StandingRow], matches: Sequence[MatchResult], rounds: int
) -> list[StandingRow]:
    """The qualifying standings' rows in the tournament's final order: the bracket's places
    first (``scoring.standings.knockout.final_placings``), then the standings; each row's
    rank is its final place (none shared)."""
    by_entrant = {row.entrant: row for row in rows}
    order = final_placings(matches, rounds, [row.entrant for row in rows])
    return [
        replace(by_entrant[entrant], rank=place, shared=False)
        for place, entrant in enumerate(order, start=1) if entrant in by_entrant
    ]


def final_standings(tournament: Tournament, rows: Sequence[StandingRow]) -> list[StandingRow]:
    """A tournament's final placings from its qualifying standings' ``rows``: unchanged
    without a knockout stage, else the bracket's places first (two queries)."""
    bracket = _brackets([tournament.pk]).get(tournament.pk)
    if bracket is None:
        return list(rows)
    return final_rows(rows, *bracket)
