"""Club and country standings: the best results of each club's entrants, added up.

Plain Python over the tournament's standings rows (:class:`StandingRow`, in rank order): a
club's entrants are the ranked pairs (or players) with a player of the club; its best
``best`` entrants — the first in the standings — count. Clubs are ranked by the sum of the
counted entrants' first criterion of the standings order, then by the sum of its second
criterion, then by the best single rank among them; clubs equal on all three share a rank.
A pair of players of two clubs counts for each; an entrant without a club counts for none.
Countries are ranked the same way (the caller gives each entrant's countries instead).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .metrics import METRICS, Number
from .types import StandingRow


@dataclass(frozen=True)
class ClubRow:
    """One club (or country) of the club standings.

    ``name`` is the club as its best entrant spells it; ``rank`` is shared (1, 2, 2, 4) by
    clubs equal on ``total``, ``tie_break`` and ``best_rank``. ``total`` sums the counted
    entrants' first criterion, ``tie_break`` their second (None when the order has one
    criterion); ``best_rank`` is the best standings rank among them; ``counted`` lists them
    (their standings rows, in rank order).
    """

    name: str
    rank: int
    shared: bool
    total: Number
    tie_break: Number | None
    best_rank: int
    counted: tuple[StandingRow, ...]


def _key(text: str) -> str:
    """A club's name as compared by default: case and runs of spaces do not matter."""
    return " ".join(text.split()).casefold()


def club_standings(
    rows: Sequence[StandingRow],
    clubs: Mapping[int, Sequence[str]],
    order: Sequence[str],
    best: int,
    *,
    key: Callable[[str], str] = _key,
) -> list[ClubRow]:
    """Rank the clubs of ``clubs`` (each entrant's clubs, by entrant id) by their ``best``
    best results in ``rows`` (the standings, in rank order), on the first two criteria of
    ``order``.

    ``key`` gives the form in which two spellings of one club compare equal; an empty club
    counts for nobody. A club with fewer than ``best`` entrants counts those it has.
    """
    if best < 1:
        raise ValueError("at least one result counts per club")
    if not order:
        raise ValueError("the standings order names no criterion")
    first, second = METRICS[order[0]], (METRICS[order[1]] if len(order) > 1 else None)
    names: dict[str, str] = {}
    counted: dict[str, list[StandingRow]] = {}
    for row in rows:
        seen: set[str] = set()
        for club in clubs.get(row.entrant, ()):
            found = key(club)
            if not found or found in seen:
                continue
            seen.add(found)
            names.setdefault(found, " ".join(club.split()))
            entrants = counted.setdefault(found, [])
            if len(entrants) < best:
                entrants.append(row)
    lines = []
    for found, entrants in counted.items():
        total = sum(row.metrics[first.key] for row in entrants)
        tie_break = None if second is None else sum(row.metrics[second.key] for row in entrants)
        lines.append((found, total, tie_break, min(row.rank for row in entrants)))

    def sort_key(line: tuple[str, Number, Number | None, int]) -> tuple[Number, Number, int]:
        _found, total, tie_break, best_rank = line
        return (
            -total if first.higher_is_better else total,
            0 if second is None or tie_break is None
            else (-tie_break if second.higher_is_better else tie_break),
            best_rank,
        )

    lines.sort(key=lambda line: (sort_key(line), names[line[0]].casefold()))
    out: list[ClubRow] = []
    for index, line in enumerate(lines):
        found, total, tie_break, best_rank = line
        ahead = index > 0 and sort_key(lines[index - 1]) == sort_key(line)
        behind = index + 1 < len(lines) and sort_key(lines[index + 1]) == sort_key(line)
        rank = out[-1].rank if ahead else index + 1
        out.append(ClubRow(
            name=names[found], rank=rank, shared=ahead or behind, total=total,
            tie_break=tie_break, best_rank=best_rank, counted=tuple(counted[found]),
        ))
    return out
