"""All Fives' open-end count (RULES.md section 3; seed 003): the score of a play.

After a play the open ends of the line are added up, a double lying crosswise at an end
counting both halves; a multiple of five scores that sum for the player. The line has two
open ends, or up to four once the spinner (the first double) has tiles on both sides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.rules.errors import RuleError, _
from scoring.rules.moves import HIGHEST, MAX_OPEN_ENDS, Tile, _is_number, _read_tiles


@dataclass(frozen=True)
class EndsCount:
    """The open ends' sum after a play and the points it scores (0 unless a multiple of 5)."""

    total: int
    points: int


def _end_value(end: object) -> int:
    """One open end: a number (the exposed half) or a double (both halves count)."""
    if _is_number(end):
        return int(end)
    tile: Tile = _read_tiles([end], "ends")[0]
    if tile[0] != tile[1]:
        raise RuleError(
            "ends",
            _("An open end is a number from 0 to %(highest)s, or a double lying across it."),
            highest=HIGHEST,
        )
    return 2 * tile[0]


def count_open_ends(ends: Sequence[object]) -> EndsCount:
    """Add up the open ends after a play: ``[3, (6, 6)]`` → 15 points, ``[(5, 5), (0, 0)]`` → 10.

    ``ends`` lists each open end as the number it shows or as a double (a lone first double is
    one end). Raises RuleError naming ``ends`` for no end, more than four, or a non-double
    tile.
    """
    if isinstance(ends, str | bytes) or not isinstance(ends, Sequence):
        raise RuleError("ends", _("Give the open ends of the line."))
    if not 1 <= len(ends) <= MAX_OPEN_ENDS:
        raise RuleError(
            "ends", _("A line has one to %(most)s open ends."), most=MAX_OPEN_ENDS
        )
    total = sum(_end_value(end) for end in ends)
    return EndsCount(total=total, points=total if total and total % 5 == 0 else 0)
