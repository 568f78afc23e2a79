"""The referee's move-time helper (RULES.md section 1, "Time per move").

Given a player's hand and the open ends of the line, say which tiles can be played, how many
distinct moves there are and how long the player may think: 5 seconds for a single possible
move, 20 for several, 60 when some move would end the deal with a fish. A player who says
"pass" while he holds a playable tile makes a false pass.

A fish: both ends of the line show one number and every tile of it is on the table. Kozel
declares it once the six non-doubles are out, even if the double is still in a hand or the
bazaar (seed 000, the 2-2 example): ``fish_needs_double=False``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.rules.errors import RuleError, _

Tile = tuple[int, int]

HIGHEST = 6
"""The highest number on a tile of a double-six set."""
HAND_SIZE = 7
"""Tiles dealt to each of the four players."""

SECONDS_ONE_MOVE = 5
SECONDS_SEVERAL_MOVES = 20
SECONDS_FISH = 60


@dataclass(frozen=True)
class MoveAdvice:
    """What a player may do on his turn and how long he may take.

    ``moves`` counts distinct (tile, open end) placements; ``seconds_allowed`` is 0 when no
    move is possible (the player must pass).
    """

    playable: list[Tile]
    moves: int
    seconds_allowed: int
    can_fish: bool
    pass_is_false: bool


def _normal(tile: Tile) -> Tile:
    """A tile with its lower half first, so that 5-3 and 3-5 are the same tile."""
    return (min(tile), max(tile))


def _read_tiles(tiles: Sequence[object], field: str) -> list[Tile]:
    """Check every tile is two numbers from 0 to 6; return them as tuples."""
    if isinstance(tiles, str | bytes) or not isinstance(tiles, Sequence):
        raise RuleError(field, _("Give the tiles as a list of pairs of numbers."))
    result: list[Tile] = []
    for tile in tiles:
        if (
            isinstance(tile, str | bytes)
            or not isinstance(tile, Sequence)
            or len(tile) != 2
            or not all(
                isinstance(half, int) and not isinstance(half, bool) and 0 <= half <= HIGHEST
                for half in tile
            )
        ):
            raise RuleError(
                field,
                _("A tile is two numbers from 0 to %(highest)s, not %(tile)s."),
                highest=HIGHEST,
                tile=tile,
            )
        result.append((tile[0], tile[1]))
    return result


def _check_unique(hand: list[Tile], played: list[Tile]) -> None:
    """No tile may appear twice in the hand and on the table together."""
    seen: set[Tile] = set()
    for field, tiles in (("played", played), ("hand", hand)):
        for tile in tiles:
            key = _normal(tile)
            if key in seen:
                raise RuleError(
                    field,
                    _("The tile %(left)s-%(right)s appears twice."),
                    left=key[0],
                    right=key[1],
                )
            seen.add(key)


def _read_ends(open_ends: object, played: list[Tile]) -> Tile | None:
    """The open ends as a tile-like pair, or None for an empty table."""
    if open_ends is None:
        if played:
            raise RuleError(
                "open_ends", _("Tiles are on the table, so the line has two open ends.")
            )
        return None
    if (
        isinstance(open_ends, str | bytes)
        or not isinstance(open_ends, Sequence)
        or len(open_ends) != 2
    ):
        raise RuleError("open_ends", _("Give the two numbers at the open ends of the line."))
    ends = _read_tiles([open_ends], "open_ends")[0]
    for end in ends:
        if played and not any(end in tile for tile in played):
            raise RuleError("open_ends", _("No tile on the table shows %(end)s."), end=end)
    return ends


def move_advice(
    hand: Sequence[Tile],
    open_ends: tuple[int, int] | None,
    played: Sequence[Tile] = (),
    *,
    fish_needs_double: bool = True,
) -> MoveAdvice:
    """Advise the referee on a player's turn.

    ``open_ends`` are the numbers at the two ends of the line, or None for an empty table (any
    tile may start). ``played`` are the tiles on the table; a move makes a fish when it leaves
    the same number n at both ends and all seven tiles with n are then on the table (the six
    non-doubles, without ``fish_needs_double``: Kozel). Raises RuleError naming ``hand``,
    ``played`` or ``open_ends`` for impossible input.
    """
    hand_tiles = _read_tiles(hand, "hand")
    played_tiles = _read_tiles(played, "played")
    if len(hand_tiles) > HAND_SIZE:
        raise RuleError("hand", _("A hand holds at most %(size)s tiles."), size=HAND_SIZE)
    _check_unique(hand_tiles, played_tiles)
    ends = _read_ends(open_ends, played_tiles)

    on_table = {_normal(tile) for tile in played_tiles}
    playable: list[Tile] = []
    placements: set[tuple[Tile, int]] = set()
    can_fish = False
    for tile in hand_tiles:
        key = _normal(tile)
        if ends is None:
            placements.add((key, -1))
            playable.append(tile)
            continue
        fits = False
        for index, end in enumerate(ends):
            if end not in key:
                continue
            fits = True
            placements.add((key, end))  # the same number at both ends is one move
            exposed = key[1] if key[0] == end else key[0]
            other = ends[1 - index]
            if is_fish((exposed, other), on_table | {key}, fish_needs_double=fish_needs_double):
                can_fish = True
        if fits:
            playable.append(tile)

    moves = len(placements)
    if moves == 0:
        seconds = 0
    elif can_fish:
        seconds = SECONDS_FISH
    elif moves == 1:
        seconds = SECONDS_ONE_MOVE
    else:
        seconds = SECONDS_SEVERAL_MOVES
    return MoveAdvice(
        playable=playable,
        moves=moves,
        seconds_allowed=seconds,
        can_fish=can_fish,
        pass_is_false=bool(playable),
    )


def is_fish(
    open_ends: Sequence[int], played: Iterable[Tile], *, fish_needs_double: bool = True
) -> bool:
    """Whether the line is a fish: one number n at both ends and every tile of n played.

    Without ``fish_needs_double`` (Kozel) the six non-doubles of n suffice: its double may
    still be in a hand or the bazaar.
    """
    if len(open_ends) != 2 or open_ends[0] != open_ends[1]:
        return False
    number = open_ends[0]
    on_table = {_normal(tile) for tile in played}
    needed = (other for other in range(HIGHEST + 1) if fish_needs_double or other != number)
    return all(_normal((number, other)) in on_table for other in needed)
