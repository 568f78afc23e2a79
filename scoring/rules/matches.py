"""A party played as a match of games (All Fives, UDL): each game a sequence of hands.

A game is won at the target or, when its clock runs out, by the higher score (a tie goes to
overtime until one player scores); a match is won by the first to ``games_to_win`` games
(two in a best of three).
Every hand and fine carries the number of its game; the games are closed in order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeGuard

from scoring.rules.base import (
    EXTRA_DEAL,
    FINISHED,
    NEXT_GAME,
    OVERTIME,
    REASON_TARGET,
    REASON_TIME,
    DealScore,
    FineFact,
    PartyDecision,
    RulesConfig,
    RuleSet,
    Totals,
    wins_needed,
)
from scoring.rules.counts import highest


@dataclass(frozen=True)
class GameScore:
    """One game of a match: its score, hands played, and its winner once it is closed.

    A game is closed when a later game has begun or a player won it at the target; the last
    game of a finished match that ended on time is won by the party's winner.
    """

    number: int
    points: dict[str, int]
    deal_points: dict[str, int]
    fine_points: dict[str, int]
    hands: int
    closed: bool
    winner: str | None = None


@dataclass(frozen=True)
class MatchTotals(Totals):
    """A match's totals: ``points`` summed over its games, plus each game and the game wins.

    ``running`` holds the score of the hand's own game after each hand (a protocol's rows).
    """

    games: list[GameScore] = field(default_factory=list)
    game_wins: dict[str, int] = field(default_factory=dict)

    @property
    def current(self) -> GameScore:
        """The game in play (the last one)."""
        return self.games[-1]


class GamesRuleSet(Protocol):
    """A rule set whose party is a match of games (``RuleSet.plays_games``: All Fives, UDL).

    Its totals know the game in play and the match's winner; its decision knows the match's
    own clock besides the clock of the game in play.
    """

    def party_totals(
        self,
        deals: Sequence[DealScore],
        fines: Sequence[FineFact],
        cfg: RulesConfig,
        *,
        game_in_play: int = 1,
        match_winner: str | None = None,
    ) -> MatchTotals:
        """The match's totals: every game's score and the game wins."""
        ...

    def decide(
        self,
        totals: Totals,
        cfg: RulesConfig,
        *,
        time_expired: bool,
        deals_after_expiry: int,
        match_time_expired: bool = False,
    ) -> PartyDecision:
        """What happens next in the match: the game in play, then the match."""
        ...


def plays_games(rule_set: RuleSet) -> TypeGuard[GamesRuleSet]:
    """Whether the rule set plays a match of games (its ``plays_games``), typed as such."""
    return rule_set.plays_games


def as_match(totals: Totals) -> MatchTotals:
    """``totals`` as a match's; plain totals are taken as one game in play, none won yet."""
    if isinstance(totals, MatchTotals):
        return totals
    game = GameScore(
        number=1,
        points=dict(totals.points),
        deal_points=dict(totals.deal_points),
        fine_points=dict(totals.fine_points),
        hands=len(totals.running),
        closed=False,
    )
    return MatchTotals(
        points=dict(totals.points),
        deal_points=dict(totals.deal_points),
        fine_points=dict(totals.fine_points),
        running=list(totals.running),
        games=[game],
        game_wins={side: 0 for side in totals.points},
    )


def target_winner(points: Mapping[str, int], cfg: RulesConfig) -> str | None:
    """The player who won a game at the target: alone at the top, at or above it."""
    leaders = highest(points)
    if len(leaders) == 1 and points[leaders[0]] >= cfg.target:
        return leaders[0]
    return None


def game_decision(decision: PartyDecision) -> PartyDecision:
    """A game's decision from the party-style one: a level score at the end means overtime."""
    if decision.state == EXTRA_DEAL:
        return PartyDecision(OVERTIME)
    return decision


def decide_match(
    game_wins: Mapping[str, int], cfg: RulesConfig, *, time_expired: bool = False
) -> PartyDecision:
    """After a game: the match is won by :func:`wins_needed` game wins, else the next game.

    To ``games_to_win`` wins, or in a best of three the first to two (so at most three games).

    When the match's own clock has run out, the player with more game wins takes it; level
    game wins mean one more game.
    """
    leaders = highest(game_wins)
    best = game_wins[leaders[0]]
    if best >= wins_needed(cfg) and len(leaders) == 1:
        return PartyDecision(FINISHED, leaders[0], REASON_TARGET)
    if time_expired and len(leaders) == 1:
        return PartyDecision(FINISHED, leaders[0], REASON_TIME)
    return PartyDecision(NEXT_GAME)


def count_wins(games: Sequence[GameScore], sides: Sequence[str]) -> dict[str, int]:
    """Games won per side, over the closed games."""
    wins = {side: 0 for side in sides}
    for game in games:
        if game.closed and game.winner is not None:
            wins[game.winner] += 1
    return wins
