"""The Draw game (RULES.md section 3): points only at the end of a hand, 2–4 players.

Players draw from the boneyard when they cannot play. The player who goes out scores the pips
left in the other players' hands (a point a pip); in a blocked hand the player with the lowest
total wins them. Lowest totals shared: nobody scores (or, with ``drawn_fish="carry"``, the pips
wait for the next hand won). Every player is his own side; the target is 100–500.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from scoring.rules.base import DOMINO, DRAWN_FISH, FISH, DealFacts, DealScore, RulesConfig
from scoring.rules.board import OPPONENTS, Pips, Recipe
from scoring.rules.counts import lowest
from scoring.rules.errors import _
from scoring.rules.game_settings import PLAYERS, TILES_PER_HAND, GameSetting
from scoring.rules.hands import HandGame, Hands


class DrawGame(HandGame):
    """The Draw game: the one who goes out, or the lowest blocked hand, scores the others."""

    code = "draw"
    name = _("Draw game")
    description = _(
        "Two to four players, each for himself. Points only at the end of a hand: the player "
        "who goes out scores the others' pips; players draw from the boneyard."
    )
    settings: ClassVar[tuple[GameSetting[Any], ...]] = (PLAYERS, TILES_PER_HAND)
    preset = {"target": 100, "players": 2, "tiles_per_hand": 7}

    def board_recipe(self, cfg: RulesConfig) -> Recipe | None:
        """The player who went out, or the lowest blocked hand, scores the others' pips."""
        return Recipe(Pips(domino=OPPONENTS, fish=OPPONENTS))

    def score_domino(self, winner: str, hands: Hands, cfg: RulesConfig) -> DealScore:
        """The player who went out scores what the others hold."""
        left = self.by_side(self.hand_values(hands, cfg))
        won = sum(value for side, value in left.items() if side != winner)
        return DealScore(DOMINO, winner, self.only(winner, won, cfg))

    def score_fish(self, hands: Hands, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """The lowest hand wins the blocked deal; shared lowest hands: a drawn fish."""
        left = self.by_side(self.fish_values(hands, cfg))
        low = lowest(left)
        if len(low) > 1:
            return DealScore(DRAWN_FISH, None, self.zero(cfg), carry=sum(left.values()))
        winner = low[0]
        return DealScore(FISH, winner, self.only(winner, self.fish_points(winner, left), cfg))

    def fish_values(self, hands: Hands, cfg: RulesConfig) -> dict[str, int]:
        """What each hand counts in a blocked deal: as after a domino, unless a game says not."""
        return self.hand_values(hands, cfg)

    def fish_points(self, winner: str, left: Mapping[str, int]) -> int:
        """What the lowest hand wins in a blocked deal: the others' hands."""
        return sum(value for side, value in left.items() if side != winner)
