"""A party's (or a game's) score as it runs: deals and fines in the order they came.

Each fine counts before the points of the deal that was in play when it was given
(``FineFact.deal``; a fine without one counts after every deal). Where a total may not go
below zero (``allow_negative`` off, RULES.md 1 [choice]) the score is floored at zero after
each step — a deal's fines, then its points — so a debt is never carried: a side at 10 fined
25 has 0, and 30 after a deal of 30. What the floor gave back is kept (``floored``), so the
figures add up: points = deal points + fine points + floored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from scoring.rules.config import FineFact, RulesConfig


class FineRules(Protocol):
    """The part of a rule set the ledger asks: what fines take away or give, per side."""

    def fine_totals(self, fines: Sequence[FineFact], cfg: RulesConfig) -> dict[str, int]:
        """Points per side that ``fines`` take away (negative) or give."""
        ...


class Ledger:
    """The running score of ``sides``: ``fines_until`` a deal, ``add`` its points, ``close``."""

    def __init__(
        self, rules: FineRules, sides: Sequence[str], fines: Sequence[FineFact], cfg: RulesConfig
    ) -> None:
        self.score = dict.fromkeys(sides, 0)
        self.fine_points = dict.fromkeys(sides, 0)
        self.floored = dict.fromkeys(sides, 0)
        self._rules, self._cfg = rules, cfg
        self._floor = not cfg.allow_negative
        self._pending = list(fines)

    def fines_until(self, number: int | None) -> None:
        """Count the fines given while deal ``number`` or an earlier one was in play (None:
        every fine not counted yet), as one step."""
        due: list[FineFact] = []
        later: list[FineFact] = []
        for fine in self._pending:
            now = number is None or (fine.deal is not None and fine.deal <= number)
            (due if now else later).append(fine)
        if not due:
            return
        self._pending = later
        fined = self._rules.fine_totals(due, self._cfg)
        for side, value in fined.items():
            self.fine_points[side] += value
        self.add(fined)

    def add(self, points: Mapping[str, int]) -> None:
        """Add points per side (a deal's, or a step's fines), then floor the score if due."""
        for side, value in points.items():
            self.score[side] += value
        if self._floor:
            for side, value in self.score.items():
                if value < 0:
                    self.floored[side] -= value
                    self.score[side] = 0

    def close(self) -> dict[str, int]:
        """Count the fines left (given after the last deal, or at no deal) and return the
        score."""
        self.fines_until(None)
        return dict(self.score)
