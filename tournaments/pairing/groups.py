"""Groups for round robins: the field split into N groups by snake seeding. Plain Python.

Entrants come best first; group ``i`` takes seed ``i`` of the first row, the second row runs
back (the group that took the weakest of the first row takes the best of the second), and so
on. Optionally no two entrants of one club share a group where a swap inside the same row (pot)
can avoid it.
"""

from __future__ import annotations

import string
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from .errors import FieldError, _


@dataclass(frozen=True)
class GroupEntrant:
    """An entrant as the group draw sees it: id and club (empty: none)."""

    id: int
    club: str = ""


def group_names(count: int) -> list[str]:
    """The groups' names: A, B, C … (then A2, B2 … past Z)."""
    letters = string.ascii_uppercase
    return [letters[i % 26] + (str(i // 26 + 1) if i >= 26 else "") for i in range(count)]


def check_groups(count: int, entrants: int) -> None:
    """Refuse a group count that leaves a group with fewer than two entrants (``FieldError``
    on "group_count")."""
    if count < 1:
        raise FieldError("group_count", _("There must be at least one group."))
    if entrants // count < 2:
        raise FieldError(
            "group_count",
            _("%(count)s groups of %(entrants)s entrants leave a group with fewer than two."),
            count=count, entrants=entrants,
        )


def hand_groups(
    groups: Sequence[Sequence[int]], entrants: Collection[int], *,
    names: Mapping[int, str] | None = None, count: int | None = None,
) -> list[list[int]]:
    """Check the organizer's own split (entrant ids per group, in the order given) and return
    it: every entrant of ``entrants`` (those who may still play) in exactly one group, no one
    else, each group of two or more, and as many groups as ``count`` when it is given.

    ``FieldError`` on "groups" otherwise, naming the entrants at fault by ``names`` (their
    ids, "#12", for an id not named) and the groups by their letters.
    """
    names = names or {}
    allowed = set(entrants)

    def listed(ids: Sequence[int]) -> str:
        return ", ".join(names.get(pk, f"#{pk}") for pk in ids)

    if not groups:
        raise FieldError("groups", _("There must be at least one group."))
    if count is not None and count != len(groups):
        raise FieldError(
            "groups", _("%(given)s groups given, but the group count is %(count)s."),
            given=len(groups), count=count,
        )
    seen: set[int] = set()
    twice: list[int] = []
    for group in groups:
        for pk in group:
            if pk in seen and pk not in twice:
                twice.append(pk)
            seen.add(pk)
    if twice:
        raise FieldError("groups", _("Listed more than once: %(pairs)s."), pairs=listed(twice))
    unknown = [pk for group in groups for pk in group if pk not in allowed]
    if unknown:
        raise FieldError(
            "groups", _("Not in the field that may still play: %(pairs)s."),
            pairs=listed(unknown),
        )
    missing = [pk for pk in entrants if pk not in seen]
    if missing:
        raise FieldError("groups", _("In no group: %(pairs)s."), pairs=listed(missing))
    small = [name for name, group in zip(group_names(len(groups)), groups, strict=True)
             if len(group) < 2]
    if small:
        raise FieldError(
            "groups", _("Each group needs at least two pairs: too few in %(groups)s."),
            groups=", ".join(small),
        )
    return [list(group) for group in groups]


def snake_groups(
    entrants: Sequence[GroupEntrant], count: int, *, avoid_same_club: bool = False
) -> list[list[int]]:
    """Split ``entrants`` (best first) into ``count`` groups by snake seeding; each group's ids
    best first. With ``avoid_same_club`` an entrant whose club its snake group already has
    swaps places with another of the same row where that clears the clash."""
    check_groups(count, len(entrants))
    groups: list[list[GroupEntrant]] = [[] for _ in range(count)]
    for start in range(0, len(entrants), count):
        row = list(entrants[start:start + count])
        order = list(range(count)) if (start // count) % 2 == 0 else list(range(count))[::-1]
        targets = order[: len(row)]
        if avoid_same_club:
            row = _spread_clubs(row, targets, groups)
        for entrant, target in zip(row, targets, strict=True):
            groups[target].append(entrant)
    return [[e.id for e in group] for group in groups]


def _clubs(group: list[GroupEntrant]) -> set[str]:
    """The clubs already in a group."""
    return {e.club for e in group if e.club}


def _spread_clubs(
    row: list[GroupEntrant], targets: list[int], groups: list[list[GroupEntrant]]
) -> list[GroupEntrant]:
    """Reorder one row so as few entrants as possible join a group of their own club: swap a
    clashing entrant with the nearest one of the row whom the swap suits both ways."""
    row = list(row)
    for i in range(len(row)):
        if not row[i].club or row[i].club not in _clubs(groups[targets[i]]):
            continue
        for j in sorted(range(len(row)), key=lambda k: abs(k - i)):
            if j == i:
                continue
            fits_i = row[i].club not in _clubs(groups[targets[j]])
            fits_j = not row[j].club or row[j].club not in _clubs(groups[targets[i]])
            j_was_fine = not row[j].club or row[j].club not in _clubs(groups[targets[j]])
            if fits_i and fits_j and (j > i or j_was_fine):
                row[i], row[j] = row[j], row[i]
                break
    return row
