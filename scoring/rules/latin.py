"""The Latin game (RULES.md section 3, [004]): 2, 3 or 4 players, alone or four in two pairs.

Seven tiles each. Four players play in two pairs unless the regulations seat them each for
himself (``latin_individual``); two or three players always play alone
(:class:`scoring.rules.latin_alone.LatinAlone` scores them). In pairs the game is scored as
sport domino scores a deal, with the Latin rules: a pair that dominoes scores all the pips
left, the partner's included; a blocked deal goes to the pair with the lowest total, which
scores as usual; a tie goes to the pair of the player who led the deal ("la mano"), or the
one sitting nearest after him, so a Latin deal always has a winner (``DealFacts.led`` names
the seat that led). Each later deal is led by the player after the last deal's leader.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scoring.rules.base import (
    DRAWN_FISH,
    FISH,
    SEATS,
    SIDES,
    DealFacts,
    DealScore,
    RulesConfig,
)
from scoring.rules.board import ALL, TIE_LED, Pips, Recipe
from scoring.rules.counts import nearest_after
from scoring.rules.errors import RuleError, _
from scoring.rules.game_settings import LATIN_INDIVIDUAL, PLAYERS
from scoring.rules.latin_alone import LatinAlone
from scoring.rules.sport import SportDomino

ALONE = LatinAlone()
"""The engine of the Latin game played each for himself."""
ALL_SIDES = (*SIDES, *SEATS)
"""Every side the game may have: the pairs "a", "b", or the seats of players alone."""


def plays_alone(cfg: RulesConfig) -> bool:
    """Whether every player plays for himself: fewer than four, or four so set (``[004]``)."""
    return cfg.players < len(SEATS) or cfg.latin_individual


class LatinGame(SportDomino):
    """The Latin game: in pairs sport-domino scoring with la mano's tie; alone, the Draw game's."""

    code = "latin"
    name = _("Latin game")
    description = _(
        "Two, three or four players, seven tiles each; four may play in two pairs. A fish with "
        "equal totals goes to the player (or pair) who led the hand, or sits nearest after him."
    )
    uses_led = True
    move_helper = None  # seed 004 sets no time per move
    settings = (PLAYERS, LATIN_INDIVIDUAL)
    preset = {
        "target": 200,
        "domino_counts_partner": True,
        "tiles_per_hand": 7,
        "players": 4,
        "latin_individual": False,
    }

    # -- seats and sides ------------------------------------------------------------------

    def side_size(self, cfg: RulesConfig) -> int:
        """Two partners a side in pairs; one player when every player plays for himself."""
        return ALONE.side_size(cfg) if plays_alone(cfg) else 2

    def sides_for(self, cfg: RulesConfig) -> tuple[str, ...]:
        """The pairs "a" and "b", or the seats of the players playing alone."""
        return ALONE.sides_for(cfg) if plays_alone(cfg) else SIDES

    def seats_for(self, cfg: RulesConfig) -> tuple[str, ...]:
        """Four seats in pairs, else as many as the regulations' players, in playing order."""
        return ALONE.seats_for(cfg) if plays_alone(cfg) else SEATS

    def check_side(
        self, side: object, field_name: str = "winner", sides: Sequence[str] | None = None
    ) -> str:
        """Return ``side`` if it is one of ``sides`` (default: any the game may have)."""
        return super().check_side(side, field_name, ALL_SIDES if sides is None else sides)

    def next_leader(
        self, outcome: str, went_out: str | None, fish_by: str | None, led: str | None,
        cfg: RulesConfig,
    ) -> str | None:
        """Who leads the next deal: the player after the last deal's leader in playing order.

        Seed 004, "Следующие раунды": the lead passes on to the next player (counter-clockwise),
        who may start with any tile. None when the last deal's leader is not known.
        """
        seats = self.seats_for(cfg)
        if led not in seats:
            return None
        return seats[(seats.index(led) + 1) % len(seats)]

    def board_recipe(self, cfg: RulesConfig) -> Recipe | None:
        """Alone as the Latin game alone scores; in pairs every hand's pips to the winner, a
        fish's tie to the pair of the player who led."""
        if plays_alone(cfg):
            return ALONE.board_recipe(cfg)
        return Recipe(Pips(domino=ALL, fish=ALL, tie=TIE_LED))

    # -- a deal ---------------------------------------------------------------------------

    def score_deal(self, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """Score a deal: alone as :class:`LatinAlone` does, in pairs with the pairs' rules."""
        if plays_alone(cfg):
            return ALONE.score_deal(facts, cfg)
        return self.score_pairs(facts, cfg)

    def score_pairs(self, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """Score a pairs deal; a fish's tie goes to the pair that led or sits nearest after."""
        cfg = replace(cfg, domino_counts_partner=True)
        if facts.led is not None:
            self.side_of(facts.led, "led")
        if facts.outcome != FISH or facts.pips is None:
            score = super().score_deal(facts, cfg)
            if score.outcome == DRAWN_FISH:
                raise RuleError("winner", _("Name the pair that won the fish."))
            return score
        score = super().score_deal(replace(facts, winner=None, points=None), cfg)
        if score.outcome == DRAWN_FISH:
            if facts.led is None:
                raise RuleError(
                    "led", _("Equal totals: name the player who led the deal (la mano).")
                )
            winner = nearest_after(facts.led, SIDES, SEATS, self.side_of)
            score = DealScore(FISH, winner, self._only(winner, score.carry))
        if facts.winner is not None and facts.winner != score.winner:
            raise RuleError("winner", _("%(side)s wins this fish."), side=score.winner)
        if facts.points is not None:
            self._check_matches(facts.points, score.points, cfg)
        return score
