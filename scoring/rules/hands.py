"""What the games of RULES.md sections 2 and 3 share: the hands left when a deal ends.

:class:`HandGame` reads the referee's entry (pips or tiles per player, or quick points), checks
it, and leaves each game to say what the hands are worth after a domino and after a fish (a
blocked hand). The small arithmetic and entry checks the games share are in ``counts``.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from scoring.rules.base import (
    ANNULLED,
    DOMINO,
    DRAWN_FISH,
    FISH,
    REFEREE,
    SEATS,
    DealFacts,
    DealScore,
    RulesConfig,
    RuleSet,
)
from scoring.rules.counts import check_game, check_total, read_counts, refuse_given
from scoring.rules.errors import RuleError, _
from scoring.rules.moves import Tile, _check_unique, _read_tiles

ZERO_ZERO: Tile = (0, 0)
SIX_SIX: Tile = (6, 6)


# -- the hands left -----------------------------------------------------------------------


@dataclass(frozen=True)
class Hands:
    """The hands left at a deal's end: pips per seat, the tiles of the seats entered with tiles.

    ``out`` is the seat that went out (no tiles left), if any.
    """

    pips: dict[str, int]
    tiles: dict[str, list[Tile]]
    out: str | None = None

    def lone(self, seat: str, tile: Tile) -> bool:
        """Whether ``seat`` holds ``tile`` and nothing else.

        Without the seat's tiles, 0 pips in a hand that still holds tiles can only be a lone
        0-0; for any other tile (not seen in another hand) the tiles are needed: RuleError.
        """
        if seat in self.tiles:
            return self.tiles[seat] == [tile]
        if seat == self.out or self.pips[seat] != sum(tile):
            return False
        if any(tile in hand for hand in self.tiles.values()):
            return False  # somebody else holds it
        if sum(tile) == 0:
            return True
        raise RuleError(
            "tiles",
            _("%(seat)s has %(pips)s pips: enter his tiles (a lone %(left)s-%(right)s differs)."),
            seat=seat,
            pips=self.pips[seat],
            left=tile[0],
            right=tile[1],
        )

    def values(self, lone_values: Mapping[Tile, int]) -> dict[str, int]:
        """What each hand counts: its pips, or the agreed value of a lone tile."""
        result = dict(self.pips)
        for tile, value in lone_values.items():
            if value == sum(tile):
                continue
            for seat in result:
                if self.lone(seat, tile):
                    result[seat] = value
        return result


class HandGame(RuleSet):
    """A rule set scored from the hands left when a deal ends; one player per side.

    Subclasses say what the hands are worth (:meth:`score_domino`, :meth:`score_fish`); this
    class reads and checks the entry. By default every player is his own side and the sides
    are the seats (a1, b1, a2, b2 in playing order, as many as the regulations' ``players``);
    a two-sided singles game names its sides "a", "b" and fixes ``players``.
    """

    sides: ClassVar[tuple[str, ...]] = SEATS
    seats: ClassVar[tuple[str, ...]] = SEATS
    players: ClassVar[int | None] = None
    draws: ClassVar[bool] = True
    """Whether players draw from the boneyard (a hand may then grow past the deal)."""
    lone_values: ClassVar[Mapping[Tile, int]] = {}
    scores_during_play: ClassVar[bool] = False
    """Whether points are scored during play (``DealFacts.plays``), not only at the end."""

    # -- seats and sides ------------------------------------------------------------------

    def side_size(self, cfg: RulesConfig) -> int:
        """One player a side: every player plays for himself."""
        return 1

    def seats_for(self, cfg: RulesConfig) -> tuple[str, ...]:
        """The seats of the players at the table, in playing order."""
        return self.seats[: self.players or cfg.players]

    def sides_for(self, cfg: RulesConfig) -> tuple[str, ...]:
        """The sides at the table (a player each, unless the game has pairs)."""
        return tuple(dict.fromkeys(self.side_of(seat) for seat in self.seats_for(cfg)))

    def side_of(self, seat: str, field_name: str = "went_out") -> str:
        """The side of a seat: the seat itself where every player is his own side."""
        if seat in self.sides and seat in self.seats:
            return seat
        return super().side_of(seat, field_name)

    def zero(self, cfg: RulesConfig) -> dict[str, int]:
        """No points for anybody."""
        return {side: 0 for side in self.sides_for(cfg)}

    def only(self, winner: str, value: int, cfg: RulesConfig) -> dict[str, int]:
        """``value`` points for ``winner``, none for the others."""
        return {side: value if side == winner else 0 for side in self.sides_for(cfg)}

    def by_side(self, per_seat: Mapping[str, int]) -> dict[str, int]:
        """Per-seat values summed per side."""
        result: dict[str, int] = {}
        for seat, value in per_seat.items():
            side = self.side_of(seat, "pips")
            result[side] = result.get(side, 0) + value
        return result

    # -- a deal ---------------------------------------------------------------------------

    def score_deal(self, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """Score one deal from what the referee entered; raise RuleError naming the field."""
        check_game(facts.game)
        if not self.scores_during_play:
            refuse_given(facts, ("plays",), _("This game scores only at the end of a hand."))
        if facts.outcome == ANNULLED:
            return DealScore(ANNULLED, None, self.zero(cfg), game=facts.game)
        if facts.outcome == REFEREE:
            points = self.read_points(facts.points or {}, cfg)
            winner = None
            if facts.winner is not None:
                winner = self.check_side(facts.winner, "winner", self.sides_for(cfg))
            return DealScore(REFEREE, winner, points, game=facts.game)
        if facts.outcome == DOMINO:
            return self._domino(facts, cfg)
        if facts.outcome == FISH:
            return self._fish(facts, cfg)
        raise RuleError(
            "outcome", _("Unknown way for a deal to end: %(outcome)s."), outcome=facts.outcome
        )

    def _domino(self, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        sides = self.sides_for(cfg)
        out = None
        if facts.went_out is not None:
            if facts.went_out not in self.seats_for(cfg):
                raise RuleError("went_out", _("Unknown seat: %(seat)s."), seat=facts.went_out)
            out = facts.went_out
        winner = self.side_of(out) if out is not None else None
        if facts.winner is not None:
            self.check_side(facts.winner, "winner", sides)
            if winner is not None and facts.winner != winner:
                raise RuleError(
                    "winner",
                    _("%(seat)s went out, so %(side)s won the deal."),
                    seat=out,
                    side=winner,
                )
            winner = facts.winner
        if winner is None:
            raise RuleError("went_out", _("A domino needs the player who went out."))
        if out is None:
            out = next(seat for seat in self.seats_for(cfg) if self.side_of(seat) == winner)
        hands = self.read_hands(facts, cfg, out)
        if hands is None:
            return self.score_quick(facts, cfg, DOMINO, winner)
        score = self.score_domino(winner, hands, cfg)
        return self._checked(facts, cfg, score)

    def _fish(self, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        refuse_given(facts, ("went_out",), _("Nobody goes out in a fish: that was a domino."))
        if facts.winner is not None:
            self.check_side(facts.winner, "winner", self.sides_for(cfg))
        hands = self.read_hands(facts, cfg, None)
        if hands is None:
            return self.score_quick(facts, cfg, FISH, facts.winner)
        score = self.score_fish(hands, facts, cfg)
        if facts.winner is not None and facts.winner != score.winner:
            if score.winner is None:
                raise RuleError("winner", _("Equal hands: nobody wins this fish."))
            raise RuleError("winner", _("%(side)s wins this fish."), side=score.winner)
        return self._checked(facts, cfg, score)

    def _checked(self, facts: DealFacts, cfg: RulesConfig, score: DealScore) -> DealScore:
        """The score, with the deal's game; points entered with the hands must agree."""
        if facts.points is not None:
            entered = self.read_points(facts.points, cfg)
            for side, value in score.points.items():
                if entered[side] != value:
                    raise RuleError(
                        f"points_{side}",
                        _("These points do not match the hands: %(expected)s expected."),
                        expected=value,
                    )
        return replace(score, game=facts.game)

    def score_quick(
        self, facts: DealFacts, cfg: RulesConfig, outcome: str, winner: str | None
    ) -> DealScore:
        """A deal entered with its points only (no hands): the winner alone scores."""
        if facts.points is None:
            raise RuleError("pips", _("Enter the pips left in hand, or the points of the deal."))
        points = self.read_points(facts.points, cfg)
        if winner is None:
            if any(points.values()):
                raise RuleError("winner", _("Name the side that won the deal."))
            return DealScore(DRAWN_FISH, None, points, game=facts.game)
        for side, value in points.items():
            if side != winner and value:
                raise RuleError(
                    f"points_{side}", _("Only the side that won the deal scores; the others 0.")
                )
        self.check_quick_points(points[winner], winner)
        return DealScore(outcome, winner, points, game=facts.game)

    def check_quick_points(self, value: int, winner: str) -> None:
        """Refuse quick points a deal cannot be worth (every game: a domino scores something)."""
        if value == 0:
            raise RuleError(
                f"points_{winner}", _("The side that won the deal scores more than 0 points.")
            )

    # -- reading the entry ----------------------------------------------------------------

    def read_points(self, points: object, cfg: RulesConfig) -> dict[str, int]:
        """Points per side (a side left out scores 0), checked."""
        sides = self.sides_for(cfg)
        return read_counts(points, sides, "points", optional=sides, limit=cfg.max_deal_points)

    def read_hands(self, facts: DealFacts, cfg: RulesConfig, out: str | None) -> Hands | None:
        """The hands left, from pips and/or tiles per player; None if neither was entered.

        Pips may be keyed by side where a side is one player. The seat that went out may be
        left out (it holds nothing).
        """
        if facts.pips is None and facts.tiles is None:
            return None
        seats = self.seats_for(cfg)
        tiles = self._read_tiles(facts.tiles, seats, cfg)
        given: dict[object, object] = {}
        entered: dict[str, int] = {}
        if facts.pips is not None:
            if not isinstance(facts.pips, Mapping):
                raise RuleError("pips", _("Enter the pips left per player."))
            given = {self._seat_key(key, seats): value for key, value in facts.pips.items()}
            entered = read_counts(given, seats, "pips", optional=[*tiles, *([out] if out else [])])
        for seat, hand in tiles.items():
            counted = sum(a + b for a, b in hand)
            if seat in given:
                if entered[seat] != counted:
                    raise RuleError(
                        "pips",
                        _("%(seat)s: the tiles give %(counted)s pips, not %(pips)s."),
                        seat=seat,
                        counted=counted,
                        pips=entered[seat],
                    )
            entered[seat] = counted
        missing = [seat for seat in seats if seat not in entered and seat != out]
        if missing:
            raise RuleError("pips", _("Pips missing for: %(keys)s."), keys=", ".join(missing))
        pips = {seat: entered.get(seat, 0) for seat in seats}
        if out is not None and (pips[out] or tiles.get(out)):
            raise RuleError("pips", _("%(seat)s went out and cannot have pips left."), seat=out)
        check_total(pips, cfg.max_deal_points, "pips")
        return Hands(pips=pips, tiles=tiles, out=out)

    def _seat_key(self, key: object, seats: Sequence[str]) -> object:
        """A pips key as a seat: a side that is a single player stands for his seat."""
        if key in seats:
            return key
        matching = [seat for seat in seats if self.side_of(seat) == key]
        return matching[0] if len(matching) == 1 else key

    def _read_tiles(
        self, tiles: object, seats: Sequence[str], cfg: RulesConfig
    ) -> dict[str, list[Tile]]:
        """The tiles entered per seat: known seats, none twice, not more than a hand holds."""
        if tiles is None:
            return {}
        if not isinstance(tiles, Mapping):
            raise RuleError("tiles", _("Enter the tiles left per player."))
        result: dict[str, list[Tile]] = {}
        for seat, hand in tiles.items():
            if seat not in seats:
                raise RuleError("tiles", _("Unknown seat: %(seat)s."), seat=seat)
            read = [(min(tile), max(tile)) for tile in _read_tiles(hand, "tiles")]
            if not self.draws and len(read) > self.hand_size(cfg):
                raise RuleError(
                    "tiles", _("A hand holds at most %(size)s tiles."), size=self.hand_size(cfg)
                )
            result[seat] = read
        try:
            _check_unique([tile for hand in result.values() for tile in hand], [])
        except RuleError as err:
            raise RuleError("tiles", err.message, **err.params) from None
        return result

    # -- what the hands are worth ---------------------------------------------------------

    def hand_values(self, hands: Hands, cfg: RulesConfig) -> dict[str, int]:
        """What each player's hand counts (pips, or the game's value of a lone tile)."""
        return hands.values(self.lone_values)

    @abc.abstractmethod
    def score_domino(self, winner: str, hands: Hands, cfg: RulesConfig) -> DealScore:
        """The score of a deal ``winner`` won by going out, from the hands left."""

    @abc.abstractmethod
    def score_fish(self, hands: Hands, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """The score of a blocked deal, from the hands left."""
