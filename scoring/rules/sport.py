"""Sport domino (RULES.md section 1): four players in two pairs, a double-six set, 168 pips.

A deal ends in a *domino* (a player went out: his pair scores the pips left in hand, the
partner's too unless the regulations say otherwise) or a *fish* (the line is blocked: the pair
with fewer pips scores the pips of all four hands; equal sums are a drawn fish). The referee
may also annul a deal (0 : 0) or end it and enter the points (a false pass).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from scoring.rules.base import (
    ANNULLED,
    DOMINO,
    DRAWN_FISH,
    DRAWN_FISH_CARRY,
    FISH,
    REFEREE,
    SEATS,
    SIDES,
    DealFacts,
    DealScore,
    RulesConfig,
    RuleSet,
    is_count,
)
from scoring.rules.board import ALL, OPPONENTS, Pips, Recipe
from scoring.rules.errors import RuleError, _
from scoring.rules.moves import SPORT_HELPER, MoveHelper


class SportDomino(RuleSet):
    """The sport-domino rule set (pairs, target 200, time-limited parties)."""

    code = "sport"
    name = _("Sport domino")
    description = _(
        "Four players in two pairs. A deal ends in a domino or a fish; the first pair to reach "
        "the target wins the time-limited party."
    )
    move_helper: ClassVar[MoveHelper | None] = SPORT_HELPER
    sides = SIDES
    seats = SEATS

    def board_recipe(self, cfg: RulesConfig) -> Recipe | None:
        """A domino scores every hand's pips (or the opponents' only, by the regulations); a
        fish the pips of all four hands, to the pair with fewer; equal pips: nobody."""
        return Recipe(Pips(domino=ALL if cfg.domino_counts_partner else OPPONENTS))

    # -- scoring a deal -------------------------------------------------------------------

    def score_deal(self, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """Score one deal from what the referee entered; raise RuleError naming the field."""
        if facts.outcome == DOMINO:
            return self._score_domino(facts, cfg)
        if facts.outcome == FISH:
            return self._score_fish(facts, cfg)
        if facts.outcome == REFEREE:
            return self._score_referee(facts, cfg)
        if facts.outcome == ANNULLED:
            return DealScore(ANNULLED, None, self._zero())
        raise RuleError(
            "outcome", _("Unknown way for a deal to end: %(outcome)s."), outcome=facts.outcome
        )

    def _score_domino(self, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        winner = None
        if facts.went_out is not None:
            winner = self.side_of(facts.went_out)
        if facts.winner is not None:
            self.check_side(facts.winner)
            if winner is not None and facts.winner != winner:
                raise RuleError(
                    "winner",
                    _("%(seat)s went out, so the pair %(side)s won the deal."),
                    seat=facts.went_out,
                    side=winner,
                )
            winner = facts.winner
        if winner is None:
            raise RuleError(
                "went_out", _("A domino needs the player who went out or the winning pair.")
            )

        if facts.pips is not None:
            by_side, by_seat = self._read_pips(facts.pips, cfg, implied_zero=facts.went_out)
            if by_seat is not None:
                if facts.went_out is not None:
                    if by_seat[facts.went_out] != 0:
                        raise RuleError(
                            "pips",
                            _("%(seat)s went out and cannot have pips left."),
                            seat=facts.went_out,
                        )
                elif not any(
                    by_seat[seat] == 0 for seat in self.seats if self.side_of(seat) == winner
                ):
                    raise RuleError(
                        "pips", _("A player of the winning pair must have no pips left.")
                    )
            losers = sum(by_side[side] for side in self.opponents(winner))
            if losers == 0:
                # Both opponents still hold tiles and only one of them can be the 0-0.
                raise RuleError("pips", _("After a domino the losing pair always has pips left."))
            value = sum(by_side.values()) if cfg.domino_counts_partner else losers
            points = self._only(winner, value)
            if facts.points is not None:
                self._check_matches(facts.points, points, cfg)
        elif facts.points is not None:
            points = self._quick_points(facts.points, winner, cfg)
        else:
            raise RuleError("pips", _("Enter the pips left in hand, or the points of the deal."))
        return DealScore(DOMINO, winner, points)

    def _score_fish(self, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        if facts.went_out is not None:
            raise RuleError(
                "went_out",
                _("Nobody goes out in a fish: a player who played his last tile made a domino."),
            )
        if facts.winner is not None:
            self.check_side(facts.winner)

        if facts.pips is not None:
            by_side, _by_seat = self._read_pips(facts.pips, cfg)
            total = sum(by_side.values())
            fewest = min(by_side.values())
            lowest = [side for side in self.sides if by_side[side] == fewest]
            if len(lowest) > 1:
                if facts.winner is not None:
                    raise RuleError("winner", _("Equal pips: nobody wins this fish."))
                score = DealScore(DRAWN_FISH, None, self._zero(), carry=total)
            else:
                winner = lowest[0]
                if facts.winner is not None and facts.winner != winner:
                    raise RuleError(
                        "winner",
                        _("The pair with fewer pips, %(side)s, wins a fish."),
                        side=winner,
                    )
                score = DealScore(FISH, winner, self._only(winner, total))
            if facts.points is not None:
                self._check_matches(facts.points, score.points, cfg)
            return score

        if facts.winner is not None:
            if facts.points is None:
                raise RuleError(
                    f"points_{facts.winner}", _("Enter the points of the deal, or the pips.")
                )
            winner = facts.winner
            return DealScore(FISH, winner, self._quick_points(facts.points, winner, cfg))
        if facts.points is not None:
            points = self._read_points(facts.points, cfg)
            if any(points.values()):
                raise RuleError("winner", _("Name the pair that won the fish."))
            if cfg.drawn_fish == DRAWN_FISH_CARRY:
                raise RuleError(
                    "pips",
                    _("Enter the pips of a drawn fish: its points carry over to the next deal."),
                )
            return DealScore(DRAWN_FISH, None, self._zero())
        raise RuleError("pips", _("Enter the pips left in hand, or the points of the deal."))

    def _score_referee(self, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        if facts.points is None:
            points = self._read_points(
                {side: cfg.false_pass_points(side) for side in self.sides}, cfg
            )
        else:
            points = self._read_points(facts.points, cfg)
        if facts.winner is not None:
            winner: str | None = self.check_side(facts.winner)
        else:
            best = max(points.values())
            leaders = [side for side in self.sides if points[side] == best]
            winner = leaders[0] if best > 0 and len(leaders) == 1 else None
        return DealScore(REFEREE, winner, points)

    # -- reading the input ----------------------------------------------------------------

    def _zero(self) -> dict[str, int]:
        return {side: 0 for side in self.sides}

    def _only(self, winner: str, value: int) -> dict[str, int]:
        return {side: value if side == winner else 0 for side in self.sides}

    def _read_pips(
        self, pips: object, cfg: RulesConfig, implied_zero: str | None = None
    ) -> tuple[dict[str, int], dict[str, int] | None]:
        """Pips per side (and per seat, when given per seat), checked.

        ``implied_zero`` is the seat that went out: its 0 may be left out.
        """
        if not isinstance(pips, Mapping) or not pips:
            raise RuleError("pips", _("Enter the pips left per player or per pair."))
        keys = set(pips)
        if keys <= set(self.seats):
            names: tuple[str, ...] = self.seats
        elif keys <= set(self.sides):
            names = self.sides
        else:
            unknown = keys - set(self.seats) - set(self.sides)
            if unknown:
                raise RuleError(
                    "pips",
                    _("Unknown player or pair: %(key)s."),
                    key=", ".join(sorted(map(str, unknown))),
                )
            raise RuleError("pips", _("Give the pips either per player or per pair, not both."))
        missing = [name for name in names if name not in pips and name != implied_zero]
        if missing:
            raise RuleError("pips", _("Pips missing for: %(keys)s."), keys=", ".join(missing))
        values = {name: pips.get(name, 0) for name in names}
        for name, value in values.items():
            if not is_count(value):
                raise RuleError(
                    "pips",
                    _("Pips are a whole number of at least 0 (%(key)s: %(value)s)."),
                    key=name,
                    value=value,
                )
        total = sum(values.values())
        if total > cfg.max_deal_points:
            raise RuleError(
                "pips",
                _("The pips add up to %(total)s, more than the %(max)s a deal can be worth."),
                total=total,
                max=cfg.max_deal_points,
            )
        if names is self.sides:
            return values, None
        by_side = self._zero()
        for seat, value in values.items():
            by_side[self.side_of(seat, "pips")] += value
        return by_side, values

    def _read_points(self, points: object, cfg: RulesConfig) -> dict[str, int]:
        """Points per side (missing sides score 0), checked."""
        if not isinstance(points, Mapping):
            raise RuleError("points", _("Enter the points per pair."))
        for key in points:
            if key not in self.sides:
                raise RuleError("points", _("Unknown pair: %(side)s."), side=key)
        values = {side: points.get(side, 0) for side in self.sides}
        for side, value in values.items():
            if not is_count(value):
                raise RuleError(f"points_{side}", _("Points are a whole number of at least 0."))
        total = sum(values.values())
        if total > cfg.max_deal_points:
            highest = max(self.sides, key=lambda side: values[side])
            raise RuleError(
                f"points_{highest}",
                _("A deal cannot be worth more than %(max)s points (%(total)s entered)."),
                total=total,
                max=cfg.max_deal_points,
            )
        return values

    def _quick_points(self, points: object, winner: str, cfg: RulesConfig) -> dict[str, int]:
        """Points entered without pips: only the winner scores, and more than 0."""
        values = self._read_points(points, cfg)
        for side in self.opponents(winner):
            if values[side] != 0:
                raise RuleError(
                    f"points_{side}",
                    _("Only the pair that won the deal scores; the other scores 0."),
                )
        if values[winner] == 0:
            raise RuleError(
                f"points_{winner}", _("The pair that won the deal scores more than 0 points.")
            )
        return values

    def _check_matches(self, entered: object, computed: dict[str, int], cfg: RulesConfig) -> None:
        """Points entered together with pips must be what the pips give."""
        values = self._read_points(entered, cfg)
        for side in self.sides:
            if values[side] != computed[side]:
                raise RuleError(
                    f"points_{side}",
                    _("These points do not match the pips: %(expected)s expected."),
                    expected=computed[side],
                )
