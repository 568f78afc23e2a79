"""Team matches at the tables (plain Python, no Django): two tables next to each other per
team match, and the parties of a team match from the two line-ups.

A team match seats board 1 at table ``n`` and board 2 at ``n + 1``. Its first half is A1–B1
(board 1) and A2–B2 (board 2); with two halves the second half, at the same tables, swaps the
opponents: A1–B2 at board 1's table, A2–B1 at board 2's.
"""

from __future__ import annotations

from collections.abc import Sequence

BOARDS = 2
"""Boards (tables) of a team match in each half (``scoring.models.BOARDS``)."""


def _(message: str) -> str:
    """Mark ``message`` for translation; the Django layer translates it."""
    return message


class TablesError(Exception):
    """Too few tables next to each other: a message template, its parameters, the field."""

    field = "tables"

    def __init__(self, message: str, **params: object) -> None:
        self.message, self.params = message, params
        super().__init__(message % params)


def adjacent_tables(numbers: Sequence[int], matches: int) -> list[int]:
    """The first table of each of ``matches`` team matches: pairs of consecutive table
    numbers, lowest first, no table used twice. Refused when there are too few."""
    free = sorted(set(numbers))
    available = set(free)
    firsts: list[int] = []
    used: set[int] = set()
    for n in free:
        if len(firsts) == matches:
            break
        if n in used or n + 1 not in available:
            continue
        firsts.append(n)
        used.update((n, n + 1))
    if len(firsts) < matches:
        raise TablesError(
            _("%(matches)s team matches need %(needed)s tables, two next to each other for "
              "each; the tournament has %(pairs)s such pairs of tables."),
            matches=matches, needed=BOARDS * matches, pairs=len(firsts),
        )
    return firsts


def team_seats(
    lineup_a: Sequence[int], lineup_b: Sequence[int], *, halves: bool
) -> list[tuple[int, int, int, int]]:
    """The parties of a team match as (half, board, pair of team A, pair of team B)."""
    if len(lineup_a) != BOARDS or len(lineup_b) != BOARDS:
        raise ValueError("a team match's line-up is two pairs")
    a1, a2 = lineup_a
    b1, b2 = lineup_b
    seats = [(1, 1, a1, b1), (1, 2, a2, b2)]
    if halves:
        seats += [(2, 1, a1, b2), (2, 2, a2, b1)]
    return seats
