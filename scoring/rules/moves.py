"""The referee's move-time helper: each rule set's time per move (:class:`MoveHelper`).

Given a player's hand and the open ends of the line, say which tiles can be played, how many
distinct moves there are and how long the player may think. Sport domino (RULES.md section 1,
"Time per move"): 5 seconds for a single possible move, 20 for several, 60 when some move would
end the deal with a fish; a player who says "pass" while he holds a playable tile makes a false
pass. UDL (section 2, rule 10): 15 seconds a play; a player without a move draws from the
boneyard (his hand grows past the seven dealt) and has 15 seconds once a playable tile is
drawn; the first double is a spinner, so the line may have four open ends.

A fish: both ends of the line show one number and every tile of it is on the table. (Kozel
declares it once the six non-doubles are out, seed 000's 2-2 example, but its rules give no
time per move: it has no helper, and the players see its fish at the table.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeGuard

from scoring.rules.errors import RuleError, _

Tile = tuple[int, int]

HIGHEST = 6
"""The highest number on a tile of a double-six set."""
HAND_SIZE = 7
"""Tiles dealt to each of the four players."""

SECONDS_ONE_MOVE = 5
SECONDS_SEVERAL_MOVES = 20
SECONDS_FISH = 60
MAX_OPEN_ENDS = 4
"""A line with a spinner grows on all four sides of its first double."""


@dataclass(frozen=True)
class MoveHelper:
    """A rule set's time per move, as the referee's helper applies it.

    ``fish`` (seconds for a move that can end the deal with a fish; None: no such rule),
    ``draws`` (a player without a move draws from the boneyard, so a hand may hold more than
    the tiles dealt), ``after_draw`` (seconds once a playable tile is drawn), ``spinner`` (the
    first double opens four ends), ``false_pass`` (a pass while a tile fits is the false-pass
    ruling), ``hand_limit`` (the most tiles in a hand; None: any), ``rule`` (the rule in words,
    English marked for translation).
    """

    one_move: int
    several_moves: int
    fish: int | None = None
    draws: bool = False
    after_draw: int | None = None
    spinner: bool = False
    false_pass: bool = True
    hand_limit: int | None = HAND_SIZE
    rule: str = ""


SPORT_HELPER = MoveHelper(
    SECONDS_ONE_MOVE,
    SECONDS_SEVERAL_MOVES,
    fish=SECONDS_FISH,
    rule=_("5 s for a single possible move, 20 s for several, 1 min for a move that makes a fish."),
)
"""Sport domino's time per move (RULES.md section 1)."""

UDL_HELPER = MoveHelper(
    15,
    15,
    draws=True,
    after_draw=15,
    spinner=True,
    false_pass=False,
    hand_limit=None,
    rule=_("UDL rule 10: 15 s per play; after drawing, 15 s once a playable tile is drawn."),
)
"""The UDL's time per move (RULES.md section 2, rule 10)."""


@dataclass(frozen=True)
class MoveAdvice:
    """What a player may do on his turn and how long he may take.

    ``moves`` counts distinct (tile, open end) placements; ``seconds_allowed`` is 0 when no
    move is possible: the player passes, or draws (``must_draw``) and then has
    ``seconds_after_draw`` once a playable tile is drawn. ``pass_is_false``: a pass now is the
    false-pass ruling.
    """

    playable: list[Tile]
    moves: int
    seconds_allowed: int
    can_fish: bool
    pass_is_false: bool
    must_draw: bool = False
    seconds_after_draw: int | None = None
    rule: str = ""


def _normal(tile: Tile) -> Tile:
    """A tile with its lower half first, so that 5-3 and 3-5 are the same tile."""
    return (min(tile), max(tile))


def _is_number(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a number of a tile's half: a whole number from 0 to 6."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= HIGHEST


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
            or not all(_is_number(half) for half in tile)
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


def _read_ends(open_ends: object, played: list[Tile], most: int = 2) -> tuple[int, ...] | None:
    """The numbers at the open ends (two, up to ``most`` with a spinner); None: empty table."""
    if open_ends is None:
        if played:
            raise RuleError(
                "open_ends", _("Tiles are on the table, so the line has two open ends.")
            )
        return None
    if (
        isinstance(open_ends, str | bytes)
        or not isinstance(open_ends, Sequence)
        or not 2 <= len(open_ends) <= most
    ):
        if most > 2:
            raise RuleError(
                "open_ends",
                _("Give the numbers at the open ends of the line: two to %(most)s."),
                most=most,
            )
        raise RuleError("open_ends", _("Give the two numbers at the open ends of the line."))
    if not all(_is_number(end) for end in open_ends):
        raise RuleError(
            "open_ends", _("An open end is a number from 0 to %(highest)s."), highest=HIGHEST
        )
    ends = tuple(int(end) for end in open_ends)
    for end in ends:
        if played and not any(end in tile for tile in played):
            raise RuleError("open_ends", _("No tile on the table shows %(end)s."), end=end)
    return ends


def move_advice(
    hand: Sequence[Tile],
    open_ends: tuple[int, int] | None,
    played: Sequence[Tile] = (),
) -> MoveAdvice:
    """Sport domino's advice on a player's turn (:data:`SPORT_HELPER`, see :func:`advise`)."""
    return advise(SPORT_HELPER, hand, open_ends, played)


def advise(
    helper: MoveHelper,
    hand: Sequence[Tile],
    open_ends: Sequence[int] | None,
    played: Sequence[Tile] = (),
    *,
    boneyard_empty: bool = False,
) -> MoveAdvice:
    """Advise the referee on a player's turn under a rule set's time per move.

    ``open_ends`` are the numbers at the open ends of the line (two; up to four with a
    spinner), or None for an empty table (any tile may start). ``played`` are the tiles on
    the table; a move makes a fish when it leaves the same number n at both ends and all seven
    tiles with n are then on the table. Without a move, a player of a game with a boneyard
    draws unless ``boneyard_empty``. Raises RuleError naming ``hand``, ``played`` or
    ``open_ends`` for impossible input.
    """
    hand_tiles = _read_tiles(hand, "hand")
    played_tiles = _read_tiles(played, "played")
    if helper.hand_limit is not None and len(hand_tiles) > helper.hand_limit:
        raise RuleError("hand", _("A hand holds at most %(size)s tiles."), size=helper.hand_limit)
    _check_unique(hand_tiles, played_tiles)
    ends = _read_ends(open_ends, played_tiles, MAX_OPEN_ENDS if helper.spinner else 2)

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
        fits = [index for index, end in enumerate(ends) if end in key]
        for index in fits:
            placements.add((key, ends[index]))  # the same number at two ends is one move
            can_fish = can_fish or _makes_fish(helper, key, ends, index, on_table)
        if fits:
            playable.append(tile)
    return _advice(helper, playable, len(placements), can_fish, boneyard_empty)


def _makes_fish(
    helper: MoveHelper, key: Tile, ends: tuple[int, ...], index: int, on_table: set[Tile]
) -> bool:
    """Whether playing ``key`` on end ``index`` of a two-ended line ends the deal in a fish."""
    if helper.fish is None or len(ends) != 2:
        return False
    exposed = key[1] if key[0] == ends[index] else key[0]
    return is_fish((exposed, ends[1 - index]), on_table | {key})


def _advice(
    helper: MoveHelper, playable: list[Tile], moves: int, can_fish: bool, boneyard_empty: bool
) -> MoveAdvice:
    """The advice from the moves found, by the helper's seconds."""
    must_draw = not moves and helper.draws and not boneyard_empty
    if moves == 0:
        seconds = 0
    elif can_fish and helper.fish is not None:
        seconds = helper.fish
    elif moves == 1:
        seconds = helper.one_move
    else:
        seconds = helper.several_moves
    return MoveAdvice(
        playable=playable,
        moves=moves,
        seconds_allowed=seconds,
        can_fish=can_fish,
        pass_is_false=helper.false_pass and bool(playable),
        must_draw=must_draw,
        seconds_after_draw=helper.after_draw if must_draw else None,
        rule=helper.rule,
    )


def is_fish(open_ends: Sequence[int], played: Iterable[Tile]) -> bool:
    """Whether the line is a fish: one number n at both ends and all seven tiles of n played."""
    if len(open_ends) != 2 or open_ends[0] != open_ends[1]:
        return False
    number = open_ends[0]
    on_table = {_normal(tile) for tile in played}
    return all(_normal((number, other)) in on_table for other in range(HIGHEST + 1))
