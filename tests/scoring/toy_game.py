"""The toy game: a small rule set with a layout of its own, for the test that a game owns it.

Three players, each for himself: whoever goes out scores 10, a blocked hand gives 5 to the
lowest hand (nobody scores when the lowest hands are level); the target is 30. Its layout
(``ToyLayout``, key ``toy``) is a column per player; the party page's partials are in
``tests/scoring/toy_templates/layouts/toy/``. Nothing outside this module and those templates
knows the game: ``tests/scoring/test_toy_game.py`` plays it through the whole site.
"""

from __future__ import annotations

from typing import ClassVar

from scoring.rules.base import DOMINO, DRAWN_FISH, FISH, DealFacts, DealScore, RulesConfig
from scoring.rules.counts import lowest
from scoring.rules.errors import _
from scoring.rules.hands import HandGame, Hands
from scoring.rules.layouts import PROTOCOL_SEATS, Layout

TOY = "toy"
"""The toy game's code and its layout's key."""


class ToyLayout(Layout):
    """A column per player; the party page's partials are the toy's own."""

    key = TOY
    per_seat = True
    protocol_form = PROTOCOL_SEATS


class ToyGame(HandGame):
    """Three players, each for himself: 10 for going out, 5 for the lowest blocked hand."""

    code = TOY
    name = _("Toy game")
    description = _("Three players, each for himself: 10 points for going out.")
    players: ClassVar[int | None] = 3
    preset = {"target": 30, "players": 3}
    layout = ToyLayout()

    def score_domino(self, winner: str, hands: Hands, cfg: RulesConfig) -> DealScore:
        """The player who went out scores 10."""
        return DealScore(DOMINO, winner, self.only(winner, 10, cfg))

    def score_fish(self, hands: Hands, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """The lowest hand scores 5; level lowest hands: nobody scores."""
        low = lowest(self.by_side(dict(hands.pips)))
        if len(low) > 1:
            return DealScore(DRAWN_FISH, None, self.zero(cfg))
        return DealScore(FISH, low[0], self.only(low[0], 5, cfg))
