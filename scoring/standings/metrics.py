"""Standings metrics: tiny declarative classes (key, name, abbreviation, compute).

Each metric's ``compute(tally, entrants)`` returns ``{entrant: value}`` from a
:class:`Tally` of the counted parties (the engine's, read through this module's protocol).
``higher_is_better`` says the sort direction. A metric with ``needs_group`` (head-to-head)
depends on which entrants are compared: the engine calls it with exactly the group tied on
every earlier metric.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from typing import ClassVar, Protocol

Number = float | int


class Tally(Protocol):
    """What a metric reads of the engine's tally (``engine.Tally`` has it): sums per entrant,
    each entrant's parties as (opponents, match points earned), and his opponents' strengths."""

    points_for: dict[int, int]
    points_against: dict[int, int]
    parties: dict[int, list[tuple[tuple[int, ...], Number]]]

    def opponent_strengths(self, entrant: int) -> list[Number]:
        """The strength of each opponent the entrant met (for the Buchholz metrics)."""
        ...


def _(message: str) -> str:
    """Mark ``message`` for translation (``makemessages``); the Django layer translates it."""
    return message


class Metric:
    """Base class of a standings metric."""

    key: ClassVar[str]
    name: ClassVar[str]
    abbr: ClassVar[str]
    higher_is_better: ClassVar[bool] = True
    needs_group: ClassVar[bool] = False

    def compute(self, tally: Tally, entrants: Sequence[int]) -> dict[int, Number]:
        """Return the metric's value for each of ``entrants``."""
        raise NotImplementedError


class _FieldMetric(Metric):
    """A metric that is one of the tally's per-entrant sums."""

    field: ClassVar[str]

    def compute(self, tally: Tally, entrants: Sequence[int]) -> dict[int, Number]:
        """Read the field from the tally (0 for an entrant without parties)."""
        values = getattr(tally, self.field)
        return dict(zip(entrants, map(values.get, entrants, repeat(0)), strict=False))


class MatchPoints(_FieldMetric):
    """Match points: per party a win, a loss, a forfeit or a bye as the regulations say.

    In games where every player keeps his own account (Kozel) a game's match points are the
    player's rating points after it.
    """

    key, name, abbr, field = "match_points", _("Match points"), _("MP"), "match_points"


class Wins(_FieldMetric):
    """Parties won (a forfeit win and a bye count; in Kozel, every game not lost as the Goat)."""

    key, name, abbr, field = "wins", _("Wins"), _("W"), "wins"


class PointsFor(_FieldMetric):
    """Party points scored over all parties."""

    key, name, abbr, field = "points_for", _("Points for"), _("PF"), "points_for"


class PointsAgainst(_FieldMetric):
    """Party points conceded over all parties (fewer is better)."""

    key, name, abbr, field = "points_against", _("Points against"), _("PA"), "points_against"
    higher_is_better = False


class PointDifference(Metric):
    """Points for minus points against."""

    key, name, abbr = "point_difference", _("Point difference"), _("PD")

    def compute(self, tally: Tally, entrants: Sequence[int]) -> dict[int, Number]:
        """Points for minus points against."""
        pf, pa = tally.points_for, tally.points_against
        return {e: pf.get(e, 0) - pa.get(e, 0) for e in entrants}


class Efectiveness(_FieldMetric):
    """The international federation's efectiveness (RULES.md): per party the point difference
    with the winner's score capped at the target (215–150 → +50 / −50; 130–95 ended by time →
    +35 / −35); a forfeit gives the side that forfeited −target and the winner +target/2; a
    bye +target/2."""

    key, name, abbr, field = "efectiveness", _("Efectiveness"), _("EF"), "efectiveness"


class Fines(_FieldMetric):
    """Fine points received (fewer is better)."""

    key, name, abbr, field = "fines", _("Fines"), _("F"), "fines"
    higher_is_better = False


class GameWins(_FieldMetric):
    """Matches of games (UDL, All Fives): games won minus games lost, over all matches."""

    key, name, abbr, field = "game_wins", _("Game wins difference"), _("GD"), "game_wins"


class RatingPoints(_FieldMetric):
    """Kozel (RULES.md 3): the sum of the player's ratings after each game, (100 − his points)
    / 10 rounded half up; a game stopped by a player's timeout follows the timeout rule."""

    key, name, abbr, field = "rating_points", _("Rating points"), _("RP"), "rating_points"


class Goats(_FieldMetric):
    """Kozel: games the player lost as the Goat (fewer is better)."""

    key, name, abbr, field = "goats", _("Goat games"), _("G"), "goats"
    higher_is_better = False


class PointsTaken(_FieldMetric):
    """Kozel: the points the player took over his games, accounts plus fines (fewer is
    better)."""

    key, name, abbr, field = "points_taken", _("Points taken"), _("PT"), "points_taken"
    higher_is_better = False


class Buchholz(Metric):
    """Sum of the opponents' match points (per party, every opposing player; byes add 0)."""

    key, name, abbr = "buchholz", _("Buchholz"), _("Bh")

    def compute(self, tally: Tally, entrants: Sequence[int]) -> dict[int, Number]:
        """Sum the per-party opponent strengths."""
        return {e: sum(tally.opponent_strengths(e)) for e in entrants}


class MedianBuchholz(Metric):
    """Buchholz without the best and the worst party's opponents (with three parties or more;
    with fewer nothing is dropped)."""

    key, name, abbr = "median_buchholz", _("Median Buchholz"), _("MBh")

    def compute(self, tally: Tally, entrants: Sequence[int]) -> dict[int, Number]:
        """Sum the per-party opponent strengths without the highest and the lowest."""
        out: dict[int, Number] = {}
        for e in entrants:
            values = tally.opponent_strengths(e)
            total = sum(values)
            if len(values) >= 3:
                total -= max(values) + min(values)
            out[e] = total
        return out


class HeadToHead(Metric):
    """Match points won in parties against the others of exactly the tied group (a party
    counts when an opponent of the entrant belongs to the group)."""

    key, name, abbr = "head_to_head", _("Head-to-head"), _("H2H")
    needs_group = True

    def compute(self, tally: Tally, entrants: Sequence[int]) -> dict[int, Number]:
        """Match points earned against members of ``entrants``."""
        group = set(entrants)
        out: dict[int, Number] = {}
        for e in entrants:
            out[e] = sum(
                earned
                for opponents, earned in tally.parties.get(e, ())
                if any(o in group for o in opponents)
            )
        return out


METRICS: dict[str, Metric] = {
    m.key: m()
    for m in (
        MatchPoints,
        Wins,
        PointsFor,
        PointsAgainst,
        PointDifference,
        Efectiveness,
        HeadToHead,
        Buchholz,
        MedianBuchholz,
        Fines,
        GameWins,
        RatingPoints,
        Goats,
        PointsTaken,
    )
}
