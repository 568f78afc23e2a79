"""The Block game (RULES.md section 3): the Draw game without the boneyard.

Scored exactly as the Draw game; nobody draws, a player who cannot play knocks, so no hand
ever holds more tiles than were dealt (entered tiles are checked against the hand size).
"""

from __future__ import annotations

from scoring.rules.draw import DrawGame
from scoring.rules.errors import _


class BlockGame(DrawGame):
    """The Block game: the Draw game's scoring, hands never grow."""

    code = "block"
    name = _("Block game")
    description = _(
        "Scored as the draw game, but nobody draws from the boneyard: a player who cannot play "
        "knocks."
    )
    draws = False
