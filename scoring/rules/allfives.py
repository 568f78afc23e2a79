"""All Fives, or Muggins (RULES.md section 3): two players, points during play and at the end.

During play a player scores the open ends whenever they add up to a multiple of five (the
scorer enters each such play: ``DealFacts.plays``, multiples of five only). At a hand's end
the player who went out scores the opponent's pips rounded to the nearest five; a blocked
hand gives the lower player the loser's total minus his own, rounded to the nearest five
(equal totals: nobody scores). A hand may also be *stopped* when the game ends during play.
A party is a match of games (one game unless ``games_to_win`` says more), each to the target.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from scoring.rules.base import (
    ANNULLED,
    DOMINO,
    DRAWN_FISH,
    FINISHED,
    FISH,
    REASON_TARGET,
    SIDES,
    STOPPED,
    DealFacts,
    DealScore,
    FineFact,
    PartyDecision,
    RulesConfig,
    Totals,
    is_count,
    wins_needed,
)
from scoring.rules.counts import check_game, highest, lowest, refuse_given, round_to_five
from scoring.rules.errors import RuleError, _
from scoring.rules.game_settings import GAME_MINUTES, GAMES_TO_WIN, TILES_PER_HAND, GameSetting
from scoring.rules.hands import HandGame, Hands
from scoring.rules.layouts import GAMES_LAYOUT
from scoring.rules.ledger import Ledger
from scoring.rules.matches import (
    GameScore,
    GamesRuleSet,
    MatchTotals,
    as_match,
    count_wins,
    decide_match,
    game_decision,
    target_winner,
)
from scoring.rules.moves import HIGHEST

MAX_PLAY_POINTS = (4 * 2 * HIGHEST) // 5 * 5
"""The most one play can score: four open ends, each at most a double six (12), so 45."""


class AllFives(HandGame):
    """All Fives (Muggins): two players, a side each; a match of games to the target."""

    code = "allfives"
    standings_order = ("match_points", "game_wins", "points_for")
    name = _("All Fives (Muggins)")
    description = _(
        "Two players, each a side. Points during play whenever the open ends add up to a "
        "multiple of five, and the opponent's pips at the end of a hand."
    )
    settings: ClassVar[tuple[GameSetting[Any], ...]] = (
        TILES_PER_HAND, GAME_MINUTES, GAMES_TO_WIN
    )
    layout = GAMES_LAYOUT
    sides = SIDES
    seats = ("a1", "b1")
    players = 2
    scores_during_play = True
    plays_games = True
    preset = {"target": 100, "players": 2, "tiles_per_hand": 7, "games_to_win": 1}

    # -- a hand ---------------------------------------------------------------------------

    def score_deal(self, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """Score a hand: the points made during play plus the end count (``points``: the end)."""
        plays = self.read_plays(facts.plays, cfg)
        if facts.outcome == STOPPED:
            check_game(facts.game)
            refuse_given(
                facts,
                ("went_out", "winner", "pips", "tiles", "points"),
                _("A stopped hand scores only the points made during play."),
            )
            score = DealScore(STOPPED, None, self.zero(cfg), game=facts.game)
        else:
            score = super().score_deal(facts, cfg)
        if score.outcome == ANNULLED and plays:
            raise RuleError("plays", _("An annulled hand scores nothing."))
        made = self.zero(cfg)
        for side, value in plays:
            made[side] += value
        return replace(
            score,
            points={side: value + made[side] for side, value in score.points.items()},
            play_points=made,
        )

    def read_plays(self, plays: object, cfg: RulesConfig) -> list[tuple[str, int]]:
        """The scoring plays of a hand, in order: ``(side or seat, points)``, checked."""
        if plays is None:
            return []
        if isinstance(plays, str | bytes) or not isinstance(plays, Sequence):
            raise RuleError("plays", _("Enter each scoring play as a player and his points."))
        result = []
        for play in plays:
            if isinstance(play, str | bytes) or not isinstance(play, Sequence) or len(play) != 2:
                raise RuleError("plays", _("Enter each scoring play as a player and his points."))
            who, value = play
            side = self.side_of(who, "plays") if who in self.seats else who
            self.check_side(side, "plays", self.sides_for(cfg))
            if not is_count(value) or not 0 < value <= MAX_PLAY_POINTS or value % 5:
                raise RuleError(
                    "plays",
                    _("A play scores a multiple of five from 5 to %(max)s, not %(value)s."),
                    max=MAX_PLAY_POINTS,
                    value=value,
                )
            result.append((side, value))
        return result

    def check_quick_points(self, value: int, winner: str) -> None:
        """The end count of a hand is a multiple of five."""
        if value % 5:
            raise RuleError(f"points_{winner}", _("The end of a hand scores a multiple of five."))

    def score_domino(self, winner: str, hands: Hands, cfg: RulesConfig) -> DealScore:
        """The winner scores the opponent's pips rounded to the nearest five."""
        left = self.by_side(hands.pips)
        won = round_to_five(sum(value for side, value in left.items() if side != winner))
        return DealScore(DOMINO, winner, self.only(winner, won, cfg))

    def score_fish(self, hands: Hands, facts: DealFacts, cfg: RulesConfig) -> DealScore:
        """Blocked: the lower player scores the difference rounded; equal totals score nothing."""
        left = self.by_side(hands.pips)
        low = lowest(left)
        if len(low) > 1:
            return DealScore(DRAWN_FISH, None, self.zero(cfg))
        winner = low[0]
        won = round_to_five(sum(value - left[winner] for value in left.values()))
        return DealScore(FISH, winner, self.only(winner, won, cfg))

    # -- a match of games -----------------------------------------------------------------

    def hand_gain(self, hand: DealScore, before: Mapping[str, int]) -> dict[str, int]:
        """What a hand adds to its game's score, given the score before it."""
        return dict(hand.points)

    def party_totals(
        self,
        deals: Sequence[DealScore],
        fines: Sequence[FineFact],
        cfg: RulesConfig,
        *,
        game_in_play: int = 1,
        match_winner: str | None = None,
    ) -> MatchTotals:
        """The match's totals: every game's score (its hands, each after the fines given
        while it was in play: :class:`~scoring.rules.ledger.Ledger`) and the game wins.

        A game before ``game_in_play`` is over (won by the player alone at the top), even
        before the next game's first hand; ``match_winner``, once the match is decided, wins
        the last game if neither the target nor a later game closed it (a game won on time).
        """
        sides = self.sides_for(cfg)
        begun = {check_game(deal.game) for deal in deals}
        begun |= {check_game(fine.game) for fine in fines}
        begun.add(check_game(game_in_play))
        numbers = sorted(begun)
        games: list[GameScore] = []
        running: list[dict[str, int]] = []
        uncollected: list[dict[str, int]] = []
        floored = {side: 0 for side in sides}
        for number in numbers:
            score = {side: 0 for side in sides}
            ledger = Ledger(self, sides, [fine for fine in fines if fine.game == number], cfg)
            hands = [deal for deal in deals if deal.game == number]
            for index, hand in enumerate(hands, 1):
                ledger.fines_until(index if hand.number is None else hand.number)
                gain = self.hand_gain(hand, score)
                for side, value in gain.items():
                    score[self.check_side(side, "points", sides)] += value
                ledger.add(gain)
                running.append(dict(score))
                uncollected.append({side: value - gain.get(side, 0)
                                    for side, value in hand.points.items()
                                    if value != gain.get(side, 0)})
            points = ledger.close()
            fined = ledger.fine_points
            for side, value in ledger.floored.items():
                floored[side] += value
            closed = number != numbers[-1]
            leaders = highest(points)
            if closed:
                winner = leaders[0] if len(leaders) == 1 else None
            else:
                winner = target_winner(points, cfg)
                if winner is None and match_winner is not None:
                    winner = self.check_side(match_winner, "winner", sides)
            games.append(
                GameScore(
                    number=number,
                    points=points,
                    deal_points=score,
                    fine_points=fined,
                    hands=len(hands),
                    closed=closed or winner is not None,
                    winner=winner,
                )
            )
        return MatchTotals(
            points=self._summed(games, "points", sides),
            deal_points=self._summed(games, "deal_points", sides),
            fine_points=self._summed(games, "fine_points", sides),
            running=running,
            uncollected=uncollected,
            floored=floored,
            games=games,
            game_wins=count_wins(games, sides),
        )

    def forfeit_totals(self, winner: str, cfg: RulesConfig) -> MatchTotals:
        """A match decided without play: ``winner`` takes the games needed (:func:`wins_needed`).

        The first game carries the forfeit score (the target : 0 by default), the others
        0 : 0; every game is closed and won by ``winner``, so each view counts the same wins.
        """
        sides = self.sides_for(cfg)
        points = self.forfeit(winner, cfg)
        zero = {side: 0 for side in sides}
        games = [
            GameScore(
                number=number,
                points=dict(points) if number == 1 else dict(zero),
                deal_points=dict(points) if number == 1 else dict(zero),
                fine_points=dict(zero),
                hands=0,
                closed=True,
                winner=winner,
            )
            for number in range(1, wins_needed(cfg) + 1)
        ]
        return MatchTotals(
            points=dict(points),
            deal_points=dict(points),
            fine_points=dict(zero),
            games=games,
            game_wins=count_wins(games, sides),
        )

    @staticmethod
    def _summed(games: Sequence[GameScore], name: str, sides: Sequence[str]) -> dict[str, int]:
        return {side: sum(getattr(game, name)[side] for game in games) for side in sides}

    def decide_game(
        self, points: Mapping[str, int], cfg: RulesConfig, *, time_expired: bool, hands_after: int
    ) -> PartyDecision:
        """The game in play: ``"finished"`` (with its winner), or play on.

        Won at the target by a player alone at the top; when the game's clock has run out the
        hand in play is finished (``"last_deal"``), then the higher score wins; a level score
        (at the target or on time) is ``"overtime"``: play on until one player scores.
        """
        level = Totals(points=dict(points), deal_points=dict(points), fine_points=self.zero(cfg))
        decision = super().decide(
            level, cfg, time_expired=time_expired, deals_after_expiry=hands_after
        )
        return game_decision(decision)

    def decide(
        self,
        totals: Totals,
        cfg: RulesConfig,
        *,
        time_expired: bool,
        deals_after_expiry: int,
        match_time_expired: bool = False,
    ) -> PartyDecision:
        """What happens next in the match.

        ``time_expired`` and ``deals_after_expiry`` concern the clock of the game in play
        (``game_minutes``); ``match_time_expired`` the match's own (``party_minutes``). When the
        game in play is won the match is decided (``"finished"``) or the next game begins
        (``"next_game"``, with that game's winner and reason).
        """
        match_totals = as_match(totals)
        current = match_totals.current
        wins = dict(match_totals.game_wins)
        if current.closed and current.winner is not None:
            game = PartyDecision(FINISHED, current.winner, REASON_TARGET)
        else:
            game = self.decide_game(
                current.points, cfg, time_expired=time_expired, hands_after=deals_after_expiry
            )
            if game.state != FINISHED:
                return game
            wins[game.winner] += 1  # type: ignore[index]
        match = decide_match(wins, cfg, time_expired=match_time_expired)
        if match.state == FINISHED:
            return match
        return replace(match, winner=game.winner, reason=game.reason)


if TYPE_CHECKING:
    _PLAYS_GAMES: type[GamesRuleSet] = AllFives
    """All Fives (and UDL singles after it) is what :func:`plays_games` says it is."""
