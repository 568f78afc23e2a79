"""Plain data of the rule engine and the small interface every rule set implements.

Nothing here knows about Django or a database: rule sets take plain values and return plain
values, so they are tested and benchmarked alone.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from scoring.rules.errors import RuleError, _

SIDES = ("a", "b")
"""The two sides of a party (the pairs, in sport domino)."""

SEATS = ("a1", "b1", "a2", "b2")
"""Seating order around the table, counter-clockwise; a1 and a2 are partners, so are b1 and b2."""

# Outcomes the referee enters (DealFacts.outcome) ...
DOMINO = "domino"
FISH = "fish"
ANNULLED = "annulled"
REFEREE = "referee"
FACT_OUTCOMES = (DOMINO, FISH, ANNULLED, REFEREE)
# ... and the one more a score can have (DealScore.outcome).
DRAWN_FISH = "drawn_fish"
SCORE_OUTCOMES = (DOMINO, FISH, DRAWN_FISH, ANNULLED, REFEREE)

DRAWN_FISH_NOBODY = "nobody"
DRAWN_FISH_CARRY = "carry"
DRAWN_FISH_CHOICES = (DRAWN_FISH_NOBODY, DRAWN_FISH_CARRY)

FINE_DEDUCT = "deduct"
FINE_AWARD = "award"
FINE_MODES = (FINE_DEDUCT, FINE_AWARD)

# PartyDecision.state and .reason values.
CONTINUE = "continue"
LAST_DEAL = "last_deal"
EXTRA_DEAL = "extra_deal"
FINISHED = "finished"
PARTY_STATES = (CONTINUE, LAST_DEAL, EXTRA_DEAL, FINISHED)
REASON_TARGET = "target"
REASON_TIME = "time"
REASON_FORFEIT = "forfeit"
REASON_DISQUALIFICATION = "disqualification"
END_REASONS = (REASON_TARGET, REASON_TIME, REASON_FORFEIT, REASON_DISQUALIFICATION)


def is_count(value: object) -> bool:
    """Whether ``value`` is a whole number of at least zero (``bool`` is not a number here)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


# Minimum value of each integer setting of RulesConfig.
_CONFIG_MINIMUM = {
    "target": 1,
    "party_minutes": 1,
    "fine_points": 0,
    "warnings_before_fine": 0,
    "forfeit_winner_points": 0,
    "forfeit_loser_points": 0,
    "false_pass_points_a": 0,
    "false_pass_points_b": 0,
    "no_show_minutes": 0,
    "max_deal_points": 1,
}
_CONFIG_CHOICES = {
    "drawn_fish": DRAWN_FISH_CHOICES,
    "fine_mode": FINE_MODES,
}


@dataclass(frozen=True)
class RulesConfig:
    """A plain snapshot of a tournament's regulations, as far as the rules need them.

    Built by the Django layer from the tournament's regulations; every value is checked on
    construction and a bad one raises :class:`RuleError` naming the setting.
    """

    target: int = 200
    party_minutes: int = 40
    domino_counts_partner: bool = True
    drawn_fish: str = DRAWN_FISH_NOBODY
    fine_points: int = 25
    fine_mode: str = FINE_DEDUCT
    allow_negative: bool = True
    warnings_before_fine: int = 1
    forfeit_winner_points: int = 200
    forfeit_loser_points: int = 0
    false_pass_points_a: int = 0
    false_pass_points_b: int = 0
    no_show_minutes: int = 5
    max_deal_points: int = 168

    def __post_init__(self) -> None:
        for name, minimum in _CONFIG_MINIMUM.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
                raise RuleError(
                    name,
                    _("This setting must be a whole number of at least %(minimum)s."),
                    minimum=minimum,
                )
        for name, choices in _CONFIG_CHOICES.items():
            if getattr(self, name) not in choices:
                raise RuleError(
                    name,
                    _("Choose one of: %(choices)s."),
                    choices=", ".join(choices),
                )
        for name in ("domino_counts_partner", "allow_negative"):
            if not isinstance(getattr(self, name), bool):
                raise RuleError(name, _("This setting must be yes or no."))
        if self.false_pass_points_a + self.false_pass_points_b > self.max_deal_points:
            raise RuleError(
                "false_pass_points_a",
                _("A deal cannot be worth more than %(max)s points."),
                max=self.max_deal_points,
            )

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> RulesConfig:
        """Build a config from a mapping, ignoring keys that are not settings of the rules."""
        names = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in values.items() if key in names})

    def false_pass_points(self, side: str) -> int:
        """Default points of ``side`` for a deal the referee ended after a false pass."""
        return int(getattr(self, f"false_pass_points_{side}", 0))


@dataclass(frozen=True)
class DealFacts:
    """What the referee enters for one deal.

    ``pips`` are the pips left per seat (``"a1"`` .. ``"b2"``) or per side (``"a"``, ``"b"``);
    ``points`` per side are the quick entry (with ``winner`` or ``went_out``) or, for an
    outcome of ``"referee"``, the points the referee gives.
    """

    outcome: str
    went_out: str | None = None
    winner: str | None = None
    pips: Mapping[str, int] | None = None
    points: Mapping[str, int] | None = None


@dataclass(frozen=True)
class DealScore:
    """A deal's result: how it ended, who won it, the points per side before any carry-over.

    ``carry`` is what a drawn fish leaves on the table (the pips of all hands); it is 0 for
    every other outcome. ``party_totals`` carries it to the next deal won when the regulations
    say so (``drawn_fish="carry"``).
    """

    outcome: str
    winner: str | None
    points: dict[str, int]
    carry: int = 0


@dataclass(frozen=True)
class FineFact:
    """A fine as it was given: the offending side, the points, the mode in force then."""

    side: str
    points: int
    mode: str = FINE_DEDUCT


@dataclass(frozen=True)
class Totals:
    """A party's totals, derived from its deals and fines by ``RuleSet.party_totals`` only."""

    points: dict[str, int]
    deal_points: dict[str, int]
    fine_points: dict[str, int]
    running: list[dict[str, int]] = field(default_factory=list)
    carry: int = 0


@dataclass(frozen=True)
class PartyDecision:
    """What happens next in a party: play on, a last deal, an extra deal, or it is over."""

    state: str
    winner: str | None = None
    reason: str | None = None

    @property
    def finished(self) -> bool:
        """Whether the party is over."""
        return self.state == FINISHED


class RuleSet(abc.ABC):
    """The interface of a rule set; shared behaviour is implemented here for any sides.

    A rule set only has to say how a deal is scored (:meth:`score_deal`); totals, the end of
    a party, forfeits and fines have working defaults that a rule set may override.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    sides: ClassVar[tuple[str, ...]] = SIDES
    seats: ClassVar[tuple[str, ...]] = SEATS

    # -- seats and sides ------------------------------------------------------------------

    def side_of(self, seat: str, field_name: str = "went_out") -> str:
        """The side a seat belongs to (``"a2"`` → ``"a"``)."""
        if seat not in self.seats:
            raise RuleError(field_name, _("Unknown seat: %(seat)s."), seat=seat)
        return seat.rstrip("0123456789")

    def opponents(self, side: str) -> tuple[str, ...]:
        """The sides playing against ``side``."""
        return tuple(other for other in self.sides if other != side)

    def check_side(self, side: object, field_name: str = "winner") -> str:
        """Return ``side`` if it is one of this rule set's sides, else raise RuleError."""
        if side not in self.sides:
            raise RuleError(field_name, _("Unknown side: %(side)s."), side=side)
        return side  # type: ignore[return-value]

    # -- a deal ---------------------------------------------------------------------------

    @abc.abstractmethod
    def score_deal(self, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """Score one deal from what the referee entered; raise RuleError on bad input."""

    # -- a party --------------------------------------------------------------------------

    def party_totals(
        self, deals: Sequence[DealScore], fines: Sequence[FineFact], cfg: RulesConfig
    ) -> Totals:
        """The party's totals: THE one function every shown total comes from.

        Deal points are summed in order; with ``drawn_fish="carry"`` a drawn fish's points
        wait for the next deal won by a domino or a fish (several drawn fishes accumulate;
        annulled deals and deals the referee ended neither collect nor reset them). Fines are
        applied with the mode recorded on each fine. Without ``allow_negative`` the final
        points are clamped at zero.
        """
        deal_points = {side: 0 for side in self.sides}
        running: list[dict[str, int]] = []
        carry = 0
        carrying = cfg.drawn_fish == DRAWN_FISH_CARRY
        for deal in deals:
            if deal.outcome == DRAWN_FISH:
                if carrying:
                    carry += deal.carry
            else:
                for side, value in deal.points.items():
                    deal_points[self.check_side(side, "points")] += value
                if carry and deal.winner is not None and deal.outcome in (DOMINO, FISH):
                    deal_points[self.check_side(deal.winner)] += carry
                    carry = 0
            running.append(dict(deal_points))

        fine_points = {side: 0 for side in self.sides}
        for fine in fines:
            side = self.check_side(fine.side, "side")
            if not is_count(fine.points):
                raise RuleError("points", _("A fine must be a whole number of points."))
            if fine.mode == FINE_DEDUCT:
                fine_points[side] -= fine.points
            elif fine.mode == FINE_AWARD:
                for other in self.opponents(side):
                    fine_points[other] += fine.points
            else:
                raise RuleError("mode", _("Unknown fine mode: %(mode)s."), mode=fine.mode)

        points = {side: deal_points[side] + fine_points[side] for side in self.sides}
        if not cfg.allow_negative:
            points = {side: max(0, value) for side, value in points.items()}
        return Totals(
            points=points,
            deal_points=deal_points,
            fine_points=fine_points,
            running=running,
            carry=carry,
        )

    def decide(
        self, totals: Totals, cfg: RulesConfig, *, time_expired: bool, deals_after_expiry: int
    ) -> PartyDecision:
        """What happens after a deal (or when the clock runs out).

        ``deals_after_expiry`` counts the deals completed since the party's time ran out.
        A side at or above the target with strictly more points than every other wins;
        sides level at the top at or above the target play an extra deal. When the time ran
        out, the deal in play is finished (``"last_deal"``), then the higher side wins, or an
        extra deal is played while the scores are level: every party has a winner.
        """
        if not is_count(deals_after_expiry):
            raise RuleError("deals_after_expiry", _("The number of deals must be a whole number."))
        points = {side: totals.points.get(side, 0) for side in self.sides}
        best = max(points.values())
        leaders = [side for side in self.sides if points[side] == best]
        if best >= cfg.target:
            if len(leaders) == 1:
                return PartyDecision(FINISHED, leaders[0], REASON_TARGET)
            return PartyDecision(EXTRA_DEAL)
        if time_expired:
            if deals_after_expiry == 0:
                return PartyDecision(LAST_DEAL)
            if len(leaders) == 1:
                return PartyDecision(FINISHED, leaders[0], REASON_TIME)
            return PartyDecision(EXTRA_DEAL)
        return PartyDecision(CONTINUE)

    def finish(self, winner: str, reason: str) -> PartyDecision:
        """A party ended by a ruling (``"forfeit"``, ``"disqualification"``) or by the score."""
        self.check_side(winner)
        if reason not in END_REASONS:
            raise RuleError("reason", _("Unknown reason: %(reason)s."), reason=reason)
        return PartyDecision(FINISHED, winner, reason)

    def forfeit(self, winner: str, cfg: RulesConfig) -> dict[str, int]:
        """Points per side of a party won by forfeit (no-show); default 200 : 0."""
        self.check_side(winner)
        return {
            side: cfg.forfeit_winner_points if side == winner else cfg.forfeit_loser_points
            for side in self.sides
        }

    # -- penalties ------------------------------------------------------------------------

    def fine_for_warning(self, warnings_of_kind_before: int, cfg: RulesConfig) -> bool:
        """Whether a new violation becomes a fine, given the side's earlier ones of its kind.

        With ``warnings_before_fine=1`` the first violation is a warning and every repeated
        one a fine; with 0 every violation is a fine.
        """
        if not is_count(warnings_of_kind_before):
            raise RuleError("warnings", _("The number of warnings must be a whole number."))
        return warnings_of_kind_before >= cfg.warnings_before_fine

    def fine(self, side: str, cfg: RulesConfig, points: int | None = None) -> FineFact:
        """A fine for ``side`` as the regulations set it (amount and mode)."""
        self.check_side(side, "side")
        amount = cfg.fine_points if points is None else points
        if not is_count(amount):
            raise RuleError("points", _("A fine must be a whole number of points."))
        return FineFact(side=side, points=amount, mode=cfg.fine_mode)
