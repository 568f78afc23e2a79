"""The small interface every rule set implements (its plain data is in ``config``).

Nothing here knows about Django or a database: rule sets take plain values and return plain
values, so they are tested and benchmarked alone.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from scoring.rules import board
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
from scoring.rules.ledger import Ledger
from scoring.rules.moves import HAND_SIZE, MoveAdvice, MoveHelper, Tile, advise
from scoring.rules.seating import Seating


class RuleSet(Seating, abc.ABC):
    """The interface of a rule set; shared behaviour is implemented here for any sides
    (the seats, sides and layout in :class:`~scoring.rules.seating.Seating`).

    A rule set only has to say how a deal is scored (:meth:`score_deal`); totals, the end of
    a party, forfeits and fines have working defaults that a rule set may override.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    preset: ClassVar[Mapping[str, Any]] = {}
    """The regulations a new tournament of this rule set starts from (every value editable)."""
    description: ClassVar[str] = ""
    """A short description for the organizer choosing a rule set (marked for translation)."""
    settings: ClassVar[tuple[GameSetting[Any], ...]] = ()
    """The game settings of the regulations an organizer sees for this rule set (declared in
    :mod:`scoring.rules.game_settings`; another game's keep the value the preset gives)."""
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
    uses_led: ClassVar[bool] = False
    """Whether the referee enters who led each deal (the Latin game breaks a fish's tie)."""
    redeal_reasons: ClassVar[Mapping[str, str]] = {}
    """The hands the game deals again: reason code → English label (marked for translation);
    empty: its rules deal no hand again, and the desk offers no redeal."""

    @property
    def setting_names(self) -> tuple[str, ...]:
        """The names of the game settings an organizer sees for this rule set, in order."""
        return tuple(setting.name for setting in self.settings)

    def config(self, **overrides: object) -> RulesConfig:
        """The rule set's preset regulations with ``overrides`` applied."""
        return RulesConfig(**{**self.preset, **overrides})

    def hand_size(self, cfg: RulesConfig) -> int:
        """Tiles dealt to each player."""
        return cfg.tiles_per_hand or HAND_SIZE

    def helper_for(self, cfg: RulesConfig) -> MoveHelper | None:
        """The move-time helper under these regulations (at most the tiles dealt in a hand
        unless players draw); None: the rules set no time per move."""
        helper = self.move_helper
        if helper is None:
            return None
        return replace(helper, hand_limit=None if helper.draws else self.hand_size(cfg))

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

    # -- a deal ---------------------------------------------------------------------------

    def redeal(self, hand: Sequence[Tile] | None, reason: str, cfg: RulesConfig) -> str:
        """The reason a hand is dealt again, checked by the game's rules (the referee's redeal
        ruling); RuleError naming ``rule_set`` where its rules deal no hand again."""
        raise RuleError("rule_set", _("The rules of this game deal no hand again."))

    @abc.abstractmethod
    def score_deal(self, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """Score one deal from what the referee entered; raise RuleError on bad input."""

    def board_recipe(self, cfg: RulesConfig) -> board.Recipe | None:
        """How the desk's deal form scores on the device (:mod:`scoring.rules.board`); None:
        this game's deals wait for the server (its counting is not plain data)."""
        return None

    def board_rules(self, cfg: RulesConfig) -> dict[str, Any] | None:
        """The provisional scoreboard's rule data, sent with the desk's page; None: none."""
        recipe = self.board_recipe(cfg)
        if recipe is None:
            return None
        return board.rules(self, cfg, recipe, ending=type(self).decide is RuleSet.decide)

    # -- a party --------------------------------------------------------------------------

    def party_totals(
        self, deals: Sequence[DealScore], fines: Sequence[FineFact], cfg: RulesConfig
    ) -> Totals:
        """The party's totals: THE one function every shown total comes from.

        Deal points are summed in order; with ``drawn_fish="carry"`` a drawn fish's points
        wait for the next deal won by a domino or a fish (several drawn fishes accumulate;
        annulled deals and deals the referee ended neither collect nor reset them). Fines are
        applied with the mode recorded on each fine, before the points of the deal in play
        when they were given (:class:`~scoring.rules.ledger.Ledger`). Without
        ``allow_negative`` the score is floored at zero at each step, never carrying a debt.
        ``running`` holds the deal points after each deal.
        """
        sides = self.sides_for(cfg)
        deal_points = {side: 0 for side in sides}
        ledger = Ledger(self, sides, fines, cfg)
        running: list[dict[str, int]] = []
        carry = 0
        carrying = cfg.drawn_fish == DRAWN_FISH_CARRY
        for index, deal in enumerate(deals, 1):
            ledger.fines_until(index if deal.number is None else deal.number)
            gained = {side: 0 for side in sides}
            if deal.outcome == DRAWN_FISH:
                if carrying:
                    carry += deal.carry
            else:
                for side, value in deal.points.items():
                    gained[self.check_side(side, "points", sides)] += value
                if carry and deal.winner is not None and deal.outcome in (DOMINO, FISH):
                    gained[self.check_side(deal.winner, "winner", sides)] += carry
                    carry = 0
            for side, value in gained.items():
                deal_points[side] += value
            ledger.add(gained)
            running.append(dict(deal_points))
        points = ledger.close()
        return Totals(
            points=points,
            deal_points=deal_points,
            fine_points=ledger.fine_points,
            running=running,
            carry=carry,
            floored=ledger.floored,
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
