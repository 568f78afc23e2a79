"""The table of a rule set: its seats and sides, how they are named, and its parties' layout.

``Seating`` is the part of the rule set interface (``RuleSet``) the screens, the protocol and
the exports ask about the table: who sits where, who plays against whom, what a side is
called, and the layout object (``scoring.rules.layouts``) of its parties.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from scoring.rules.config import SEATS, SIDE_PAIR, SIDE_PLAYER, SIDES, RulesConfig
from scoring.rules.errors import RuleError, _
from scoring.rules.layouts import GAMES_LAYOUT, SEATS_LAYOUT, SIDES_LAYOUT, Layout


class Seating:
    """Seats, sides and layout of a rule set (the defaults: two pairs, A and B)."""

    sides: ClassVar[tuple[str, ...]] = SIDES
    seats: ClassVar[tuple[str, ...]] = SEATS
    plays_games: ClassVar[bool] = False
    """Whether a party is a match of timed games (UDL, All Fives), each deal in one game."""
    layout: ClassVar[Layout | None] = None
    """The layout of the rule set's parties; None: a match's games, two sides, or a column
    per player (from the sides under the regulations)."""

    # -- seats and sides ------------------------------------------------------------------

    def sides_for(self, cfg: RulesConfig) -> tuple[str, ...]:
        """The sides of a party under these regulations (games of 2–4 players vary)."""
        return self.sides

    def seats_for(self, cfg: RulesConfig) -> tuple[str, ...]:
        """The seats taken at the table under these regulations, in playing order."""
        return self.seats

    def side_of(self, seat: str, field_name: str = "went_out") -> str:
        """The side a seat belongs to (``"a2"`` → ``"a"``)."""
        if seat not in self.seats:
            raise RuleError(field_name, _("Unknown seat: %(seat)s."), seat=seat)
        return seat.rstrip("0123456789")

    def opponents(self, side: str, cfg: RulesConfig | None = None) -> tuple[str, ...]:
        """The sides playing against ``side`` (under ``cfg`` when the sides vary)."""
        sides = self.sides if cfg is None else self.sides_for(cfg)
        return tuple(other for other in sides if other != side)

    def check_side(
        self, side: object, field_name: str = "winner", sides: Sequence[str] | None = None
    ) -> str:
        """Return ``side`` if it is one of ``sides`` (default: this rule set's), else raise."""
        if side not in (self.sides if sides is None else sides):
            raise RuleError(field_name, _("Unknown side: %(side)s."), side=side)
        return side  # type: ignore[return-value]

    # -- the layout and the names of the sides --------------------------------------------

    def side_size(self, cfg: RulesConfig) -> int:
        """Players on a side: 2 for a pair, 1 where every player plays for himself."""
        return 2

    def layout_for(self, cfg: RulesConfig) -> Layout:
        """The layout of this rule set's parties under these regulations."""
        if self.layout is not None:
            return self.layout
        if self.plays_games:
            return GAMES_LAYOUT
        return SIDES_LAYOUT if set(self.sides_for(cfg)) <= set(SIDES) else SEATS_LAYOUT

    def layout_dir(self, cfg: RulesConfig) -> str:
        """The folder of the layout's own templates: ``layouts/<layout>`` (``sides`` for "")."""
        return self.layout_for(cfg).template_dir()

    def per_seat(self, cfg: RulesConfig) -> bool:
        """Whether every player has his own column (each plays for himself, or Kozel)."""
        return self.layout_for(cfg).per_seat

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
