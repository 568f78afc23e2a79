"""Plain data of the rule engine: constants, the regulations' snapshot, deal and party facts.

Nothing here knows about Django or a database (see :mod:`scoring.rules.base` for the interface
every rule set implements).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from scoring.rules.errors import RuleError, _

SIDES = ("a", "b")
"""The two sides of a party (the pairs, in sport domino)."""

SEATS = ("a1", "b1", "a2", "b2")
"""Seating order around the table, counter-clockwise; a1 and a2 are partners, so are b1 and b2."""

# Outcomes the referee enters (DealFacts.outcome) ...
DOMINO = "domino"
FISH = "fish"
ANNULLED = "annulled"
REFEREE = "referee"
FACT_OUTCOMES = (DOMINO, FISH, ANNULLED, REFEREE)
# ... and the one more a score can have (DealScore.outcome).
DRAWN_FISH = "drawn_fish"
SCORE_OUTCOMES = (DOMINO, FISH, DRAWN_FISH, ANNULLED, REFEREE)
# A hand stopped before its end because the game ended during play (All Fives, UDL).
STOPPED = "stopped"

DRAWN_FISH_NOBODY = "nobody"
DRAWN_FISH_CARRY = "carry"
DRAWN_FISH_CHOICES = (DRAWN_FISH_NOBODY, DRAWN_FISH_CARRY)

FINE_DEDUCT = "deduct"
FINE_AWARD = "award"
FINE_MODES = (FINE_DEDUCT, FINE_AWARD)

FISH_FOR_ALL = "for_all"
FISH_FOR_ONE = "for_one"
FISH_VARIANTS = (FISH_FOR_ALL, FISH_FOR_ONE)
"""Kozel: after a fish each player scores his own hand, or the highest hand takes them all."""

MATCH_TO_WINS = "to_wins"
MATCH_BEST_OF_THREE = "best_of_three"
MATCH_FORMATS = (MATCH_TO_WINS, MATCH_BEST_OF_THREE)
"""A match of games: to ``games_to_win`` game wins, or best of three (first to two, at most
three games); UDL's seed reads both ways (RULES.md 2)."""

# PartyDecision.state and .reason values.
CONTINUE = "continue"
LAST_DEAL = "last_deal"
EXTRA_DEAL = "extra_deal"
FINISHED = "finished"
PARTY_STATES = (CONTINUE, LAST_DEAL, EXTRA_DEAL, FINISHED)
# ... and those of a party played as a match of games (UDL, All Fives).
NEXT_GAME = "next_game"
OVERTIME = "overtime"
REASON_TARGET = "target"
REASON_TIME = "time"
REASON_FORFEIT = "forfeit"
REASON_DISQUALIFICATION = "disqualification"
REASON_TIMEOUT = "timeout"
"""One player's timeout stopped the game (Kozel, seed 000): not the party's clock running out."""
REASON_BYE = "bye"
END_REASONS = (
    REASON_TARGET, REASON_TIME, REASON_FORFEIT, REASON_DISQUALIFICATION, REASON_TIMEOUT
)

# How a rule set's parties are laid out (RuleSet.layout_for): the referee screen, the party
# page, the protocol, the standings and the exports all follow it.
LAYOUT_SIDES = ""
"""Two sides, A and B, a running total each (the protocol's default layout)."""
LAYOUT_GAMES = "games"
"""A match of timed games (UDL, All Fives)."""
LAYOUT_SEATS = "seats"
"""A column per player, each scoring for himself (Draw, Block, Classic)."""
LAYOUT_KOZEL = "kozel"
"""A column per player with memorized points, open accounts and the Goat."""
LAYOUTS = (LAYOUT_SIDES, LAYOUT_GAMES, LAYOUT_SEATS, LAYOUT_KOZEL)

# How a rule set names its sides (RuleSet.side_kind_for).
SIDE_PAIR = "pair"
SIDE_PLAYER = "player"


def party_side(key: str) -> str:
    """The side of the table ("a" or "b") of an engine side or a seat ("b2" → "b")."""
    return key.rstrip("0123456789")


def by_party_side(values: Mapping[str, int]) -> dict[str, int]:
    """Values per engine side or seat, added up per side of the table ("a", "b")."""
    sums = {"a": 0, "b": 0}
    for key, value in values.items():
        side = party_side(key)
        if side in sums:
            sums[side] += value
    return sums


def is_count(value: object) -> bool:
    """Whether ``value`` is a whole number of at least zero (``bool`` is not a number here)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


# Minimum value of each integer setting of RulesConfig.
_CONFIG_MINIMUM = {
    "target": 1,
    "party_minutes": 1,
    "fine_points": 0,
    "warnings_before_fine": 0,
    "forfeit_winner_points": 0,
    "forfeit_loser_points": 0,
    "false_pass_points_a": 0,
    "false_pass_points_b": 0,
    "no_show_minutes": 0,
    "max_deal_points": 1,
    "players": 2,
    "tiles_per_hand": 0,
    "game_minutes": 1,
    "games_to_win": 1,
    "udl_slow_play_points": 0,
    "zero_zero_value": 0,
    "six_six_value": 0,
    "goat_at": 1,
    "memorize_limit": 0,
}
# Integer settings that may be None (forfeit_winner_points: None is the target; party_minutes:
# None is no party clock).
_CONFIG_OPTIONAL = ("forfeit_winner_points", "party_minutes")
# Maximum value of the integer settings that have one.
_CONFIG_MAXIMUM = {
    "players": 4,
    "tiles_per_hand": 9,
}
_CONFIG_CHOICES = {
    "drawn_fish": DRAWN_FISH_CHOICES,
    "fine_mode": FINE_MODES,
    "fish_variant": FISH_VARIANTS,
    "match_format": MATCH_FORMATS,
}
_CONFIG_FLAGS = (
    "domino_counts_partner",
    "allow_negative",
    "kozel_pairs",
    "lone_zero_zero_in_fish",
    "latin_individual",
)
DOUBLE_SIX_TILES = 28
"""Tiles in a double-six set."""


@dataclass(frozen=True)
class RulesConfig:
    """A plain snapshot of a tournament's regulations, as far as the rules need them.

    Built by the Django layer from the tournament's regulations; every value is checked on
    construction and a bad one raises :class:`RuleError` naming the setting.
    """

    target: int = 200
    party_minutes: int | None = 40
    """The party's time limit; None: the party has no clock (the Kozel preset, seed 000)."""
    domino_counts_partner: bool = True
    drawn_fish: str = DRAWN_FISH_NOBODY
    fine_points: int = 25
    fine_mode: str = FINE_DEDUCT
    allow_negative: bool = True
    warnings_before_fine: int = 1
    forfeit_winner_points: int | None = None
    """The forfeit winner's points; None: the target ("the maximum points the regulations
    provide", RULES.md 1)."""
    forfeit_loser_points: int = 0
    false_pass_points_a: int = 0
    false_pass_points_b: int = 0
    no_show_minutes: int = 5
    max_deal_points: int = 168
    # The games of RULES.md sections 2 and 3 (each rule set's ``preset`` fills them in).
    players: int = 4
    tiles_per_hand: int = 0
    game_minutes: int = 15
    games_to_win: int = 1
    match_format: str = MATCH_TO_WINS
    """To ``games_to_win`` game wins, or best of three (:func:`wins_needed`)."""
    udl_slow_play_points: int = 20
    fish_variant: str = FISH_FOR_ALL
    zero_zero_value: int = 10
    six_six_value: int = 12
    goat_at: int = 101
    memorize_limit: int = 12
    kozel_pairs: bool = False
    lone_zero_zero_in_fish: bool = False
    """Classic: whether a lone 0-0 counts its 25 in a fish too (else its 0 pips)."""
    latin_individual: bool = False
    """Latin: whether four players play each for himself (else two pairs; 2 or 3 always alone)."""

    def __post_init__(self) -> None:
        for name, minimum in _CONFIG_MINIMUM.items():
            value = getattr(self, name)
            if value is None and name in _CONFIG_OPTIONAL:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
                raise RuleError(
                    name,
                    _("This setting must be a whole number of at least %(minimum)s."),
                    minimum=minimum,
                )
        for name, maximum in _CONFIG_MAXIMUM.items():
            if getattr(self, name) > maximum:
                raise RuleError(
                    name,
                    _("This setting must be a whole number of at most %(maximum)s."),
                    maximum=maximum,
                )
        for name, choices in _CONFIG_CHOICES.items():
            if getattr(self, name) not in choices:
                raise RuleError(
                    name,
                    _("Choose one of: %(choices)s."),
                    choices=", ".join(choices),
                )
        for name in _CONFIG_FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise RuleError(name, _("This setting must be yes or no."))
        if self.false_pass_points_a + self.false_pass_points_b > self.max_deal_points:
            raise RuleError(
                "false_pass_points_a",
                _("A deal cannot be worth more than %(max)s points."),
                max=self.max_deal_points,
            )
        if self.players * self.tiles_per_hand > DOUBLE_SIX_TILES:
            raise RuleError(
                "tiles_per_hand",
                _("%(players)s players cannot hold %(tiles)s tiles each from a set of 28."),
                players=self.players,
                tiles=self.tiles_per_hand,
            )
        if self.kozel_pairs and self.players != 4:
            raise RuleError("kozel_pairs", _("Only four players can play as two pairs."))

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> RulesConfig:
        """Build a config from a mapping, ignoring keys that are not settings of the rules."""
        names = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in values.items() if key in names})

    def forfeit_points(self) -> int:
        """The points a forfeit credits its winner: the setting, or the target when unset."""
        return self.target if self.forfeit_winner_points is None else self.forfeit_winner_points

    def false_pass_points(self, side: str) -> int:
        """Default points of ``side`` for a deal the referee ended after a false pass."""
        return int(getattr(self, f"false_pass_points_{side}", 0))


@dataclass(frozen=True)
class DealFacts:
    """What the referee enters for one deal.

    ``pips`` are the pips left per seat (``"a1"`` .. ``"b2"``) or per side (``"a"``, ``"b"``);
    ``points`` per side are the quick entry (with ``winner`` or ``went_out``) or, for an
    outcome of ``"referee"``, the points the referee gives.
    """

    outcome: str
    went_out: str | None = None
    winner: str | None = None
    pips: Mapping[str, int] | None = None
    points: Mapping[str, int] | None = None
    # The games of RULES.md sections 2 and 3:
    led: str | None = None
    """The seat that led the deal ("la mano"; the Latin game breaks a fish's tie with it)."""
    plays: Sequence[Sequence[Any]] | None = None
    """Points scored during play, in order: ``(side, points)`` pairs (All Fives, UDL)."""
    tiles: Mapping[str, Sequence[Sequence[int]]] | None = None
    """The tiles left per seat, where entered: they give the pips and show a lone 0-0 or 6-6."""
    game: int = 1
    """The game of the match this deal belongs to (UDL plays matches of several games)."""


@dataclass(frozen=True)
class DealScore:
    """A deal's result: how it ended, who won it, the points per side before any carry-over.

    ``carry`` is what a drawn fish leaves on the table (the pips of all hands); it is 0 for
    every other outcome. ``party_totals`` carries it to the next deal won when the regulations
    say so (``drawn_fish="carry"``).
    """

    outcome: str
    winner: str | None
    points: dict[str, int]
    carry: int = 0
    play_points: dict[str, int] | None = None
    """Of ``points``, those scored during play (All Fives, UDL); None in other games."""
    game: int = 1
    """The game of the match this deal belongs to."""
    number: int | None = None
    """The deal's number (the fines given while it was in play come before its points);
    None: its place in the list."""


@dataclass(frozen=True)
class FineFact:
    """A fine as it was given: the offending side, the points, the mode in force then."""

    side: str
    points: int
    mode: str = FINE_DEDUCT
    game: int = 1
    """The game of the match it was given in (UDL pays slow play into that game's score)."""
    deal: int | None = None
    """The number of the deal in play when it was given: it counts before that deal's points
    (None: after every deal). A total that may not go below zero is floored at each step."""


@dataclass(frozen=True)
class Totals:
    """A party's totals, derived from its deals and fines by ``RuleSet.party_totals`` only."""

    points: dict[str, int]
    deal_points: dict[str, int]
    fine_points: dict[str, int]
    running: list[dict[str, int]] = field(default_factory=list)
    carry: int = 0
    uncollected: list[dict[str, int]] = field(default_factory=list)
    """Per deal (beside ``running``, or empty): the points it scored that its side did not
    collect (UDL: a domino's end count taken with nothing on the board), only those sides."""
    floored: dict[str, int] = field(default_factory=dict)
    """Per side, the fine points not taken because a total may not go below zero
    (``allow_negative`` off; the floor applies at each step, so no debt is carried):
    ``points`` = ``deal_points`` + ``fine_points`` + ``floored``. Empty or zeros otherwise."""


@dataclass(frozen=True)
class PartyDecision:
    """What happens next in a party: play on, a last deal, an extra deal, or it is over."""

    state: str
    winner: str | None = None
    reason: str | None = None
    loser: str | None = None
    """Who lost, where that is the point (Kozel: the Goat)."""

    @property
    def finished(self) -> bool:
        """Whether the party is over."""
        return self.state == FINISHED


def wins_needed(cfg: RulesConfig) -> int:
    """Game wins that take the match: two in a best of three, else ``games_to_win``."""
    return 2 if cfg.match_format == MATCH_BEST_OF_THREE else cfg.games_to_win
