"""A knockout bracket as it is shown and printed: plain data for the page and the wall PDF.

The backend turns a knockout stage into a ``BracketSheet`` (labels already translated); the
HTML partial ``templates/tournaments/_bracket.html`` and ``scoring.protocols.bracket_pdf``
draw it. ``sample_sheet`` builds one without a database, for tests and benches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

#: A match's states: both sides not known yet, both known, being played, decided.
WAITING = "waiting"
READY = "ready"
PLAYING = "playing"
DECIDED = "decided"
STATUSES = (WAITING, READY, PLAYING, DECIDED)


@dataclass(frozen=True)
class SheetSlot:
    """One side of a match: its seed, its name (empty while unknown), its score, whether it won
    the match, and whether the side is a bye (no opponent: the other side goes through)."""

    seed: int | None
    name: str
    score: str
    winner: bool
    bye: bool


@dataclass(frozen=True)
class SheetMatch:
    """One match of the bracket: its label (e.g. "QF 2"), its two sides, its status (one of
    ``STATUSES``), the table it is played at, and the page of its party (or ``None``)."""

    label: str
    slots: tuple[SheetSlot, SheetSlot]
    status: str
    table: int | None
    url: str | None


@dataclass(frozen=True)
class SheetRound:
    """One round of the bracket, named by the caller (e.g. "Quarter-finals"), its matches in
    bracket order (match ``i`` feeds match ``i // 2`` of the next round)."""

    name: str
    matches: list[SheetMatch]


@dataclass(frozen=True)
class BracketSheet:
    """A whole bracket: a title and a subtitle, the rounds from the first to the final, the
    match for third place when the regulations have one, and the final placings once known."""

    title: str
    subtitle: str
    rounds: list[SheetRound]
    third_place: SheetMatch | None
    #: The final placings the bracket decided, (place, name) best first; empty until the
    #: stage is finished.
    placings: list[tuple[int, str]] = field(default_factory=list)


def seed_order(slots: int) -> list[int]:
    """The seeds of a bracket of ``slots`` (a power of two) top to bottom, in the standard order
    that lets seeds 1 and 2 meet only in the final (for 8: 1, 8, 4, 5, 2, 7, 3, 6)."""
    if slots < 2 or slots & (slots - 1):
        raise ValueError(f"a bracket has a power of two slots, not {slots}")
    order = [1, 2]
    while len(order) < slots:
        size = len(order) * 2
        order = [seed for top in order for seed in (top, size + 1 - top)]
    return order


def round_name(matches: int) -> str:
    """The English name of a round of ``matches`` matches (for samples; pages translate)."""
    return {1: "Final", 2: "Semi-finals", 4: "Quarter-finals"}.get(matches,
                                                                   f"Round of {matches * 2}")


EMPTY = SheetSlot(seed=None, name="", score="", winner=False, bye=False)
BYE = SheetSlot(seed=None, name="", score="", winner=False, bye=True)


def _slot(seed: int, names: Sequence[str]) -> SheetSlot:
    """Seed ``seed``'s side, or a bye when the field has fewer entrants than the seed."""
    if seed > len(names):
        return BYE
    return SheetSlot(seed=seed, name=names[seed - 1], score="", winner=False, bye=False)


def _play(a: SheetSlot, b: SheetSlot, label: str, table: int, decide: bool) -> SheetMatch:
    """A match between ``a`` and ``b``: decided (the better seed wins 2:1) when ``decide`` or a
    bye, else ready or waiting as far as the sides are known."""
    if a.bye and b.bye:
        return SheetMatch(label, (a, b), WAITING, None, None)
    if a.bye or b.bye:
        sides = (a, _won(b, "")) if a.bye else (_won(a, ""), b)
        return SheetMatch(label, sides, DECIDED, None, None)
    if not (a.name and b.name):
        return SheetMatch(label, (a, b), WAITING, None, None)
    if not decide:
        return SheetMatch(label, (a, b), READY, table, f"/party/{table}/")
    a_wins = (a.seed or 0) <= (b.seed or 0)
    first = _won(a, "2") if a_wins else SheetSlot(a.seed, a.name, "1", False, False)
    second = SheetSlot(b.seed, b.name, "1", False, False) if a_wins else _won(b, "2")
    return SheetMatch(label, (first, second), DECIDED, table, f"/party/{table}/")


def _won(slot: SheetSlot, score: str) -> SheetSlot:
    """``slot`` marked as the winner with ``score``."""
    return SheetSlot(slot.seed, slot.name, score, True, False)


def _advance(match: SheetMatch) -> SheetSlot:
    """The side that goes on from ``match`` (without its score), or an empty side."""
    for slot in match.slots:
        if slot.winner:
            return SheetSlot(slot.seed, slot.name, "", False, False)
    return EMPTY


def _loser(match: SheetMatch) -> SheetSlot:
    """The side that lost a decided ``match`` (for the third-place match), or an empty side."""
    if match.status != DECIDED:
        return EMPTY
    for slot in match.slots:
        if not slot.winner and not slot.bye:
            return SheetSlot(slot.seed, slot.name, "", False, False)
    return EMPTY


def sample_sheet(slots: int, names: Sequence[str] = (), decided_rounds: int = 0,
                 third_place: bool = True, title: str = "Finals",
                 subtitle: str = "") -> BracketSheet:
    """A bracket of ``slots`` for tests and benches: ``names`` by seed (fewer than ``slots``
    gives the top seeds byes; none gives "Pair N"), the first ``decided_rounds`` rounds played
    (the better seed wins), the rest ready or waiting, and a third-place match if asked."""
    order = seed_order(slots)
    field = list(names) or [f"Pair {seed}" for seed in range(1, slots + 1)]
    sides = [_slot(seed, field) for seed in order]
    rounds: list[SheetRound] = []
    table = 0
    number = 0
    while len(sides) > 1:
        count = len(sides) // 2
        name = round_name(count)
        matches = []
        for index in range(count):
            table += 1
            label = name if count == 1 else f"{name} {index + 1}"
            matches.append(_play(sides[2 * index], sides[2 * index + 1], label, table,
                                 number < decided_rounds))
        rounds.append(SheetRound(name, matches))
        sides = [_advance(match) for match in matches]
        number += 1
    third = None
    if third_place and slots >= 4:
        semis = rounds[-2].matches
        third = _play(_loser(semis[0]), _loser(semis[1]), "Third place", table + 1,
                      decided_rounds >= number)
    return BracketSheet(title=title, subtitle=subtitle, rounds=rounds, third_place=third)
