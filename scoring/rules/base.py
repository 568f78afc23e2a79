"""Plain data of the rule engine and the small interface every rule set implements.

Nothing here knows about Django or a database: rule sets take plain values and return plain
values, so they are tested and benchmarked alone.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from scoring.rules.errors import RuleError, _
from scoring.rules.moves import HAND_SIZE

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
END_REASONS = (REASON_TARGET, REASON_TIME, REASON_FORFEIT, REASON_DISQUALIFICATION)

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
# Maximum value of the integer settings that have one.
_CONFIG_MAXIMUM = {
    "players": 4,
    "tiles_per_hand": 9,
}
_CONFIG_CHOICES = {
    "drawn_fish": DRAWN_FISH_CHOICES,
    "fine_mode": FINE_MODES,
    "fish_variant": FISH_VARIANTS,
}
_CONFIG_FLAGS = ("domino_counts_partner", "allow_negative", "kozel_pairs")
DOUBLE_SIX_TILES = 28
"""Tiles in a double-six set."""


@dataclass(frozen=True)
class RulesConfig:
    """A plain snapshot of a tournament's regulations, as far as the rules need them.

    Built by the Django layer from the tournament's regulations; every value is checked on
    construction and a bad one raises :class:`RuleError` naming the setting.
    """

    target: int = 200
    party_minutes: int = 40
    domino_counts_partner: bool = True
    drawn_fish: str = DRAWN_FISH_NOBODY
    fine_points: int = 25
    fine_mode: str = FINE_DEDUCT
    allow_negative: bool = True
    warnings_before_fine: int = 1
    forfeit_winner_points: int = 200
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
    udl_slow_play_points: int = 20
    fish_variant: str = FISH_FOR_ALL
    zero_zero_value: int = 10
    six_six_value: int = 12
    goat_at: int = 101
    memorize_limit: int = 12
    kozel_pairs: bool = False

    def __post_init__(self) -> None:
        for name, minimum in _CONFIG_MINIMUM.items():
            value = getattr(self, name)
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


@dataclass(frozen=True)
class FineFact:
    """A fine as it was given: the offending side, the points, the mode in force then."""

    side: str
    points: int
    mode: str = FINE_DEDUCT
    game: int = 1
    """The game of the match it was given in (UDL pays slow play into that game's score)."""


@dataclass(frozen=True)
class Totals:
    """A party's totals, derived from its deals and fines by ``RuleSet.party_totals`` only."""

    points: dict[str, int]
    deal_points: dict[str, int]
    fine_points: dict[str, int]
    running: list[dict[str, int]] = field(default_factory=list)
    carry: int = 0


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


class RuleSet(abc.ABC):
    """The interface of a rule set; shared behaviour is implemented here for any sides.

    A rule set only has to say how a deal is scored (:meth:`score_deal`); totals, the end of
    a party, forfeits and fines have working defaults that a rule set may override.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    sides: ClassVar[tuple[str, ...]] = SIDES
    seats: ClassVar[tuple[str, ...]] = SEATS
    preset: ClassVar[Mapping[str, Any]] = {}
    """The regulations a new tournament of this rule set starts from (every value editable)."""
    plays_games: ClassVar[bool] = False
    """Whether a party is a match of timed games (UDL, All Fives), each deal in one game."""
    description: ClassVar[str] = ""
    """A short description for the organizer choosing a rule set (marked for translation)."""
    settings: ClassVar[tuple[str, ...]] = ()
    """The game settings of the regulations an organizer sees for this rule set."""
    layout: ClassVar[str | None] = None
    """The layout key (``LAYOUTS``); None: two sides, or a column per player (from the sides)."""
    violations: ClassVar[Mapping[str, str]] = {}
    """The rule set's own violation catalogue: code → English label (marked for translation)."""
    move_time: ClassVar[bool] = False
    """Whether the referee screen offers the move-time helper (playable tiles, seconds)."""
    uses_led: ClassVar[bool] = False
    """Whether the referee enters who led each deal (the Latin game breaks a fish's tie)."""

    def side_size(self, cfg: RulesConfig) -> int:
        """Players on a side: 2 for a pair, 1 where every player plays for himself."""
        return 2

    def layout_for(self, cfg: RulesConfig) -> str:
        """The layout key of this rule set's parties under these regulations (``LAYOUTS``)."""
        if self.layout is not None:
            return self.layout
        if self.plays_games:
            return LAYOUT_GAMES
        return LAYOUT_SIDES if set(self.sides_for(cfg)) <= set(SIDES) else LAYOUT_SEATS

    def layout_dir(self, cfg: RulesConfig) -> str:
        """The folder of the layout's own templates: ``layouts/<layout>`` (``sides`` for "")."""
        return f"layouts/{self.layout_for(cfg) or 'sides'}"

    def per_seat(self, cfg: RulesConfig) -> bool:
        """Whether every player has his own column (each plays for himself, or Kozel)."""
        return self.layout_for(cfg) in (LAYOUT_SEATS, LAYOUT_KOZEL)

    def side_kind_for(self, cfg: RulesConfig) -> str:
        """How a side is named: ``"pair"`` (two partners) or ``"player"`` (one player)."""
        return SIDE_PAIR if self.side_size(cfg) == 2 and not self.per_seat(cfg) else SIDE_PLAYER

    def side_label(self, side: str, cfg: RulesConfig) -> str:
        """A side's English label, marked for translation: "Pair A", "Player A"."""
        if self.side_kind_for(cfg) == SIDE_PAIR:
            return {"a": _("Pair A"), "b": _("Pair B")}.get(side, _("Pair"))
        return {"a": _("Player A"), "b": _("Player B")}.get(side, _("Player"))

    def sides_label(self, cfg: RulesConfig) -> str:
        """The sides' English name in a heading, marked for translation: "Pairs", "Players"."""
        return _("Pairs") if self.side_kind_for(cfg) == SIDE_PAIR else _("Players")

    def kind_label(self, individual: bool, cfg: RulesConfig) -> str:
        """The tournament's kind as this game plays it: pairs, singles or individual."""
        if individual:
            return _("Individual tournament")
        return _("Pairs tournament") if self.side_size(cfg) == 2 else _("Singles tournament")

    def config(self, **overrides: Any) -> RulesConfig:
        """The rule set's preset regulations with ``overrides`` applied."""
        return RulesConfig(**{**self.preset, **overrides})

    # -- seats and sides ------------------------------------------------------------------

    def sides_for(self, cfg: RulesConfig) -> tuple[str, ...]:
        """The sides of a party under these regulations (games of 2–4 players vary)."""
        return self.sides

    def seats_for(self, cfg: RulesConfig) -> tuple[str, ...]:
        """The seats taken at the table under these regulations, in playing order."""
        return self.seats

    def hand_size(self, cfg: RulesConfig) -> int:
        """Tiles dealt to each player."""
        return cfg.tiles_per_hand or HAND_SIZE

    def side_of(self, seat: str, field_name: str = "went_out") -> str:
        """The side a seat belongs to (``"a2"`` → ``"a"``)."""
        if seat not in self.seats:
            raise RuleError(field_name, _("Unknown seat: %(seat)s."), seat=seat)
        return seat.rstrip("0123456789")

    def opponents(self, side: str, cfg: RulesConfig | None = None) -> tuple[str, ...]:
        """The sides playing against ``side`` (under ``cfg`` when the sides vary)."""
        sides = self.sides if cfg is None else self.sides_for(cfg)
        return tuple(other for other in sides if other != side)

    def check_side(
        self, side: object, field_name: str = "winner", sides: Sequence[str] | None = None
    ) -> str:
        """Return ``side`` if it is one of ``sides`` (default: this rule set's), else raise."""
        if side not in (self.sides if sides is None else sides):
            raise RuleError(field_name, _("Unknown side: %(side)s."), side=side)
        return side  # type: ignore[return-value]

    # -- a deal ---------------------------------------------------------------------------

    @abc.abstractmethod
    def score_deal(self, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """Score one deal from what the referee entered; raise RuleError on bad input."""

    # -- a party --------------------------------------------------------------------------

    def party_totals(
        self, deals: Sequence[DealScore], fines: Sequence[FineFact], cfg: RulesConfig
    ) -> Totals:
        """The party's totals: THE one function every shown total comes from.

        Deal points are summed in order; with ``drawn_fish="carry"`` a drawn fish's points
        wait for the next deal won by a domino or a fish (several drawn fishes accumulate;
        annulled deals and deals the referee ended neither collect nor reset them). Fines are
        applied with the mode recorded on each fine. Without ``allow_negative`` the final
        points are clamped at zero.
        """
        sides = self.sides_for(cfg)
        deal_points = {side: 0 for side in sides}
        running: list[dict[str, int]] = []
        carry = 0
        carrying = cfg.drawn_fish == DRAWN_FISH_CARRY
        for deal in deals:
            if deal.outcome == DRAWN_FISH:
                if carrying:
                    carry += deal.carry
            else:
                for side, value in deal.points.items():
                    deal_points[self.check_side(side, "points", sides)] += value
                if carry and deal.winner is not None and deal.outcome in (DOMINO, FISH):
                    deal_points[self.check_side(deal.winner, "winner", sides)] += carry
                    carry = 0
            running.append(dict(deal_points))

        fine_points = self.fine_totals(fines, cfg)
        points = {side: deal_points[side] + fine_points[side] for side in sides}
        if not cfg.allow_negative:
            points = {side: max(0, value) for side, value in points.items()}
        return Totals(
            points=points,
            deal_points=deal_points,
            fine_points=fine_points,
            running=running,
            carry=carry,
        )

    def fine_totals(self, fines: Sequence[FineFact], cfg: RulesConfig) -> dict[str, int]:
        """Points per side that the fines take away (``deduct``) or give (``award``)."""
        sides = self.sides_for(cfg)
        fine_points = {side: 0 for side in sides}
        for fine in fines:
            side = self.check_side(fine.side, "side", sides)
            if not is_count(fine.points):
                raise RuleError("points", _("A fine must be a whole number of points."))
            if fine.mode == FINE_DEDUCT:
                fine_points[side] -= fine.points
            elif fine.mode == FINE_AWARD:
                for other in self.opponents(side, cfg):
                    fine_points[other] += fine.points
            else:
                raise RuleError("mode", _("Unknown fine mode: %(mode)s."), mode=fine.mode)
        return fine_points

    def decide(
        self, totals: Totals, cfg: RulesConfig, *, time_expired: bool, deals_after_expiry: int
    ) -> PartyDecision:
        """What happens after a deal (or when the clock runs out).

        ``deals_after_expiry`` counts the deals completed since the party's time ran out.
        A side at or above the target with strictly more points than every other wins;
        sides level at the top at or above the target play an extra deal. When the time ran
        out, the deal in play is finished (``"last_deal"``), then the higher side wins, or an
        extra deal is played while the scores are level: every party has a winner.
        """
        if not is_count(deals_after_expiry):
            raise RuleError("deals_after_expiry", _("The number of deals must be a whole number."))
        sides = self.sides_for(cfg)
        points = {side: totals.points.get(side, 0) for side in sides}
        best = max(points.values())
        leaders = [side for side in sides if points[side] == best]
        if best >= cfg.target:
            if len(leaders) == 1:
                return PartyDecision(FINISHED, leaders[0], REASON_TARGET)
            return PartyDecision(EXTRA_DEAL)
        if time_expired:
            if deals_after_expiry == 0:
                return PartyDecision(LAST_DEAL)
            if len(leaders) == 1:
                return PartyDecision(FINISHED, leaders[0], REASON_TIME)
            return PartyDecision(EXTRA_DEAL)
        return PartyDecision(CONTINUE)

    def finish(self, winner: str, reason: str) -> PartyDecision:
        """A party ended by a ruling (``"forfeit"``, ``"disqualification"``) or by the score."""
        self.check_side(winner)
        if reason not in END_REASONS:
            raise RuleError("reason", _("Unknown reason: %(reason)s."), reason=reason)
        return PartyDecision(FINISHED, winner, reason)

    def forfeit(self, winner: str, cfg: RulesConfig) -> dict[str, int]:
        """Points per side of a party won by forfeit (no-show); default 200 : 0."""
        sides = self.sides_for(cfg)
        self.check_side(winner, "winner", sides)
        return {
            side: cfg.forfeit_winner_points if side == winner else cfg.forfeit_loser_points
            for side in sides
        }

    # -- penalties ------------------------------------------------------------------------

    def fine_for_warning(self, warnings_of_kind_before: int, cfg: RulesConfig) -> bool:
        """Whether a new violation becomes a fine, given the side's earlier ones of its kind.

        With ``warnings_before_fine=1`` the first violation is a warning and every repeated
        one a fine; with 0 every violation is a fine.
        """
        if not is_count(warnings_of_kind_before):
            raise RuleError("warnings", _("The number of warnings must be a whole number."))
        return warnings_of_kind_before >= cfg.warnings_before_fine

    def fine(self, side: str, cfg: RulesConfig, points: int | None = None) -> FineFact:
        """A fine for ``side`` as the regulations set it (amount and mode)."""
        self.check_side(side, "side", self.sides_for(cfg))
        amount = cfg.fine_points if points is None else points
        if not is_count(amount):
            raise RuleError("points", _("A fine must be a whole number of points."))
        return FineFact(side=side, points=amount, mode=cfg.fine_mode)
