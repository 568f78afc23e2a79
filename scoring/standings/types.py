"""Plain data of the standings engine: party results in, configuration, rows out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.rules import get_rule_set

from .metrics import METRICS

Side = int | tuple[int, ...]


@dataclass(frozen=True)
class OwnScore:
    """An entrant's own result in a game where every player keeps his own account (Kozel).

    ``points`` are his points after the game (account plus fines: fewer is better), ``rating``
    the rating points the game gave him, ``goat`` whether he lost it (the Goat, or the one who
    forfeited), ``fines`` the fine points he received.
    """

    points: int
    rating: int
    goat: bool = False
    fines: int = 0


@dataclass(frozen=True)
class PartyResult:
    """The result of one finished party, as the standings see it.

    ``a`` and ``b`` are the two sides: an entrant id (a pair in a pairs event) or, in an
    individual event, a tuple of the player ids of the pair formed for that round (each player
    is then ranked alone; opponents are the players of the other side). ``b=None`` is a bye
    for ``a``. ``points_a``/``points_b`` are the final party totals (fines already deducted
    when the regulations deduct them); ``fines_a``/``fines_b`` the fine points each side
    received. ``winner`` names the winning side: its id, its tuple, or any player id in it;
    ``None`` only for a party both sides forfeited. ``forfeited_by`` names the side that did
    not show up (defaults to the loser of a forfeit); ``ended_by_time`` marks a party that the
    time limit ended. ``games_a``/``games_b`` are the games each side won in a match of games
    (UDL, All Fives).

    ``own`` is set for a game where every player keeps his own account (Kozel): each
    entrant's :class:`OwnScore`; it then decides the entrants' match points (their rating
    points), wins (games not lost) and points, and ``winner`` is informative only. With
    ``solo`` the partners of a side play against each other too (Kozel of four single
    players: the seat groups a1+a2 and b1+b2 are not teams).
    """

    round: int
    a: Side
    b: Side | None
    points_a: int
    points_b: int
    winner: Side | None
    forfeit: bool = False
    forfeited_by: Side | None = None
    ended_by_time: bool = False
    fines_a: int = 0
    fines_b: int = 0
    games_a: int = 0
    games_b: int = 0
    own: Mapping[int, OwnScore] | None = None
    solo: bool = False


PlainResult = tuple[
    int, Side, Side | None, int, int, int | None, int | None, bool, int, int, int, int
]
"""A party result as a plain tuple, the form the database layer feeds the engine (no objects):
``(round, a, b, points_a, points_b, won, forfeited, ended_by_time, fines_a, fines_b, games_a,
games_b)``. ``won`` is the index of the winning side (0 for ``a``, 1 for ``b``, None for
nobody), ``forfeited`` None without a forfeit, else the index of the side that forfeited (-1
for both). The other fields are those of :class:`PartyResult` (``b`` None for a bye); own
accounts (Kozel) come as :class:`PartyResult` only."""
PLAIN_WON, PLAIN_FORFEITED = 5, 6
"""Where ``won`` and ``forfeited`` are in a :data:`PlainResult`."""


def from_plain(row: PlainResult) -> PartyResult:
    """The :class:`PartyResult` of a plain result (the same party, the same standings)."""
    rnd, a, b, points_a, points_b, won, forfeited, by_time, fines_a, fines_b, ga, gb = row
    sides = (a, b)
    return PartyResult(
        round=rnd,
        a=a,
        b=b,
        points_a=points_a,
        points_b=points_b,
        winner=None if won is None else sides[won],
        forfeit=forfeited is not None,
        forfeited_by=sides[forfeited] if forfeited in (0, 1) else None,
        ended_by_time=by_time,
        fines_a=fines_a,
        fines_b=fines_b,
        games_a=ga,
        games_b=gb,
    )


DEFAULT_ORDER = ("match_points", "point_difference", "points_for", "head_to_head", "buchholz")

def default_order(rule_set: str) -> tuple[str, ...]:
    """The standings order a rule set ranks by when the regulations name none (its own)."""
    return get_rule_set(rule_set).standings_order or DEFAULT_ORDER


#: Metrics every rule set can rank by; the rule sets' own (game wins, Kozel's) are added.
COMMON_METRICS = ("match_points", "wins", "points_for", "points_against", "point_difference",
                  "efectiveness", "head_to_head", "buchholz", "median_buchholz", "fines")


def rule_set_metrics(rule_set: str) -> tuple[str, ...]:
    """The metric keys a rule set's standings can be ordered by, in ``METRICS`` order.

    The common ones, the game wins where parties are matches of games, and those of the rule
    set's own standings order (Kozel: rating points, Goat games, points taken).
    """
    engine = get_rule_set(rule_set)
    wanted = {*COMMON_METRICS, *(engine.standings_order or ())}
    if engine.plays_games:
        wanted.add("game_wins")
    return tuple(key for key in METRICS if key in wanted)


@dataclass(frozen=True)
class StandingsConfig:
    """The standings part of a tournament's regulations.

    ``order`` lists metric keys (see ``METRICS``), the first deciding most. Match points:
    ``win_points`` for a win, ``loss_points`` for a loss, ``forfeit_win_points`` for a win by
    forfeit, ``forfeit_loss_points`` for the side that forfeited, ``bye_points`` for a bye
    (counted as a forfeit win: a win, and ``target / 2`` efectiveness). ``target`` is the
    party target (efectiveness caps the winner's score at it).
    """

    order: Sequence[str] = DEFAULT_ORDER
    win_points: int = 2
    loss_points: int = 0
    forfeit_win_points: int = 2
    bye_points: int = 2
    target: int = 200
    forfeit_loss_points: int = 0

    def __post_init__(self) -> None:
        """Check the order against the known metrics."""
        object.__setattr__(self, "order", tuple(self.order))
        unknown = [k for k in self.order if k not in METRICS]
        if unknown:
            raise ValueError(f"unknown standings metrics: {unknown}; known: {sorted(METRICS)}")
        if len(set(self.order)) != len(self.order):
            raise ValueError("a standings metric is listed twice")
        if self.target <= 0:
            raise ValueError("target must be positive")


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings: the entrant, its rank (shared ranks repeat: 1, 2, 2, 4),
    every metric's value and whether the rank is shared with another entrant."""

    entrant: int
    rank: int
    metrics: dict[str, float | int]
    shared: bool
