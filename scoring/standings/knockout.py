"""A knockout bracket's results: where a match's winner (and a semi-final's loser) goes next,
the rounds' names, and the final placings the bracket decides. Plain Python.

Bracket rounds count from 1 (the first) to ``rounds`` (the final); match ``position`` ``p`` of
a round feeds position ``p // 2`` of the next, on side "a" for an even ``p`` and "b" for an
odd one. The match for third place is played by the semi-finals' losers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


def slots_for(count: int) -> int:
    """The smallest power of two that holds ``count`` entrants (at least 2)."""
    slots = 2
    while slots < count:
        slots *= 2
    return slots


def rounds_for(slots: int) -> int:
    """The number of rounds of a bracket of ``slots`` slots, the final included."""
    return max(1, slots.bit_length() - 1)


@dataclass(frozen=True)
class Slot:
    """Where an entrant goes: bracket round, position in it, side ("a" or "b"), and whether it
    is the match for third place."""

    bracket_round: int
    position: int
    side: str
    third_place: bool = False


def winner_goes(bracket_round: int, position: int, rounds: int) -> Slot | None:
    """The slot a match's winner takes (None after the final)."""
    if bracket_round >= rounds:
        return None
    return Slot(bracket_round + 1, position // 2, "a" if position % 2 == 0 else "b")


def loser_goes(bracket_round: int, position: int, rounds: int, third_place: bool) -> Slot | None:
    """The slot a match's loser takes: a semi-final's loser plays for third place (when the
    stage has that match); everyone else is out (None)."""
    if not third_place or rounds < 2 or bracket_round != rounds - 1:
        return None
    return Slot(rounds, 0, "a" if position % 2 == 0 else "b", third_place=True)


def round_key(bracket_round: int, rounds: int) -> tuple[str, int]:
    """What a round is called, as a key and a number: ("final", 0), ("semi_finals", 0),
    ("quarter_finals", 0), else ("round_of", entrants), e.g. ("round_of", 16)."""
    left = rounds - bracket_round
    if left == 0:
        return ("final", 0)
    if left == 1:
        return ("semi_finals", 0)
    if left == 2:
        return ("quarter_finals", 0)
    return ("round_of", 2 ** (left + 1))


@dataclass(frozen=True)
class MatchResult:
    """A match of the bracket as the placings see it: its round and whether it is for third
    place, its two entrants (None: unknown or a bye) and its winner (None: not decided)."""

    bracket_round: int
    a: int | None
    b: int | None
    winner: int | None
    third_place: bool = False


def _loser(match: MatchResult) -> int | None:
    """The decided match's loser (None for a bye or an undecided match)."""
    if match.winner is None or match.a is None or match.b is None:
        return None
    return match.b if match.winner == match.a else match.a


def final_placings(
    matches: Sequence[MatchResult], rounds: int, previous: Sequence[int]
) -> list[int]:
    """Every entrant of ``previous`` (the previous stage's standings, best first) in final
    order: the final's winner and loser, the match for third place's winner and loser, then
    the bracket's other entrants by the round they went out in (the latest first; those
    still in before those out in the same round), ties inside a round by ``previous``; then
    everyone not in the bracket in ``previous``'s order."""
    rank = {entrant: i for i, entrant in enumerate(previous)}
    reached: dict[int, int] = {}
    out: dict[int, bool] = {}
    fixed: dict[int, int] = {}
    for match in matches:
        for entrant in (match.a, match.b):
            if entrant is None:
                continue
            if not match.third_place:
                reached[entrant] = max(reached.get(entrant, 0), match.bracket_round)
            out.setdefault(entrant, False)
        loser = _loser(match)
        if match.third_place:
            if match.winner is not None and loser is not None:
                fixed[match.winner], fixed[loser] = 2, 3
            continue
        if loser is not None:
            out[loser] = True
        if match.bracket_round == rounds and match.winner is not None:
            fixed[match.winner] = 0
            if loser is not None:
                fixed[loser] = 1
    far = len(previous) + len(reached) + 1

    def key(entrant: int) -> tuple[int, int, int, int]:
        if entrant in fixed:
            return (fixed[entrant], 0, 0, 0)
        return (4, -reached[entrant], int(out[entrant]), rank.get(entrant, far))

    bracket = sorted(reached, key=key)
    return bracket + [e for e in previous if e not in reached]


def placings_by_entrant(order: Sequence[int]) -> Mapping[int, int]:
    """Places (from 1) by entrant of an order made by :func:`final_placings`."""
    return {entrant: place for place, entrant in enumerate(order, start=1)}
