"""The referee's plain-Python rules: escalation of violations, penalty presets, tiles in hand.

Nothing here touches the database: the services pass plain values in and act on the plain
decision that comes back, so every rule is unit-tested alone. Fines themselves come from the
tournament's rule set (``RuleSet.fine_for_warning`` and ``RuleSet.fine``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scoring.rules import (
    FINE_AWARD,
    SEATS,
    DealFacts,
    RuleError,
    RulesConfig,
    RuleSet,
    party_side,
)
from scoring.rules import udl as udl_rules
from scoring.rules.errors import _
from scoring.rules.hands import HandGame
from scoring.rules.moves import HAND_SIZE, HIGHEST, Tile

PRESET_SPORT = "sport"
PRESET_UDL = "udl"
PRESETS = (PRESET_SPORT, PRESET_UDL)

SLOW_PLAY = "move_time"
"""The violation category of a move that took too long (UDL: "slow play")."""

WARNING = "warning"
FINE = "fine"

ALL_TILES: tuple[Tile, ...] = tuple(
    (low, high) for low in range(HIGHEST + 1) for high in range(low, HIGHEST + 1)
)
"""The 28 tiles of a double-six set, lower half first."""


@dataclass(frozen=True)
class PenaltyPreset:
    """How violations escalate beyond the regulations' fines (``udl``: paid slow play).

    The points a paid slow play costs are the regulations' ``udl_slow_play_points`` (one
    setting, whichever button the referee uses).
    """

    code: str = PRESET_SPORT

    def __post_init__(self) -> None:
        if self.code not in PRESETS:
            raise RuleError("penalty_preset", _("Unknown penalty rules: %(code)s."), code=self.code)


def paid_slow_play(rule_set: RuleSet, preset: PenaltyPreset | None, category: str) -> bool:
    """Whether a violation of ``category`` is slow play paid to the opponent (UDL rule 10).

    So it is in a UDL tournament whatever the desk's penalty rules, and under the UDL penalty
    rules in any tournament.
    """
    if category != SLOW_PLAY:
        return False
    return udl_rules.SLOW_PLAY in rule_set.violations or (
        preset is not None and preset.code == PRESET_UDL
    )


@dataclass(frozen=True)
class PenaltyDecision:
    """What a violation costs: a warning, or a fine of ``points`` with its ``mode``."""

    kind: str
    points: int = 0
    mode: str = ""

    @property
    def is_fine(self) -> bool:
        """Whether the violation is fined."""
        return self.kind == FINE


def decide_violation(
    rule_set: RuleSet,
    cfg: RulesConfig,
    preset: PenaltyPreset,
    *,
    side: str,
    category: str,
    warnings_before: int,
) -> PenaltyDecision:
    """A warning or a fine for a pair's violation, given its earlier warnings of that kind.

    Sport domino (RULES.md 1): the regulations say how many warnings of one kind come before a
    fine; the fine's points and mode are the regulations'. UDL (RULES.md 2): the first slow
    play is a warning, every further one pays ``udl_slow_play_points`` to the opponent.
    """
    if paid_slow_play(rule_set, preset, category) and not rule_set.violations:
        fined = warnings_before >= 1
    else:
        fined = rule_set.fine_for_warning(warnings_before, cfg)
    if fined:
        return fine_decision(rule_set, cfg, side, preset=preset, category=category)
    rule_set.check_side(side, "side")
    return PenaltyDecision(WARNING)


def fine_decision(
    rule_set: RuleSet,
    cfg: RulesConfig,
    side: str,
    points: int | None = None,
    *,
    preset: PenaltyPreset | None = None,
    category: str = "",
) -> PenaltyDecision:
    """A fine for ``side`` as the regulations set it (the referee may name other points).

    A fine for slow play in UDL (:func:`paid_slow_play`) pays ``udl_slow_play_points`` to the
    opponent.
    """
    if paid_slow_play(rule_set, preset, category):
        rule_set.check_side(side, "side")
        return PenaltyDecision(
            FINE, cfg.udl_slow_play_points if points is None else points, FINE_AWARD
        )
    fine = rule_set.fine(side, cfg, points)
    if fine.points < 1:
        raise RuleError("points", _("A fine is at least one point."))
    return PenaltyDecision(FINE, fine.points, fine.mode)


def parse_tile(value: object, field: str = "tiles") -> Tile:
    """A tile from ``"3-5"``, ``"35"`` or ``[3, 5]``, lower half first."""
    halves: list[object]
    if isinstance(value, str):
        text = value.strip().replace("|", "-").replace(":", "-")
        halves = list(text.split("-")) if "-" in text else list(text)
    elif isinstance(value, list | tuple):
        halves = list(value)
    else:
        halves = []
    numbers: list[int] = []
    for half in halves:
        if isinstance(half, bool):
            break
        try:
            number = int(half)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            break
        if not 0 <= number <= HIGHEST:
            break
        numbers.append(number)
    if len(numbers) != 2 or len(halves) != 2:
        raise RuleError(
            field,
            _("A tile is two numbers from 0 to %(highest)s, not %(tile)s."),
            highest=HIGHEST,
            tile=value,
        )
    return (min(numbers), max(numbers))


def read_hands(
    hands: Mapping[str, Iterable[object]], seats: Iterable[str], size: int | None = HAND_SIZE
) -> dict[str, list[Tile]]:
    """The tiles left in each seat's hand, checked: known seats, at most ``size`` each, none twice.

    ``size`` None sets no limit per hand (games where players draw from the boneyard).
    """
    seats = tuple(seats)
    result: dict[str, list[Tile]] = {}
    seen: dict[Tile, str] = {}
    for seat, tiles in hands.items():
        if seat not in seats:
            raise RuleError("tiles", _("Unknown seat: %(seat)s."), seat=seat)
        if isinstance(tiles, str):
            tiles = [part for part in tiles.replace(";", ",").split(",") if part.strip()]
        hand = [parse_tile(tile) for tile in tiles]
        if size is not None and len(hand) > size:
            raise RuleError("tiles", _("A hand holds at most %(size)s tiles."), size=size)
        for tile in hand:
            if tile in seen:
                raise RuleError(
                    "tiles",
                    _("The tile %(left)s-%(right)s is picked twice (%(first)s and %(second)s)."),
                    left=tile[0],
                    right=tile[1],
                    first=seen[tile],
                    second=seat,
                )
            seen[tile] = seat
        result[seat] = hand
    return result


def pips_of_hands(hands: Mapping[str, list[Tile]], seats: Iterable[str]) -> dict[str, int]:
    """The pips left per seat (a seat without tiles has 0)."""
    return {seat: sum(a + b for a, b in hands.get(seat, [])) for seat in seats}


@dataclass(frozen=True)
class HandsPreview:
    """The sums of the tiles picked for a deal and what the rule set makes of them."""

    pips: dict[str, int]
    by_side: dict[str, int]
    outcome: str = ""
    winner: str | None = None
    points: dict[str, int] | None = None
    error: RuleError | None = None


def preview_hands(
    rule_set: RuleSet,
    cfg: RulesConfig,
    hands: Mapping[str, Iterable[object]],
    *,
    outcome: str = "fish",
    went_out: str | None = None,
    winner: str | None = None,
) -> HandsPreview:
    """Sum the picked tiles per player and side and score the deal (the fish winner found).

    The seats are those at the table under the regulations; the games that read tiles
    themselves get them too (a lone 0-0 or 6-6 counts its agreed value). Raises RuleError for
    tiles that cannot be (unknown, picked twice); a deal the rules refuse is returned with its
    ``error`` (the caller translates it).
    """
    seats = rule_set.seats_for(cfg)
    read = read_hands(hands, seats, hand_limit(rule_set, cfg))
    pips = pips_of_hands(read, seats)
    by_side = {side: 0 for side in rule_set.sides_for(cfg)}
    for seat, value in pips.items():
        by_side[rule_set.side_of(seat, "tiles")] += value
    tiles = {seat: [list(tile) for tile in hand] for seat, hand in read.items()}
    try:
        score = rule_set.score_deal(
            DealFacts(
                outcome=outcome,
                went_out=went_out or None,
                winner=winner or None,
                pips=pips,
                tiles=(tiles or None) if takes_tiles(rule_set) else None,
            ),
            cfg,
        )
    except RuleError as err:
        return HandsPreview(pips=pips, by_side=by_side, error=err)
    return HandsPreview(
        pips=pips,
        by_side=by_side,
        outcome=score.outcome,
        winner=score.winner,
        points=dict(score.points),
    )


# -- the rule sets at the referee desk ------------------------------------------------------


def scores_by_seat(rule_set: RuleSet, cfg: RulesConfig) -> bool:
    """Whether every player keeps his own score: the engine's sides are the seats.

    Kozel, the Draw, Block and Classic games; not the pairs games nor the singles of two sides
    (UDL, All Fives), whose sides are "a" and "b".
    """
    return set(rule_set.sides_for(cfg)) <= set(SEATS)


def takes_tiles(rule_set: RuleSet) -> bool:
    """Whether the rule set reads the tiles left in hand itself (the games of RULES.md 2, 3)."""
    return isinstance(rule_set, HandGame)


def hand_limit(rule_set: RuleSet, cfg: RulesConfig) -> int | None:
    """The most tiles a hand can hold at a deal's end; None where players draw from the boneyard."""
    if isinstance(rule_set, HandGame):
        return None if rule_set.draws else rule_set.hand_size(cfg)
    return HAND_SIZE


def other_side(side: str) -> str:
    """The opposing party side."""
    return "b" if party_side(side) == "a" else "a"


def table_seats(rule_set: RuleSet, cfg: RulesConfig, side: str) -> list[str]:
    """The seats at the table that belong to the party side ``side``."""
    return [seat for seat in rule_set.seats_for(cfg) if party_side(seat) == side]


def offender_side(
    rule_set: RuleSet, cfg: RulesConfig, side: str, seat: str = "", *, whole_pair: bool = False
) -> str:
    """The engine side a penalty against the party side ``side`` (player on ``seat``) is given to.

    In pairs games and in singles of two sides it is the side itself. Where every player keeps
    his own score it is the player's seat: so warnings escalate per player and a fine lands on
    his account. A side of one player stands for his seat; otherwise the player must be named,
    except for ``whole_pair`` (a disqualification) when four play as two pairs.
    """
    if side not in ("a", "b"):
        raise RuleError("side", _("Choose side A or side B."))
    if not scores_by_seat(rule_set, cfg):
        return side
    seats = table_seats(rule_set, cfg, side)
    if seat:
        if seat not in seats:
            raise RuleError(
                "seat",
                _("Nobody of side %(side)s sits on %(seat)s."),
                side=side.upper(),
                seat=seat.upper(),
            )
        return seat
    if len(seats) == 1:
        return seats[0]
    if whole_pair and rule_set.side_size(cfg) == 2:
        return side
    raise RuleError("seat", _("Name the player: in this game every player keeps his own score."))


def forfeit_result(
    rule_set: RuleSet, cfg: RulesConfig, offenders: Iterable[str]
) -> tuple[str, str]:
    """(winner, loser) of a party a ruling ends against ``offenders`` (engine or party sides).

    Pairs games and singles of two sides: the other side wins (no loser is recorded, as the
    score says it). Four playing as two pairs: the other pair wins, the offending pair loses.
    Every player for himself: the one player left wins; with several left nobody wins the
    forfeit (their points stay those of the deals) and the offender is the loser (Kozel: the
    Goat).
    """
    offenders = list(offenders)
    if not offenders:
        raise RuleError("side", _("Choose side A or side B."))
    first = offenders[0]
    if not scores_by_seat(rule_set, cfg):
        return other_side(first), ""
    if rule_set.side_size(cfg) == 2:
        return other_side(first), party_side(first)
    gone = set()
    for key in offenders:
        gone.update(table_seats(rule_set, cfg, key) if key in ("a", "b") else [key])
    left = [side for side in rule_set.sides_for(cfg) if side not in gone]
    winner = left[0] if len(left) == 1 else ""
    loser = next(iter(gone)) if len(gone) == 1 else party_side(first)
    return winner, loser
