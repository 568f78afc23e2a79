"""Kozel, the Goat (RULES.md section 3, [000], [002]): 2–4 players, points are bad.

Every player is his own side (his seat: a1, b1, a2, b2 in playing order); four may play as two
pairs (a1 with a2, b1 with b2, ``kozel_pairs``). After a deal each player counts his hand (a
lone 0-0 counts ``zero_zero_value``, 10; a lone 6-6 ``six_six_value``, its 12 pips unless
agreed otherwise). A deal total of ``memorize_limit`` (12) or less is *memorized* until the
player's account is *open*; a total over it opens the account with the memorized points; once
open every total counts. Going out resets one's memorized points. A fish is scored "for all"
(each his own hand) or "for one" (the highest hand takes the sum of all hands, the others'
memorized points are reset; a tie draws the deal and its sum waits for the next deal's highest
scorer). Whoever first reaches ``goat_at`` (101) is the Goat and loses. A hand of five or more
doubles, or six or more tiles of one number, is dealt again (:meth:`Kozel.redeal`). The seeds
give Kozel no time per move, so the referee's screen has no move helper; a fish (the six
non-doubles of a number out, even with its double in a hand: seed 000, the 2-2 example) is
seen at the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from scoring.rules.base import (
    ANNULLED,
    CONTINUE,
    DOMINO,
    DRAWN_FISH,
    EXTRA_DEAL,
    FINISHED,
    FISH,
    FISH_FOR_ALL,
    LAST_DEAL,
    REASON_DISQUALIFICATION,
    REASON_FORFEIT,
    REASON_TARGET,
    REASON_TIME,
    REASON_TIMEOUT,
    DealFacts,
    DealScore,
    FineFact,
    PartyDecision,
    RulesConfig,
    Totals,
    is_count,
)
from scoring.rules.counts import highest, lowest
from scoring.rules.errors import RuleError, _
from scoring.rules.game_settings import (
    FISH_VARIANT,
    GOAT_AT,
    KOZEL_PAIRS,
    MEMORIZE_LIMIT,
    PLAYERS,
    SIX_SIX_VALUE,
    TILES_PER_HAND,
    ZERO_ZERO_VALUE,
)
from scoring.rules.hands import SIX_SIX, ZERO_ZERO, HandGame, Hands
from scoring.rules.kozel_deal import REDEAL_REASONS, check_redeal, ratings
from scoring.rules.layouts import KOZEL_LAYOUT
from scoring.rules.moves import Tile

STOPPED_BY_A_PLAYER = (REASON_TIMEOUT, REASON_FORFEIT, REASON_DISQUALIFICATION)
"""Ends of a party stopped by a player's fault: the timeout rule rates it (seed 000)."""


@dataclass(frozen=True)
class KozelTotals(Totals):
    """A Kozel party's totals, per player (seat).

    ``points`` are each player's account plus his fines (what counts towards the Goat);
    ``memorized`` the points waiting for his account to open, ``open`` whether it is;
    ``carry`` the sum of a drawn "fish for one" waiting for the next deal's highest scorer;
    ``pair_points`` the partners' points added up when four play as two pairs ("a", "b").
    """

    memorized: dict[str, int] = field(default_factory=dict)
    open: dict[str, bool] = field(default_factory=dict)
    pair_points: dict[str, int] | None = None
    running_memorized: list[dict[str, int]] = field(default_factory=list)
    """The memorized points after each deal, beside ``running`` (the accounts)."""


class _Accounts:
    """The players' accounts and memorized points while the deals are added up."""

    def __init__(self, sides: Sequence[str], limit: int) -> None:
        self.limit = limit
        self.account = {side: 0 for side in sides}
        self.memorized = {side: 0 for side in sides}
        self.open = {side: False for side in sides}

    def book(self, side: str, value: int) -> None:
        """Add a deal's total: to the open account, or memorized, or opening the account."""
        if self.open[side]:
            self.account[side] += value
        elif value > self.limit:
            self.open[side] = True
            self.account[side] += self.memorized[side] + value
            self.memorized[side] = 0
        else:
            self.memorized[side] += value


def pair_of(seat: str) -> str:
    """The pair of a seat when four play as two pairs ("a2" → "a")."""
    return seat.rstrip("0123456789")


class Kozel(HandGame):
    """Kozel (the Goat): per-player accounts with memorized points; 101 loses."""

    code = "kozel"
    standings_order = ("rating_points", "goats", "points_taken")
    name = _("Kozel (Goat)")
    description = _(
        "Two to four players, each for himself, or four as two pairs. Points are bad: whoever "
        "first reaches 101 is the Goat and loses."
    )
    settings = (
        PLAYERS,
        TILES_PER_HAND,
        FISH_VARIANT,
        ZERO_ZERO_VALUE,
        SIX_SIX_VALUE,
        GOAT_AT,
        MEMORIZE_LIMIT,
        KOZEL_PAIRS,
    )
    layout = KOZEL_LAYOUT
    move_helper = None  # seeds 000 and 002 give Kozel no time per move: no helper
    redeal_reasons = REDEAL_REASONS
    preset = {
        "players": 4,
        "tiles_per_hand": 7,
        "party_minutes": None,  # seed 000 sets no party clock; one stays possible as a setting
        "goat_at": 101,
        "memorize_limit": 12,
        "zero_zero_value": 10,
        "six_six_value": 12,
        "fish_variant": FISH_FOR_ALL,
    }

    def side_size(self, cfg: RulesConfig) -> int:
        """Two when four play as two pairs, else every player is his own side."""
        return 2 if cfg.kozel_pairs else 1

    # -- a deal ---------------------------------------------------------------------------

    def redeal(self, hand: Sequence[Tile] | None, reason: str, cfg: RulesConfig) -> str:
        """Five or more doubles, or six or more tiles of one number (seed 000): see
        :func:`~scoring.rules.kozel_deal.check_redeal`."""
        return check_redeal(hand, reason, self.hand_size(cfg))

    def hand_values(self, hands: Hands, cfg: RulesConfig) -> dict[str, int]:
        """Each player's deal total: his pips, or the agreed value of a lone 0-0 or 6-6."""
        return hands.values({ZERO_ZERO: cfg.zero_zero_value, SIX_SIX: cfg.six_six_value})

    def score_domino(self, winner: str, hands: Hands, cfg: RulesConfig) -> DealScore:
        """Every player scores his own hand; the one who went out (``winner``) holds nothing."""
        return DealScore(DOMINO, winner, self.hand_values(hands, cfg))

    def score_fish(self, hands: Hands, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """A fish for all, or for one (``winner``: the player who takes all the hands)."""
        return self.fish(self.hand_values(hands, cfg), cfg)

    def fish(self, values: Mapping[str, int], cfg: RulesConfig) -> DealScore:
        """Score a fish from each player's deal total, by the regulations' variant."""
        if cfg.fish_variant == FISH_FOR_ALL:
            return DealScore(FISH, None, dict(values))
        total = sum(values.values())
        top = highest(values)
        if len(top) > 1:
            return DealScore(DRAWN_FISH, None, self.zero(cfg), carry=total)
        return DealScore(FISH, top[0], self.only(top[0], total, cfg))

    def score_quick(
        self, facts: DealFacts, cfg: RulesConfig, outcome: str, winner: str | None
    ) -> DealScore:
        """Points entered without the hands: each player's deal total, as counted."""
        if facts.points is None:
            raise RuleError("pips", _("Enter the pips left in hand, or each player's points."))
        values = self.read_points(facts.points, cfg)
        exempt = winner if outcome == DOMINO else None
        missing = [s for s in self.sides_for(cfg) if s not in facts.points and s != exempt]
        if missing:
            raise RuleError("points", _("Missing for: %(keys)s."), keys=", ".join(missing))
        if outcome != FISH and winner is not None and values[winner]:
            raise RuleError(
                f"points_{winner}", _("The player who went out holds nothing: 0 points.")
            )
        self.check_holders(values, exempt, cfg)
        if outcome == FISH:
            return replace(self.fish(values, cfg), game=facts.game)
        return DealScore(DOMINO, winner, values, game=facts.game)

    def check_holders(self, values: Mapping[str, int], out: str | None, cfg: RulesConfig) -> None:
        """Refuse 0 points for a player who still holds tiles (at least 1 pip, or a lone 0-0).

        ``out`` is the player who went out (he alone holds nothing); a lone 0-0 agreed to
        count 0 lets a holder score 0.
        """
        if cfg.zero_zero_value == 0:
            return
        for side, value in values.items():
            if side != out and value == 0:
                raise RuleError(
                    f"points_{side}",
                    _(
                        "%(seat)s still holds tiles, so his points are at least 1 "
                        "(a lone 0-0 counts %(value)s)."
                    ),
                    seat=side,
                    value=cfg.zero_zero_value,
                )

    # -- a party --------------------------------------------------------------------------

    def party_totals(
        self, deals: Sequence[DealScore], fines: Sequence[FineFact], cfg: RulesConfig
    ) -> KozelTotals:
        """Each player's account, memorized points and open flag after the deals, and fines.

        A drawn "fish for one" leaves its sum for the next deal's single highest scorer
        (several accumulate; annulled deals and deals the referee scored neither take nor
        reset it). A fine adds its points to the offender's account, whatever its mode.
        """
        sides = self.sides_for(cfg)
        books = _Accounts(sides, cfg.memorize_limit)
        carry = 0
        running: list[dict[str, int]] = []
        running_memorized: list[dict[str, int]] = []
        for deal in deals:
            gained = {} if deal.outcome == ANNULLED else {  # an annulled deal scores nothing
                self.check_side(side, "points", sides): v for side, v in deal.points.items()}
            if deal.outcome == DRAWN_FISH:
                carry += deal.carry
            elif deal.outcome != ANNULLED:
                top = highest({side: gained.get(side, 0) for side in sides})
                if carry and deal.outcome in (DOMINO, FISH) and len(top) == 1:
                    gained[top[0]] = gained.get(top[0], 0) + carry
                    carry = 0
                if deal.winner is not None and deal.outcome == DOMINO:
                    books.memorized[self.check_side(deal.winner, "winner", sides)] = 0
                elif deal.winner is not None and deal.outcome == FISH:
                    for side in self.opponents(deal.winner, cfg):
                        books.memorized[side] = 0
                for side in sides:
                    books.book(side, gained.get(side, 0))
            running.append(dict(books.account))
            running_memorized.append(dict(books.memorized))

        fine_points = {side: 0 for side in sides}
        for fine in fines:
            side = self.check_side(fine.side, "side", sides)
            if not is_count(fine.points):
                raise RuleError("points", _("A fine must be a whole number of points."))
            fine_points[side] += fine.points
        points = {side: books.account[side] + fine_points[side] for side in sides}
        pairs: dict[str, int] | None = None
        if cfg.kozel_pairs:
            pairs = {}
            for side in sides:
                pairs[pair_of(side)] = pairs.get(pair_of(side), 0) + points[side]
        return KozelTotals(
            points=points,
            deal_points=dict(books.account),
            fine_points=fine_points,
            running=running,
            carry=carry,
            memorized=dict(books.memorized),
            open=dict(books.open),
            pair_points=pairs,
            running_memorized=running_memorized,
        )

    def decide(
        self, totals: Totals, cfg: RulesConfig, *, time_expired: bool, deals_after_expiry: int
    ) -> PartyDecision:
        """The Goat: the first to reach ``goat_at`` (the pair, when playing in pairs) loses.

        Several reaching it in one deal: the highest is the Goat (a tie at the top: one more
        deal). Where a party clock is set and runs out, the deal in play is finished, then the
        player with the most points is the Goat. ``winner`` is the one with the fewest points, if he
        is alone there; ``loser`` the Goat.
        """
        if not is_count(deals_after_expiry):
            raise RuleError("deals_after_expiry", _("The number of deals must be a whole number."))
        counted = self._counted(totals, cfg)
        over = {side: value for side, value in counted.items() if value >= cfg.goat_at}
        if over:
            return self._goat(counted, highest(over), REASON_TARGET)
        if time_expired:
            if deals_after_expiry == 0:
                return PartyDecision(LAST_DEAL)
            return self._goat(counted, highest(counted), REASON_TIME)
        return PartyDecision(CONTINUE)

    def _counted(self, totals: Totals, cfg: RulesConfig) -> dict[str, int]:
        """Points per player, or per pair when four play as two pairs."""
        points = {side: totals.points.get(side, 0) for side in self.sides_for(cfg)}
        if not cfg.kozel_pairs:
            return points
        pairs: dict[str, int] = {}
        for side, value in points.items():
            pairs[pair_of(side)] = pairs.get(pair_of(side), 0) + value
        return pairs

    @staticmethod
    def _goat(counted: Mapping[str, int], goats: Sequence[str], reason: str) -> PartyDecision:
        if len(goats) > 1:
            return PartyDecision(EXTRA_DEAL)
        others = {side: value for side, value in counted.items() if side != goats[0]}
        best = lowest(others)
        winner = best[0] if len(best) == 1 else None
        return PartyDecision(FINISHED, winner, reason, loser=goats[0])

    def forfeit(self, winner: str, cfg: RulesConfig) -> dict[str, int]:
        """Points of a party won by forfeit: ``goat_at`` for every player but the winner's side.

        ``winner`` is a seat, or a pair ("a", "b") when four play as two pairs.
        """
        sides = self.sides_for(cfg)
        owner = {side: pair_of(side) if cfg.kozel_pairs else side for side in sides}
        self.check_side(winner, "winner", tuple(owner.values()))
        return {side: 0 if owner[side] == winner else cfg.goat_at for side in sides}

    # -- after a game ---------------------------------------------------------------------

    def ratings(self, points: Mapping[str, int], timed_out: str | None = None) -> dict[str, int]:
        """Rating points after a game (see :func:`ratings`)."""
        return ratings(points, timed_out)

    def next_leader(
        self, outcome: str, went_out: str | None, fish_by: str | None, led: str | None,
        cfg: RulesConfig,
    ) -> str | None:
        """Who opens the next deal: whoever went out, or made the fish (None: nobody known)."""
        if outcome == DOMINO:
            return went_out or None
        if outcome in (FISH, DRAWN_FISH):
            return fish_by or None
        return None

    def rated_unit(self, seat: str, cfg: RulesConfig) -> str:
        """Who a seat's rating belongs to: his pair when four play as two pairs, else himself."""
        return pair_of(seat) if cfg.kozel_pairs else seat

    def party_ratings(
        self, points: Mapping[str, int], cfg: RulesConfig, *, reason: str, at_fault: str = ""
    ) -> dict[str, int]:
        """The ratings after a finished party, per rated unit (seat, or pair with ``kozel_pairs``).

        The one place a Kozel party is rated. ``points`` are each seat's points (fines
        included), ``reason`` how the party ended (an engine ``REASON_*``; a bye rates zero
        points), ``at_fault`` the party's loser: a seat, a pair, or a whole side. A party
        stopped by a player (his timeout, a forfeit, a disqualification) follows the timeout
        rule: the units at fault get nothing, the others (the highest at fault's points − theirs)
        / 10, at least 1. Ended by the target or by the party's clock: (100 − points) / 10.
        """
        units: dict[str, int] = {}
        for seat, value in points.items():
            unit = self.rated_unit(seat, cfg)
            units[unit] = units.get(unit, 0) + value
        faulty = [unit for unit in units if self.is_at_fault(unit, at_fault, cfg)]
        if reason not in STOPPED_BY_A_PLAYER or not faulty:
            return ratings(units)
        rated = ratings(units, max(faulty, key=units.__getitem__))
        rated.update(dict.fromkeys(faulty, 0))
        return rated

    def is_at_fault(self, unit: str, at_fault: str, cfg: RulesConfig) -> bool:
        """Whether a rated unit is (or belongs to) the party's loser ``at_fault``."""
        if not at_fault:
            return False
        return at_fault in (unit, pair_of(unit)) or self.rated_unit(at_fault, cfg) == unit

    def seat_ratings(
        self, points: Mapping[str, int], cfg: RulesConfig, *, reason: str, at_fault: str = ""
    ) -> dict[str, int]:
        """:meth:`party_ratings` as every seat shows it (a pair's rating on both its seats)."""
        rated = self.party_ratings(points, cfg, reason=reason, at_fault=at_fault)
        return {seat: rated[self.rated_unit(seat, cfg)] for seat in points}

    def timeout(self, totals: Totals, seat: str, cfg: RulesConfig) -> PartyDecision:
        """A party stopped by one player's timeout: he (his pair, in pairs) is the Goat.

        The deals' points stand; the winner is the one with the fewest points among the others,
        if he is alone there.
        """
        seat = self.check_side(seat, "seat", self.sides_for(cfg))
        return self._goat(self._counted(totals, cfg), [self.rated_unit(seat, cfg)], REASON_TIMEOUT)
