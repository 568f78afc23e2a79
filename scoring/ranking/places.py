"""Final places of entrants in many tournaments at once, in a constant number of queries.

The same standings as each tournament's page (:func:`scoring.ranking.results.standings_table`): the
same counted parties and stored totals (:func:`scoring.ranking.loaders.results_from_rows`), the same
ranked entrants in the same tie order, the same engine and order — read for every tournament
in one query each rather than a few per tournament. A profile's record asks for its places
here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from scoring.models import Tournament
from scoring.ranking.loaders import counted_parties, party_row_fields, results_from_rows
from scoring.ranking.results import ranked_entrants, standings_config
from scoring.standings import StandingRow, compute_standings


def _per_player(tournament: Tournament) -> bool:
    """Individual events rank players (their pairs change every round), others pairs."""
    return tournament.format == Tournament.Format.INDIVIDUAL


def standings_of(tournaments: Sequence[Tournament]) -> dict[int, dict[int, StandingRow]]:
    """Each tournament's standings (after its last published round) by entrant id.

    Entrants are players in individual events and registered pairs otherwise. Three queries
    for any number of tournaments (plus a few per tournament whose stored totals are stale).
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
    return tables
