"""The engine's kernels: a period's games, and Elo and Glicko-2 run period by period.

A party is a game between its sides; every subject of one side plays every subject of each
other side (the partner is not an opponent). The score is the party's result from its
winner: 1 for the winning side, 0 for a losing one, 0.5 each for a draw (no winner); in a
party of more than two sides (each for himself) only the games with the winner count.

Inside a kernel a subject is his rank among the subject keys in string order, so a subject's
games sort by (opponent, score) as integers in the order the keys sort: the sums run in one
order whatever the order of the parties, and a run from a stored state (``start``) adds the
same floats in the same order as a run from scratch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeAlias

import numpy as np

from scoring.ratings.elo import EloParameters, k_factor
from scoring.ratings.glicko2 import SCALE, Glicko2Parameters
from scoring.ratings.kernel import (
    Columns,
    Floats,
    Glicko2State,
    Ints,
    column_games,
    glicko2_period,
    listed_games,
)

State: TypeAlias = Mapping[str, tuple[float, ...]]
"""Each subject's state before a run's first period: Elo (rating, parties rated so far);
Glicko-2 (mu, phi, sigma on the Glicko-2 scale, the last period he played in)."""


@dataclass(frozen=True)
class RatedParty:
    """One rated party: its sides (each a tuple of subject keys) and the winning side's index.

    ``winner`` None is a draw.
    """

    sides: tuple[tuple[str, ...], ...]
    winner: int | None


Period: TypeAlias = "Sequence[RatedParty] | Columns"
"""A rating period's parties: read party by party, or as columns (:class:`Columns`)."""


class HistoryRow(NamedTuple):
    """A subject's rating after a period he played in: parties and score of that period.

    ``mu`` and ``phi`` are Glicko-2's state exactly as the engine keeps it (None for Elo): a
    run from a stored state starts from them, not from the rounded-off published figures.
    """

    subject: str
    period: int
    rating: float
    deviation: float | None
    volatility: float | None
    games: int
    score: float
    mu: float | None = None
    phi: float | None = None


def pairwise_games(party: RatedParty) -> Iterable[tuple[str, str, float, float]]:
    """(subject, opponent, score, weight) of every game inside a party.

    The weight (for Elo) shares one party among the opponents: 1 / (sides − 1) / the size of
    the opponent's side, so one party moves a rating by at most K.
    """
    sides = party.sides
    others = len(sides) - 1
    for i, side in enumerate(sides):
        for j, opposite in enumerate(sides):
            if i == j:
                continue
            if party.winner is None:
                score = 0.5
            elif party.winner == i:
                score = 1.0
            elif party.winner == j:
                score = 0.0
            else:
                continue
            weight = 1.0 / others / len(opposite)
            for subject in side:
                for opponent in opposite:
                    yield subject, opponent, score, weight


def ranks(periods: Sequence[Period]) -> list[str]:
    """The subject keys of the periods in string order: a subject's index is his rank."""
    found: set[str] = set()
    for parties in periods:
        if isinstance(parties, Columns):
            raise TypeError("periods of columns need the run's subject names")
        for party in parties:
            for side in party.sides:
                found.update(side)
    return sorted(found)


def _period_games(parties: Sequence[RatedParty], rank: Mapping[str, int], elo: bool
                  ) -> tuple[dict[int, list[Any]], dict[int, list[float]]]:
    """Each subject's games of a period as the kernel sorts them, and his party results
    (1, 0.5, 0), one per party.

    A game is Elo's (opponent, score, weight), Glicko-2's opponent × 4 + 2 × score (the
    weight does not count there); a side's games are made once, shared by its subjects.
    """
    games: dict[int, list[Any]] = {}
    scores: dict[int, list[float]] = {}
    get = games.get
    for party in parties:
        sides = party.sides
        if len(sides) != 2:
            _more_sides(party, rank, games, scores, _elo_key if elo else _glicko2_key)
            continue
        winner = party.winner
        if winner is None:
            code_a = code_b = 1
            score_a = score_b = 0.5
        elif winner == 0:
            code_a, code_b, score_a, score_b = 2, 0, 1.0, 0.0
        else:
            code_a, code_b, score_a, score_b = 0, 2, 0.0, 1.0
        a = [rank[subject] for subject in sides[0]]
        b = [rank[subject] for subject in sides[1]]
        if elo:
            weight_a, weight_b = 1.0 / len(b), 1.0 / len(a)
            keys_a: list[Any] = [(o, score_a, weight_a) for o in b]
            keys_b: list[Any] = [(o, score_b, weight_b) for o in a]
        else:
            keys_a = [o * 4 + code_a for o in b]
            keys_b = [o * 4 + code_b for o in a]
        for side, keys, score in ((a, keys_a, score_a), (b, keys_b, score_b)):
            for subject in side:
                row = get(subject)
                if row is None:
                    games[subject] = keys.copy()
                    scores[subject] = [score]
                else:
                    row += keys
                    scores[subject].append(score)
    return games, scores


def _elo_key(opponent: int, score: float, weight: float) -> tuple[int, float, float]:
    """One Elo game in a party of more sides: (opponent, score, weight)."""
    return opponent, score, weight


def _more_sides(party: RatedParty, rank: Mapping[str, int], games: dict[int, list[Any]],
                scores: dict[int, list[float]], key: Callable[[int, float, float], Any]
                ) -> None:
    """A party of more than two sides: its games (made by ``key``) and scores, appended."""
    for subject, opponent, score, weight in pairwise_games(party):
        games.setdefault(rank[subject], []).append(key(rank[opponent], score, weight))
    winner = party.winner
    for i, side in enumerate(party.sides):
        score = 0.5 if winner is None else float(winner == i)
        for subject in side:
            scores.setdefault(rank[subject], []).append(score)
            games.setdefault(rank[subject], [])


def elo_history(p: EloParameters, periods: Sequence[Period], first: int, start: State,
                names: Sequence[str] | None = None) -> list[HistoryRow]:
    """Elo period by period: expected scores from the ratings before the tournament."""
    listed = [column_parties(parties, names or ()) if isinstance(parties, Columns) else parties
              for parties in periods]
    names = ranks(listed)
    rank = {name: i for i, name in enumerate(names)}
    initial = (p.initial, 0)
    state: dict[int, tuple[float, int]] = {
        rank[name]: (float(value[0]), int(value[1])) for name, value in start.items()
        if name in rank
    }
    rows: list[HistoryRow] = []
    for period, parties in enumerate(listed, start=first):
        games, scores = _period_games(parties, rank, True)
        updated: dict[int, tuple[float, int]] = {}
        before = {subject: state.get(subject, initial)[0] for subject in scores}
        for subject in sorted(scores):
            rating, played = state.get(subject, initial)
            change = 0.0
            for opponent, score, weight in sorted(games[subject]):
                expected = 1.0 / (1.0 + 10.0 ** ((before[opponent] - rating) / 400.0))
                change += weight * (score - expected)
            new = rating + k_factor(rating, played, p) * change
            mine = scores[subject]
            updated[subject] = (new, played + len(mine))
            rows.append(HistoryRow(names[subject], period, new, None, None, len(mine),
                                   sum(mine)))
        state.update(updated)
    return rows


def _glicko2_key(opponent: int, score: float, _weight: float) -> int:
    """One Glicko-2 game in a party of more sides: opponent × 4 + 2 × score."""
    return opponent * 4 + int(score * 2)


@dataclass(frozen=True)
class HistoryColumns:
    """A run's rows as columns, in period then subject order: row ``i`` is subject
    ``names[subject[i]]`` after period ``period[i]``; the Glicko-2 figures are None for Elo."""

    names: list[str]
    subject: Ints
    period: Ints
    rating: Floats
    deviation: Floats | None
    volatility: Floats | None
    games: Ints
    score: Floats
    mu: Floats | None
    phi: Floats | None

    def __len__(self) -> int:
        """The number of rows."""
        return len(self.subject)

    def rows(self) -> list[HistoryRow]:
        """The rows as :class:`HistoryRow` tuples."""
        names = self.names
        none = [None] * len(self)
        return [
            HistoryRow(names[subject], *rest) for subject, *rest in zip(
                self.subject.tolist(), self.period.tolist(), self.rating.tolist(),
                none if self.deviation is None else self.deviation.tolist(),
                none if self.volatility is None else self.volatility.tolist(),
                self.games.tolist(), self.score.tolist(),
                none if self.mu is None else self.mu.tolist(),
                none if self.phi is None else self.phi.tolist(), strict=True)
        ]

    @classmethod
    def of_rows(cls, rows: Sequence[HistoryRow]) -> HistoryColumns:
        """Rows (Elo's kernel makes them one by one) as columns."""
        names = sorted({row.subject for row in rows})
        rank = {name: i for i, name in enumerate(names)}
        glicko = bool(rows) and rows[0].mu is not None

        def floats(values: Iterable[Any]) -> Floats:
            return np.fromiter(values, np.float64, len(rows))

        return cls(
            names, np.fromiter((rank[row.subject] for row in rows), np.int64, len(rows)),
            np.fromiter((row.period for row in rows), np.int64, len(rows)),
            floats(row.rating for row in rows),
            floats(row.deviation for row in rows) if glicko else None,
            floats(row.volatility for row in rows) if glicko else None,
            np.fromiter((row.games for row in rows), np.int64, len(rows)),
            floats(row.score for row in rows),
            floats(row.mu for row in rows) if glicko else None,
            floats(row.phi for row in rows) if glicko else None,
        )


def glicko2_columns(p: Glicko2Parameters, periods: Sequence[Period], first: int,
                    start: State, names: Sequence[str] | None = None) -> HistoryColumns:
    """Glicko-2 period by period (:mod:`scoring.ratings.kernel`); an idle subject's RD grows
    by his volatility each period. ``names``: the subject keys in string order, which
    :class:`Columns` periods index (found from the parties when every period is a list)."""
    names = ranks(periods) if names is None else list(names)
    rank = {name: i for i, name in enumerate(names)}
    state = Glicko2State.empty(len(names))
    for name, value in start.items():
        at = rank.get(name)
        if at is not None:
            state.mu[at], state.phi[at], state.sigma[at] = value[0], value[1], value[2]
            state.last[at] = int(value[3])
    out = []
    for period, parties in enumerate(periods, start=first):
        if isinstance(parties, Columns):
            games = column_games(parties)
        else:
            games = listed_games(*_period_games(parties, rank, False))
        out.append(glicko2_period(state, period, games, p))
    periods_of = [np.full(len(rows.subjects), period, np.int64)
                  for period, rows in enumerate(out, start=first)]

    def joined(arrays: list[Any], dtype: type) -> Any:
        return np.concatenate(arrays) if arrays else np.zeros(0, dtype)

    mu = joined([rows.mu for rows in out], np.float64)
    phi = joined([rows.phi for rows in out], np.float64)
    return HistoryColumns(
        names, joined([rows.subjects for rows in out], np.int64), joined(periods_of, np.int64),
        mu * SCALE + p.initial, phi * SCALE, joined([rows.sigma for rows in out], np.float64),
        joined([rows.parties for rows in out], np.int64),
        joined([rows.score for rows in out], np.float64), mu, phi)


def column_parties(columns: Columns, names: Sequence[str]) -> list[RatedParty]:
    """A period of :class:`Columns` as rated parties (the Elo kernel reads parties)."""
    out = []
    for a1, a2, b1, b2, winner in zip(columns.a1.tolist(), columns.a2.tolist(),
                                      columns.b1.tolist(), columns.b2.tolist(),
                                      columns.winner.tolist(), strict=True):
        sides = (tuple(names[s] for s in (a1, a2) if s >= 0),
                 tuple(names[s] for s in (b1, b2) if s >= 0))
        out.append(RatedParty(sides, None if winner < 0 else winner))
    return out
