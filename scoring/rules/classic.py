"""The Classic game (RULES.md section 3, [000]): 2–4 players, each for himself.

Seven tiles each for two players, five for three or four. The player who goes out scores all
the pips left in the losers' hands, a lone 0-0 counting 25 (the seeds give the 25 to the
loser after a domino). In a fish the lowest hand wins the difference: the sum, over the
others, of their hand minus his (shared lowest hands: nobody scores); a lone 0-0 counts its 0
pips there, so it is the lowest hand, unless ``lone_zero_zero_in_fish`` counts it 25 too.
The target is agreed (100–500).
"""

from __future__ import annotations

from collections.abc import Mapping

from scoring.rules.base import RulesConfig
from scoring.rules.board import Recipe
from scoring.rules.draw import DrawGame
from scoring.rules.errors import _
from scoring.rules.game_settings import LONE_ZERO_ZERO_IN_FISH, PLAYERS, TILES_PER_HAND
from scoring.rules.hands import ZERO_ZERO, Hands

LONE_ZERO_ZERO = 25
"""What a lone 0-0 left in hand counts in the Classic game."""


class ClassicGame(DrawGame):
    """The Classic game: the winner takes the losers' pips; a fish pays the difference."""

    code = "classic"
    name = _("Classic game")
    description = _(
        "Two to four players, each for himself. The winner scores all the losers' pips, a lone "
        "0-0 counting 25; in a fish the lowest hand wins the difference."
    )
    settings = (PLAYERS, TILES_PER_HAND, LONE_ZERO_ZERO_IN_FISH)
    preset = {"target": 100, "players": 2, "lone_zero_zero_in_fish": False}
    lone_values = {ZERO_ZERO: LONE_ZERO_ZERO}

    def board_recipe(self, cfg: RulesConfig) -> Recipe | None:
        """Quick points only: pips wait for the server (a lone 0-0 counts 25, a fish pays the
        difference)."""
        return Recipe(pips=None)

    def hand_size(self, cfg: RulesConfig) -> int:
        """Seven tiles each for two players, five for three or four (unless set otherwise)."""
        if cfg.tiles_per_hand:
            return cfg.tiles_per_hand
        return 7 if len(self.seats_for(cfg)) == 2 else 5

    def fish_values(self, hands: Hands, cfg: RulesConfig) -> dict[str, int]:
        """A fish compares the pips; a lone 0-0 counts 25 only if the regulations say so."""
        if cfg.lone_zero_zero_in_fish:
            return self.hand_values(hands, cfg)
        return dict(hands.pips)

    def fish_points(self, winner: str, left: Mapping[str, int]) -> int:
        """The lowest hand wins the difference to each other hand."""
        return sum(value - left[winner] for value in left.values())
