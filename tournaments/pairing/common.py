"""Helpers shared by the draw systems: ordering the field, the bye, checks, seeds."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Protocol, TypeVar

from .errors import DrawUserError, _

FIRST_ROUND_MODES = ("seeding", "lot")


class Ranked(Protocol):
    """What the ordering helpers need of an entrant or a player (read-only: frozen data)."""

    @property
    def id(self) -> int:
        """The entrant's (or player's) id."""

    @property
    def rank(self) -> int:
        """The position in the current standings (0 = best)."""

    @property
    def score(self) -> float:
        """The match points."""

    @property
    def rating(self) -> float:
        """The seeding strength of a seeded first round."""

    @property
    def had_bye(self) -> int:
        """How many byes so far."""


R = TypeVar("R", bound=Ranked)


def check_unique(items: Sequence[Ranked]) -> None:
    """Raise ``ValueError`` when an id occurs twice (a bug in the caller, not a user error)."""
    ids = [e.id for e in items]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate entrant ids passed to the draw engine")


def new_seed() -> int:
    """Return a fresh random seed to record with a draw by lot."""
    return secrets.randbelow(2**31)


def draw_order(
    items: Sequence[R], *, round_number: int, first_round: str, seed: int | None
) -> tuple[list[R], int | None]:
    """Order the field for pairing and return ``(ordered, seed used)``.

    Round 1 by ``"seeding"`` orders by rating (best first, then rank, then id); by ``"lot"``
    shuffles the field (sorted by id first, so the input order does not matter) with ``seed``,
    drawing a new seed when none is given. Later rounds order by score, then standings rank.
    """
    if first_round not in FIRST_ROUND_MODES:
        raise ValueError(f"first_round must be one of {FIRST_ROUND_MODES}, not {first_round!r}")
    if round_number <= 1:
        if first_round == "lot":
            if seed is None:
                seed = new_seed()
            ordered = sorted(items, key=lambda e: e.id)
            random.Random(seed).shuffle(ordered)
            return ordered, seed
        return sorted(items, key=lambda e: (-e.rating, e.rank, e.id)), seed
    return sorted(items, key=lambda e: (-e.score, e.rank, e.id)), seed


def bye_candidates(byes_had: Sequence[int], count: int) -> tuple[list[int], list[int], int]:
    """Split positions for ``count`` byes into (must, flexible candidates, flexible slots).

    Byes go to the entrants with the fewest byes so far, the lowest-ranked first. ``must`` are
    the positions that get a bye whatever happens (strictly fewer byes than the last one
    needed); the remaining ``slots`` byes go to some of ``candidates`` (all with the same
    number of byes), by default the lowest-ranked ones.
    """
    if count == 0:
        return [], [], 0
    order = sorted(range(len(byes_had)), key=lambda i: (byes_had[i], -i))
    level = byes_had[order[count - 1]]
    must = [i for i in order[:count] if byes_had[i] < level]
    candidates = sorted(i for i, b in enumerate(byes_had) if b == level)
    return must, candidates, count - len(must)


def too_few(count: int, needed: int) -> DrawUserError:
    """Return the error for a field too small to draw."""
    return DrawUserError(
        _("At least %(needed)d entrants are needed for a draw; %(count)d are available."),
        needed=needed,
        count=count,
    )
