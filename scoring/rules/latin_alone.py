"""The Latin game played alone (RULES.md section 3, [004]): 2, 3 or 4 players, each for himself.

Seven tiles each, the rest stays in the bank and a player who cannot play draws from it. A
player who dominoes scores his opponents' pips ("в одиночку подсчитайте очки своих
оппонентов"); a blocked deal goes to the lowest hand, which scores as usual (the others'
pips); equal lowest hands go to the player who led the deal ("la mano") if he is among them,
else to the one of them sitting nearest after him in playing order, so every deal has a
winner. :class:`scoring.rules.latin.LatinGame` plays this engine when its regulations seat
fewer than four players, or four each for himself (``latin_individual``).
"""

from __future__ import annotations

from scoring.rules.base import DRAWN_FISH, FISH, DealFacts, DealScore, RulesConfig
from scoring.rules.board import OPPONENTS, TIE_LED, Pips, Recipe
from scoring.rules.counts import lowest, nearest_after
from scoring.rules.draw import DrawGame
from scoring.rules.errors import RuleError, _
from scoring.rules.hands import Hands


class LatinAlone(DrawGame):
    """The Latin game, every player for himself: a fish's tie goes to la mano or nearest him."""

    code = "latin"
    name = _("Latin game")

    def check_led(self, led: str | None, cfg: RulesConfig) -> str | None:
        """The seat that led, if entered: one of the seats at the table."""
        if led is not None and led not in self.seats_for(cfg):
            raise RuleError("led", _("Unknown seat: %(seat)s."), seat=led)
        return led

    def board_recipe(self, cfg: RulesConfig) -> Recipe | None:
        """As the Draw game, a fish's tie to the player who led or the one nearest after him."""
        return Recipe(Pips(domino=OPPONENTS, fish=OPPONENTS, tie=TIE_LED))

    def score_deal(self, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """Score a deal as the Draw game does, after checking who led it."""
        self.check_led(facts.led, cfg)
        return super().score_deal(facts, cfg)

    def score_fish(self, hands: Hands, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """The lowest hand wins the others' pips; equal lowest hands: la mano or nearest him."""
        score = super().score_fish(hands, facts, cfg)
        if score.outcome != DRAWN_FISH:
            return score
        led = self.check_led(facts.led, cfg)
        if led is None:
            raise RuleError("led", _("Equal totals: name the player who led the deal (la mano)."))
        left = self.by_side(self.fish_values(hands, cfg))
        winner = nearest_after(led, lowest(left), self.seats_for(cfg), self.side_of)
        return DealScore(FISH, winner, self.only(winner, self.fish_points(winner, left), cfg))
