"""The Latin pairs game (RULES.md section 3, [004]): two pairs, seven tiles each.

Scored as sport domino scores a deal, with the Latin rules: a pair that dominoes scores all
the pips left, the partner's included; a blocked deal goes to the pair with the lowest total,
which scores as usual; a tie goes to the pair of the player who led the deal ("la mano"), or
the one sitting nearest after him, so a Latin deal always has a winner
(``DealFacts.led`` names the seat that led).
"""

from __future__ import annotations

from dataclasses import replace

from scoring.rules.base import DRAWN_FISH, FISH, DealFacts, DealScore, RulesConfig
from scoring.rules.errors import RuleError, _
from scoring.rules.hands import nearest_after
from scoring.rules.sport import SportDomino


class LatinPairs(SportDomino):
    """The Latin pairs game: sport-domino scoring, ties of a fish go to "la mano"."""

    code = "latin"
    name = _("Latin pairs game")
    description = _(
        "Four players in two pairs, seven tiles each. A fish with equal totals goes to the pair "
        "of the player who led the hand."
    )
    uses_led = True
    move_helper = None  # seed 004 sets no time per move
    preset = {"target": 200, "domino_counts_partner": True, "tiles_per_hand": 7}

    def score_deal(self, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """Score a deal; a fish with equal totals goes to the pair that led or sits nearest."""
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
            winner = nearest_after(facts.led, self.sides, self.seats, self.side_of)
            score = DealScore(FISH, winner, self._only(winner, score.carry))
        if facts.winner is not None and facts.winner != score.winner:
            raise RuleError("winner", _("%(side)s wins this fish."), side=score.winner)
        if facts.points is not None:
            self._check_matches(facts.points, score.points, cfg)
        return score
