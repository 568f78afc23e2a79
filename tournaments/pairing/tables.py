"""Seating parties at numbered tables: standings order, fixed tables kept, swaps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from .errors import DrawUserError, _
from .types import Entrant, IndividualTable, Pairing, PlayerEntrant

P = TypeVar("P", Pairing, IndividualTable)


def fixed_tables(entrants: Sequence[Entrant | PlayerEntrant]) -> dict[int, int]:
    """Map entrant id to its fixed table, for the entrants that have one."""
    return {e.id: e.fixed_table for e in entrants if e.fixed_table is not None}


def assign_tables(
    parties: Sequence[P],
    table_numbers: Sequence[int],
    fixed: Mapping[int, int] | None = None,
) -> list[tuple[int, P]]:
    """Seat ``parties`` (in standings order) at ``table_numbers`` (in the order to fill them).

    A party with an entrant that has a fixed table (accessibility) sits there; the others take
    the remaining tables in order, so the top party gets table 1 (the first number) unless
    that is someone's fixed table. When both entrants of a party have fixed tables, the
    higher-ranked one's counts. Works for :class:`Pairing` and :class:`IndividualTable`.
    Raises :class:`DrawUserError` when tables are too few, a fixed table is not in use this
    round, or two parties need the same fixed table. Returns (table, party) by table order.
    """
    fixed = fixed or {}
    numbers = list(table_numbers)
    if len(set(numbers)) != len(numbers):
        raise ValueError("table numbers repeat")
    if len(numbers) < len(parties):
        raise DrawUserError(
            _("%(parties)d parties need tables but only %(tables)d tables are available."),
            parties=len(parties),
            tables=len(numbers),
        )
    available = set(numbers)
    seat: dict[int, P] = {}
    free: list[P] = []
    for party in parties:
        table = next((fixed[e] for e in party.entrants if e in fixed), None)
        if table is None:
            free.append(party)
            continue
        if table not in available:
            raise DrawUserError(
                _("Fixed table %(table)s is not among the tables in use this round."),
                table=table,
            )
        if table in seat:
            raise DrawUserError(_("Two parties need the same fixed table %(table)s."), table=table)
        seat[table] = party
    rest = iter(t for t in numbers if t not in seat)
    for party in free:
        seat[next(rest)] = party
    order = {t: i for i, t in enumerate(numbers)}
    return sorted(seat.items(), key=lambda item: order[item[0]])


def swap_tables(seating: Sequence[tuple[int, P]], first: int, second: int) -> list[tuple[int, P]]:
    """Swap the parties at tables ``first`` and ``second`` (an organizer's manual swap)."""
    by_table = dict(seating)
    if first not in by_table or second not in by_table:
        missing = first if first not in by_table else second
        raise DrawUserError(_("No party sits at table %(table)s."), table=missing)
    by_table[first], by_table[second] = by_table[second], by_table[first]
    return [(t, by_table[t]) for t, _p in seating]
