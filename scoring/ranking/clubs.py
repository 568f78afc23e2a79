"""Club and country standings of a tournament: the standings page's rows, added up per club.

The one Django entry point to them: the standings are :func:`standings_table`'s (the rows
the standings page shows, cached alike), each entrant's clubs (or countries) are its
players', compared as a person's club is (``person_key``), and
:func:`scoring.standings.club_standings` adds up the best ``club_best_results`` of each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scoring.models import Pair, Player, Tournament
from scoring.models.people import person_key
from scoring.ranking.results import StandingsTable, standings_table
from scoring.standings import METRICS, ClubRow, Metric, StandingRow, club_standings

By = Literal["club", "country"]
BY: tuple[By, ...] = ("club", "country")
"""What the entrants are grouped by: their players' clubs, or their countries."""


def _players(entrant: Pair | Player) -> tuple[Player, ...]:
    """The players of a ranked entrant (a player ranks alone)."""
    return (entrant,) if isinstance(entrant, Player) else entrant.players


def has_countries(table: StandingsTable) -> bool:
    """Whether any player the standings rank has a country (no query: they are loaded)."""
    return any(player.country for entrant in table.entrants.values()
               for player in _players(entrant))


@dataclass(frozen=True)
class ClubStandingsTable:
    """Club (or country) standings ready for a page or the API: rows in rank order, the
    standings they add up, how many results count and on which criteria."""

    rows: list[ClubRow]
    standings: StandingsTable
    by: By
    best: int

    @property
    def criteria(self) -> list[Metric]:
        """The criteria added up: the standings order's first, and its second if any."""
        return [METRICS[key] for key in self.standings.order[:2]]

    def counted(self, row: ClubRow) -> list[tuple[StandingRow, Pair | Player]]:
        """The entrants a club's row counts, each with its standings row, in rank order."""
        return [(line, self.standings.entrants[line.entrant]) for line in row.counted]


def club_standings_table(
    tournament: Tournament,
    *,
    by: By = "club",
    after_round: int | None = None,
    version: str | None = None,
) -> ClubStandingsTable:
    """The club standings (``by="country"``: the country standings) after ``after_round``.

    Entrants as the standings rank them: pairs, or players in an individual tournament. The
    same queries as :func:`standings_table`, none more.
    """
    if by not in BY:
        raise ValueError(f"club standings are by club or by country, not {by!r}")
    table = standings_table(tournament, after_round=after_round, version=version)
    clubs = {
        pk: [getattr(player, by) for player in _players(entrant)]
        for pk, entrant in table.entrants.items()
    }
    best = max(1, tournament.regulations.club_best_results)  # a tournament file may hold 0
    rows = club_standings(table.rows, clubs, table.order, best, key=person_key)
    return ClubStandingsTable(rows=rows, standings=table, by=by, best=best)
