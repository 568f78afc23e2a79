"""The small interface every rule set implements (its plain data is in ``config``).

Nothing here knows about Django or a database: rule sets take plain values and return plain
values, so they are tested and benchmarked alone.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from scoring.rules.config import (  # re-exported (``__all__``): the rule sets import them here
    ANNULLED,
    CONTINUE,
    DOMINO,
    DOUBLE_SIX_TILES,
    DRAWN_FISH,
    DRAWN_FISH_CARRY,
    DRAWN_FISH_CHOICES,
    DRAWN_FISH_NOBODY,
    END_REASONS,
    EXTRA_DEAL,
    FACT_OUTCOMES,
    FINE_AWARD,
    FINE_DEDUCT,
    FINE_MODES,
    FINISHED,
    FISH,
    FISH_FOR_ALL,
    FISH_FOR_ONE,
    FISH_VARIANTS,
    LAST_DEAL,
    LAYOUT_GAMES,
    LAYOUT_KOZEL,
    LAYOUT_SEATS,
    LAYOUT_SIDES,
    LAYOUTS,
    MATCH_BEST_OF_THREE,
    MATCH_FORMATS,
    MATCH_TO_WINS,
    NEXT_GAME,
    OVERTIME,
    PARTY_STATES,
    REASON_DISQUALIFICATION,
    REASON_FORFEIT,
    REASON_TARGET,
    REASON_TIME,
    REASON_TIMEOUT,
    REFEREE,
    SCORE_OUTCOMES,
    SEATS,
    SIDE_PAIR,
    SIDE_PLAYER,
    SIDES,
    STOPPED,
    DealFacts,
    DealScore,
    FineFact,
    PartyDecision,
    RulesConfig,
    Totals,
    by_party_side,
    is_count,
    party_side,
    wins_needed,
)
from scoring.rules.errors import RuleError, _
from scoring.rules.game_settings import GameSetting
from scoring.rules.moves import HAND_SIZE, MoveAdvice, MoveHelper, Tile, advise


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
    settings: ClassVar[tuple[GameSetting[Any], ...]] = ()
    """The game settings of the regulations an organizer sees for this rule set (declared in
    :mod:`scoring.rules.game_settings`; another game's keep the value the preset gives)."""
    layout: ClassVar[str | None] = None
    """The layout key (``LAYOUTS``); None: two sides, or a column per player (from the sides)."""
    violations: ClassVar[Mapping[str, str]] = {}
    """The rule set's own violation catalogue: code → English label (marked for translation)."""
    consequences: ClassVar[Mapping[str, str]] = {}
    """What each violation of the catalogue costs, as the referee screen explains it (English,
    marked for translation; ``%(points)s``: the regulations' slow-play points)."""
    standings_order: ClassVar[tuple[str, ...] | None] = None
    """The standings order when the regulations name none (None: the standings' default)."""
    move_helper: ClassVar[MoveHelper | None] = None
    """The rule set's time per move for the referee's helper; None: its rules set none, and
    the referee screen offers no helper."""
    fish_needs_double: ClassVar[bool] = True
    """Whether a fish needs the double of the blocking number out too (not in Kozel)."""
    uses_led: ClassVar[bool] = False
    """Whether the referee enters who led each deal (the Latin game breaks a fish's tie)."""

    @property
    def setting_names(self) -> tuple[str, ...]:
        """The names of the game settings an organizer sees for this rule set, in order."""
        return tuple(setting.name for setting in self.settings)

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

    def config(self, **overrides: object) -> RulesConfig:
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

    def helper_for(self, cfg: RulesConfig) -> MoveHelper | None:
        """The move-time helper under these regulations (a fish as this rule set declares it,
        at most the tiles dealt in a hand unless players draw); None: the rules set none."""
        helper = self.move_helper
        if helper is None:
            return None
        return replace(
            helper,
            fish_needs_double=self.fish_needs_double,
            hand_limit=None if helper.draws else self.hand_size(cfg),
        )

    def move_advice(
        self,
        hand: Sequence[Tile],
        open_ends: Sequence[int] | None,
        played: Sequence[Tile] = (),
        cfg: RulesConfig | None = None,
        *,
        boneyard_empty: bool = False,
    ) -> MoveAdvice:
        """The move-time helper's advice under this rule set's time per move.

        Raises RuleError naming ``rule_set`` when the rules set no time per move.
        """
        helper = self.helper_for(self.config() if cfg is None else cfg)
        if helper is None:
            raise RuleError("rule_set", _("The rules of this game set no time per move."))
        return advise(helper, hand, open_ends, played, boneyard_empty=boneyard_empty)

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
        """Points per side of a party won by forfeit (no-show); default the target : 0."""
        sides = self.sides_for(cfg)
        self.check_side(winner, "winner", sides)
        return {
            side: cfg.forfeit_points() if side == winner else cfg.forfeit_loser_points
            for side in sides
        }

    def forfeit_totals(self, winner: str, cfg: RulesConfig) -> Totals:
        """Totals of a party decided without play (no-show, bye, disqualification)."""
        points = self.forfeit(winner, cfg)
        zero = {side: 0 for side in points}
        return Totals(points=points, deal_points=dict(points), fine_points=zero)

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


__all__ = [
    "ANNULLED",
    "CONTINUE",
    "DOMINO",
    "DOUBLE_SIX_TILES",
    "DRAWN_FISH",
    "DRAWN_FISH_CARRY",
    "DRAWN_FISH_CHOICES",
    "DRAWN_FISH_NOBODY",
    "END_REASONS",
    "EXTRA_DEAL",
    "FACT_OUTCOMES",
    "FINE_AWARD",
    "FINE_DEDUCT",
    "FINE_MODES",
    "FINISHED",
    "FISH",
    "FISH_FOR_ALL",
    "FISH_FOR_ONE",
    "FISH_VARIANTS",
    "LAST_DEAL",
    "LAYOUTS",
    "LAYOUT_GAMES",
    "LAYOUT_KOZEL",
    "LAYOUT_SEATS",
    "LAYOUT_SIDES",
    "MATCH_BEST_OF_THREE",
    "MATCH_FORMATS",
    "MATCH_TO_WINS",
    "NEXT_GAME",
    "OVERTIME",
    "PARTY_STATES",
    "REASON_DISQUALIFICATION",
    "REASON_FORFEIT",
    "REASON_TARGET",
    "REASON_TIME",
    "REASON_TIMEOUT",
    "REFEREE",
    "SCORE_OUTCOMES",
    "SEATS",
    "SIDES",
    "SIDE_PAIR",
    "SIDE_PLAYER",
    "STOPPED",
    "DealFacts",
    "DealScore",
    "FineFact",
    "PartyDecision",
    "RuleSet",
    "RulesConfig",
    "Totals",
    "by_party_side",
    "is_count",
    "party_side",
    "wins_needed",
]
