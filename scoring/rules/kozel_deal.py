"""Kozel around its deals (RULES.md section 3, [000]): the ratings after a game, the redeal, the
first lead.

A player's rating after a game is (100 − his points) / 10, rounded half up; a hand of five
doubles or six tiles of one number is dealt again (:func:`check_redeal`, the referee's
"redeal" ruling); the lowest double (then 0-0, then the highest tile) opens a game's first
deal. :class:`~scoring.rules.kozel.Kozel` rates its parties with :func:`ratings`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.rules.counts import round_half_up
from scoring.rules.errors import RuleError, _
from scoring.rules.hands import ZERO_ZERO
from scoring.rules.moves import HIGHEST, Tile, _check_unique, _read_tiles

RATING_BASE = 100
"""A player's rating after a game: (100 − his points) / 10, rounded half up."""
RATING_DIVISOR = 10


def rating(points: int) -> int:
    """A player's rating after a game: (100 − points) / 10, rounded half up (25 → 8)."""
    return round_half_up(RATING_BASE - points, RATING_DIVISOR)


def ratings(points: Mapping[str, int], timed_out: str | None = None) -> dict[str, int]:
    """Every player's rating after a game.

    A game stopped by a player's timeout: he gets nothing (0); every other player gets
    (his points − their points) / 10, rounded half up, but at least 1.
    """
    for side, value in points.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError("points", _("Points are a whole number (%(key)s)."), key=side)
    if timed_out is None:
        return {side: rating(value) for side, value in points.items()}
    if timed_out not in points:
        raise RuleError("timed_out", _("Unknown player: %(key)s."), key=timed_out)
    return {
        side: 0
        if side == timed_out
        else max(1, round_half_up(points[timed_out] - value, RATING_DIVISOR))
        for side, value in points.items()
    }


# -- the deal -------------------------------------------------------------------------------

REDEAL_DOUBLES = 5
REDEAL_SAME_NUMBER = 6
FIVE_DOUBLES = "five_doubles"
SIX_OF_A_NUMBER = "six_of_a_number"
REDEAL_REASONS: Mapping[str, str] = {
    FIVE_DOUBLES: _("five or more doubles"),
    SIX_OF_A_NUMBER: _("six or more tiles of one number"),
}
"""Why a hand is dealt again (seed 000): reason code → English label, marked for translation."""


def redeal_reasons(hand: Sequence[Tile]) -> tuple[str, ...]:
    """Why a hand forces a redeal: five or more doubles, six or more tiles of one number
    (the codes of :data:`REDEAL_REASONS`; empty: the hand is played as dealt)."""
    tiles = _read_tiles(hand, "hand")
    doubles = sum(1 for a, b in tiles if a == b)
    most = max((sum(1 for tile in tiles if n in tile) for n in range(HIGHEST + 1)), default=0)
    found = (
        (FIVE_DOUBLES, doubles >= REDEAL_DOUBLES),
        (SIX_OF_A_NUMBER, most >= REDEAL_SAME_NUMBER),
    )
    return tuple(reason for reason, applies in found if applies)


def check_redeal(hand: Sequence[Tile] | None, reason: str, hand_size: int) -> str:
    """The reason a hand is dealt again, checked; RuleError naming ``hand`` or ``reason``.

    ``hand``: the tiles the referee entered (at most the ``hand_size`` dealt; the offending
    ones suffice), which must show a reason; without them the referee confirms ``reason``.
    A reason named with tiles must be one the tiles show.
    """
    if reason and reason not in REDEAL_REASONS:
        raise RuleError("reason", _("Unknown reason for a redeal: %(reason)s."), reason=reason)
    if not hand:
        if not reason:
            raise RuleError(
                "hand",
                _("Enter the hand's tiles, or confirm the reason: five or more doubles, or six "
                  "or more tiles of one number."),
            )
        return reason
    tiles = _read_tiles(hand, "hand")
    if len(tiles) > hand_size:
        raise RuleError("hand", _("A hand holds at most %(size)s tiles."), size=hand_size)
    _check_unique(tiles, [])
    found = redeal_reasons(tiles)
    if not found:
        raise RuleError(
            "hand",
            _("This hand is played as dealt: a redeal needs five or more doubles, or six or "
              "more tiles of one number."),
        )
    if reason and reason not in found:
        raise RuleError("reason", _("The tiles entered do not show that reason."))
    return reason or found[0]


LEAD_ORDER: tuple[Tile, ...] = (
    *((n, n) for n in range(1, HIGHEST + 1)),
    ZERO_ZERO,
    *sorted(
        ((a, b) for a in range(HIGHEST + 1) for b in range(a + 1, HIGHEST + 1)),
        key=lambda tile: (tile[0] + tile[1], tile[1]),
        reverse=True,
    ),
)
"""Who opens a game's first deal: 1-1, 2-2 … 6-6, then 0-0; without doubles 5-6 and down."""


def first_lead(hands: Mapping[str, Sequence[Tile]]) -> tuple[str, Tile]:
    """The seat that opens a game's first deal and the tile he must lead."""
    held = {}
    for seat, hand in hands.items():
        for a, b in _read_tiles(hand, "hands"):
            held[(min(a, b), max(a, b))] = seat
    for tile in LEAD_ORDER:
        if tile in held:
            return held[tile], tile
    raise RuleError("hands", _("Nobody holds a tile."))
