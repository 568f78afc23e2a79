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
from functools import reduce
from operator import add, itemgetter
from typing import Final, NamedTuple, TypeAlias

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


PlacingRow: TypeAlias = tuple[int, int, int, float, float | None]
"""A placing as a plain tuple in :class:`Placing`'s field order (as a database reads it)."""


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


RANK_KEY: Final = 0
"""The fields of a line's ranked result, a plain tuple (a season of 50,000 placings makes no
object per result): ``(-value, position, index, tournament, place, value)``: the season points
negated (so that tuples sort best first), the tournament's position in the season's order, the
placing's index in the input (equal results keep it), the tournament, the place, the points."""
POSITION: Final = 1
INDEX: Final = 2
TOURNAMENT: Final = 3
PLACE: Final = 4
VALUE: Final = 5

Result = tuple[float, int, int, int, int, float]


@dataclass
class SeasonLine:
    """One person's line of the season table."""

    profile: int
    total: float = 0
    results: list[Result] = field(default_factory=list)
    """His results, best first (see :data:`RANK_KEY`); the first ``counting`` of them count."""
    counting: int = 0
    wins: int = 0
    best: float = 0
    played: int = 0
    rank: int = 0
    shared: bool = False

    @property
    def cells(self) -> dict[int, Cell]:
        """Each tournament's result, best first: place, season points, counted or not."""
        counting = self.counting
        return {result[TOURNAMENT]: Cell(result[PLACE], result[VALUE], index < counting)
                for index, result in enumerate(self.results)}

    def key(self, tie_breaks: Sequence[str]) -> tuple[float, ...]:
        """The line's sort key, best first when sorted descending: total, then tie-breaks."""
        return (self.total, *(getattr(self, name) for name in tie_breaks))


def _clean(number: float) -> float:
    """A sum without floating-point dust (0.1 + 0.2 is 0.3), as an int when whole."""
    number = round(number, 6)
    return int(number) if number == int(number) else number


def _values(placings: Sequence[PlacingRow], rule: SeasonRule) -> list[float | None]:
    """Each placing's season points under the rule (:meth:`SeasonRule.value`, for a list)."""
    if rule.scoring == BEST_N:
        return [placing[3] for placing in placings]
    if rule.scoring == RATING_POINTS:
        return [placing[4] for placing in placings]
    points, size = rule.place_points, len(rule.place_points)
    return [points[placing[2] - 1] if 0 < placing[2] <= size else 0 for placing in placings]


def season_table(
    placings: Iterable[PlacingRow], rule: SeasonRule, tournaments: Sequence[int] = ()
) -> list[SeasonLine]:
    """Rank every person with a result: totals, counted and dropped results, shared places.

    ``placings`` may be :class:`Placing` or plain tuples in its field order (as a database
    reads them). ``tournaments`` gives the season's order of events (earlier first), which
    decides which of two equal results is counted when only the best N count; people equal on
    the total and on every tie-break share a place and keep the order of their first placing.
    """
    placings = placings if isinstance(placings, list) else list(placings)
    position = {pk: index for index, pk in enumerate(tournaments)}.get
    by_person: dict[int, list[Result]] = {}
    found_for = by_person.get
    for index, ((tournament, profile, place, _score, _rating), value) in enumerate(
        zip(placings, _values(placings, rule), strict=True)
    ):
        if value is None:
            continue
        result = (-value, position(tournament, 0), index, tournament, place, value)
        found = found_for(profile)
        if found is None:
            by_person[profile] = [result]
        else:
            found.append(result)
    best_n = rule.best_n
    place_of, value_of = itemgetter(PLACE), itemgetter(VALUE)
    lines: list[SeasonLine] = []
    append = lines.append
    for profile, ranked in by_person.items():
        ranked.sort()  # best first; equal points: the earlier tournament, then the input order
        played = len(ranked)
        counting = played if best_n is None or best_n > played else best_n
        total = reduce(add, map(value_of, ranked[:counting]), 0.0)  # in order, as people add
        append(SeasonLine(profile, _clean(total), ranked, counting,
                          list(map(place_of, ranked)).count(1), ranked[0][VALUE], played))
    lines.sort(key=lambda line: line.key(rule.tie_breaks), reverse=True)
    previous: tuple[float, ...] | None = None
    for position_, line in enumerate(lines, start=1):
        key = line.key(rule.tie_breaks)
        if key == previous:
            line.rank = lines[position_ - 2].rank
            line.shared = lines[position_ - 2].shared = True
        else:
            line.rank = position_
        previous = key
    return lines
