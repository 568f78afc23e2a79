"""The knockout draw: the standard bracket order, byes to the best seeds, cross-over from groups.

A bracket has 2^k slots; seed ``s`` sits where the standard order puts it (for 8: 1, 8, 4, 5, 2,
7, 3, 6), so the top two seeds can meet only in the final. A field that is not a power of two
leaves the slots of the missing seeds empty: the best seeds get those byes. Plain Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.standings.bracket import seed_order
from scoring.standings.knockout import rounds_for, slots_for

from .errors import FieldError, _

__all__ = ["Opening", "Seeded", "check_field", "cross_over", "rounds_for", "seed_bracket",
           "seed_order", "slots_for"]


@dataclass(frozen=True)
class Seeded:
    """One side of a bracket's first round: its seed (1 = best) and its entrant's id."""

    seed: int
    entrant: int


@dataclass(frozen=True)
class Opening:
    """A first-round match at ``position`` (top to bottom, from 0): two seeded sides, or one
    and a bye (``None``): that side goes through without playing."""

    position: int
    a: Seeded | None
    b: Seeded | None

    @property
    def bye(self) -> bool:
        """Whether one side has no opponent."""
        return self.a is None or self.b is None


def check_field(size: int, available: int) -> None:
    """Refuse a bracket of ``size`` entrants the field cannot fill (``available`` qualify), or a
    bracket of fewer than two (``FieldError`` on "bracket_size")."""
    if size < 2:
        raise FieldError("bracket_size", _("A bracket needs at least two entrants."))
    if size > available:
        raise FieldError(
            "bracket_size",
            _("The bracket of %(size)s is larger than the qualified field of %(available)s."),
            size=size, available=available,
        )


def seed_bracket(seeded: Sequence[int]) -> list[Opening]:
    """The first round of a bracket for the entrants ``seeded`` (best first): standard order,
    byes to the best seeds when the field is not a power of two."""
    check_field(len(seeded), len(seeded))
    if len(set(seeded)) != len(seeded):
        raise FieldError("qualifiers", _("An entrant is listed twice among the qualifiers."))
    order = seed_order(slots_for(len(seeded)))
    sides = [Seeded(s, seeded[s - 1]) if s <= len(seeded) else None for s in order]
    return [Opening(i // 2, sides[i], sides[i + 1]) for i in range(0, len(sides), 2)]


def cross_over(groups: Sequence[Sequence[int]], advance: int) -> list[Opening]:
    """The first round from groups' standings (each group best first), ``advance`` from each.

    Two from each of an even number of groups cross over: A1 v B2, C1 v D2 … in the top half,
    B1 v A2, D1 v C2 … in the bottom, so a group's two meet only in the final and the winners
    of paired groups only then too. Otherwise the places are seeded place by place (every
    group's first, then every second …) in the standard order.
    """
    if len(groups) < 1 or advance < 1:
        raise FieldError("advance", _("At least one entrant must go on from each group."))
    for group in groups:
        if len(group) < advance:
            raise FieldError(
                "advance",
                _("A group has fewer than %(advance)s entrants to go on."), advance=advance,
            )
    if advance != 2 or len(groups) % 2 or slots_for(2 * len(groups)) != 2 * len(groups):
        return seed_bracket([g[place] for place in range(advance) for g in groups])
    top: list[tuple[int, int]] = []
    bottom: list[tuple[int, int]] = []
    for first, second in zip(groups[0::2], groups[1::2], strict=True):
        top.append((first[0], second[1]))
        bottom.append((second[0], first[1]))
    seeds = {entrant: n for n, entrant in
             enumerate([g[place] for place in range(2) for g in groups], start=1)}
    return [
        Opening(i, Seeded(seeds[a], a), Seeded(seeds[b], b))
        for i, (a, b) in enumerate(top + bottom)
    ]
