"""The provisional scoreboard's rule data: how a rule set's deal turns into points, as plain data.

The referee desk sends it with the page (``referee.board``) and ``static/js/desk-board.js``
adds up the deals queued on the device with it while they wait for the server, so the desk
never holds a game's rules of its own: a rule set says here (``RuleSet.board_recipe``) how the
fields of its deal form score, or that its deals wait for the server (None).

The data: ``sides`` and ``seats`` in playing order, ``seat_side`` (a seat's side), ``target``,
``allow_negative``, ``nothing`` (outcomes that score nothing: an annulled deal), ``carry``
(a drawn fish's pips wait for the next deal won), ``fields`` (the deal form's field names),
``pips`` (how pips left in hand score, or None: a deal entered with pips waits for the server)
and ``ending`` (``"target_time"``: the party ends at the target or, once the time is up, after
the deal in play, an extra deal while the scores are level; None: the device does not say).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from scoring.rules.config import ANNULLED, DRAWN_FISH_CARRY, RulesConfig

ALL = "all"
"""The winner scores the pips of every hand."""
OPPONENTS = "opponents"
"""The winner scores the pips of the other sides' hands."""
TIE_DRAWN = "drawn"
"""Equal lowest hands in a fish: nobody scores (or the pips carry, by the regulations)."""
TIE_LED = "led"
"""Equal lowest hands in a fish: the side of the player who led wins, or the tied side sitting
nearest after him in playing order."""
ENDING_TARGET_TIME = "target_time"
"""The party ends as ``RuleSet.decide`` says: the target, or the time and the deal in play."""

FIELDS = {
    "outcome": "outcome",
    "winner": ["winner", "went_out"],
    "went_out": "went_out",
    "quick": "points",
    "per_side": "points_",
    "pips": "pips_",
    "led": "led",
    "in_time": "play_ended_before_time_up",
}
"""The desk's deal form's field names (``templates/referee/_deal_fields.html``): the outcome,
who won (a side, or a seat: its side), the quick points of the winner, each side's points
(``points_<side>``), each seat's pips left (``pips_<seat>``), who led, and the box saying the
deal's play ended before the time ran out."""


@dataclass(frozen=True)
class Pips:
    """How pips left in hand score: after a domino, after a fish, and a fish's tie."""

    domino: str
    fish: str = ALL
    tie: str = TIE_DRAWN


@dataclass(frozen=True)
class Recipe:
    """How a rule set's deal form scores on the device: quick points go to the winner, each
    side's points to that side, and pips as ``pips`` says (None: they wait for the server)."""

    pips: Pips | None = None


class Table(Protocol):
    """The part of a rule set the data describes: its sides and seats."""

    def sides_for(self, cfg: RulesConfig) -> tuple[str, ...]:
        """The sides under these regulations."""
        ...

    def seats_for(self, cfg: RulesConfig) -> tuple[str, ...]:
        """The seats under these regulations, in playing order."""
        ...

    def side_of(self, seat: str, field_name: str = ...) -> str:
        """A seat's side."""
        ...


def rules(table: Table, cfg: RulesConfig, recipe: Recipe, *, ending: bool) -> dict[str, Any]:
    """The plain rule data of the provisional scoreboard (see the module's docstring).

    ``ending``: whether the rule set ends its parties as ``RuleSet.decide`` does (else the
    device shows the score and leaves the end to the server).
    """
    seats: Sequence[str] = table.seats_for(cfg)
    return {
        "sides": list(table.sides_for(cfg)),
        "seats": list(seats),
        "seat_side": {seat: table.side_of(seat) for seat in seats},
        "target": cfg.target,
        "allow_negative": cfg.allow_negative,
        "nothing": [ANNULLED],
        "carry": cfg.drawn_fish == DRAWN_FISH_CARRY,
        "fields": FIELDS,
        "pips": None if recipe.pips is None else {
            "domino": recipe.pips.domino, "fish": recipe.pips.fish, "tie": recipe.pips.tie,
        },
        "ending": ENDING_TARGET_TIME if ending else None,
    }
