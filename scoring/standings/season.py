"""The season table: each person's tournament placings under the season's rule (plain Python).

A *placing* is a person's result in one tournament of the season, as that tournament's own
standings give it: his place (shared places repeat: 1, 2, 2, 4), his score (the tournament's
main standings figure: match points, or the rating points where the order ranks by them, as in
Kozel) and, in Kozel tournaments, his rating points. Both players of a pair get the pair's
placing. The season's rule turns each placing into season points:

- ``best_n``: the score;
- ``place_points``: the table's points for his place (1st, 2nd, 3rd…; beyond the table 0);
- ``rating_points``: the Kozel rating points (a tournament without them gives no result).

With ``best_n`` set only each person's best N results count (the others are shown as dropped).
Lines are ranked by the total, then by the season's tie-breaks in order (:data:`TIE_BREAKS`);
lines equal on all of them share a place.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

BEST_N, PLACE_POINTS, RATING_POINTS = "best_n", "place_points", "rating_points"
SCORINGS = (BEST_N, PLACE_POINTS, RATING_POINTS)

TIE_BREAKS = ("wins", "best", "played")
"""The tie-breaks a season may use, in the default order: more tournaments won (1st place,
shared or not), the best single result (season points of one tournament), more tournaments
played."""


class Placing(NamedTuple):
    """One person's result in one tournament, as its standings give it (a tuple: a season of
    50 tournaments × 1,000 players makes 50,000)."""

    tournament: int
    profile: int
    place: int
    score: float
    rating_points: float | None = None


@dataclass(frozen=True)
class SeasonRule:
    """The season's scoring rule: what a placing is worth, how many count, the tie-breaks."""

    scoring: str = PLACE_POINTS
    best_n: int | None = None
    place_points: tuple[float, ...] = ()
    tie_breaks: tuple[str, ...] = TIE_BREAKS

    def __post_init__(self) -> None:
        """Refuse an unknown rule or tie-break (the forms offer only the known ones)."""
        if self.scoring not in SCORINGS:
            raise ValueError(f"unknown season scoring {self.scoring!r}")
        unknown = [key for key in self.tie_breaks if key not in TIE_BREAKS]
        if unknown:
            raise ValueError(f"unknown tie-breaks {unknown}")
        if self.best_n is not None and self.best_n < 1:
            raise ValueError("best_n counts at least one result")

    def value(self, placing: Placing) -> float | None:
        """The season points of one placing (None: not a result under this rule)."""
        if self.scoring == BEST_N:
            return placing.score
        if self.scoring == PLACE_POINTS:
            index = placing.place - 1
            return self.place_points[index] if 0 <= index < len(self.place_points) else 0
        return placing.rating_points


class Cell(NamedTuple):
    """One tournament's result on a season line: the place, the season points, counted or not."""

    place: int
    value: float
    counted: bool


@dataclass
class SeasonLine:
    """One person's line of the season table."""

    profile: int
    total: float = 0
    cells: dict[int, Cell] = field(default_factory=dict)
    wins: int = 0
    best: float = 0
    played: int = 0
    rank: int = 0
    shared: bool = False

    def key(self, tie_breaks: Sequence[str]) -> tuple[float, ...]:
        """The line's sort key, best first when sorted descending: total, then tie-breaks."""
        return (self.total, *(getattr(self, name) for name in tie_breaks))


def _clean(number: float) -> float:
    """A sum without floating-point dust (0.1 + 0.2 is 0.3), as an int when whole."""
    number = round(number, 6)
    return int(number) if number == int(number) else number


def season_table(
    placings: Iterable[Placing], rule: SeasonRule, tournaments: Sequence[int] = ()
) -> list[SeasonLine]:
    """Rank every person with a result: totals, counted and dropped results, shared places.

    ``tournaments`` gives the season's order of events (earlier first), which decides which of
    two equal results is counted when only the best N count; people equal on the total and on
    every tie-break share a place and keep the order of their first placing.
    """
    order = {pk: index for index, pk in enumerate(tournaments)}
    by_person: dict[int, list[tuple[Placing, float]]] = {}
    value_of = rule.value
    for placing in placings:
        value = value_of(placing)
        if value is None:
            continue
        found = by_person.get(placing.profile)
        if found is None:
            by_person[placing.profile] = [(placing, value)]
        else:
            found.append((placing, value))
    lines: list[SeasonLine] = []
    for profile, results in by_person.items():
        ranked = sorted(results, key=lambda pv: (-pv[1], order.get(pv[0].tournament, 0)))
        limit = len(ranked) if rule.best_n is None else rule.best_n
        line = SeasonLine(profile, played=len(ranked))
        total = 0.0
        for index, (placing, value) in enumerate(ranked):
            counted = index < limit
            if counted:
                total += value
            line.cells[placing.tournament] = Cell(placing.place, value, counted)
            if placing.place == 1:
                line.wins += 1
        line.total = _clean(total)
        line.best = ranked[0][1]
        lines.append(line)
    lines.sort(key=lambda line: line.key(rule.tie_breaks), reverse=True)
    previous: tuple[float, ...] | None = None
    for position, line in enumerate(lines, start=1):
        key = line.key(rule.tie_breaks)
        if key == previous:
            line.rank = lines[position - 2].rank
            line.shared = lines[position - 2].shared = True
        else:
            line.rank = position
        previous = key
    return lines
