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

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeAlias

from scoring.ratings.elo import EloParameters, k_factor
from scoring.ratings.glicko2 import SCALE, Glicko2Parameters, volatility_of

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


def ranks(periods: Sequence[Sequence[RatedParty]]) -> list[str]:
    """The subject keys of the periods in string order: a subject's index is his rank."""
    found: set[str] = set()
    for parties in periods:
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


def elo_history(p: EloParameters, periods: Sequence[Sequence[RatedParty]], first: int,
                start: State) -> list[HistoryRow]:
    """Elo period by period: expected scores from the ratings before the tournament."""
    names = ranks(periods)
    rank = {name: i for i, name in enumerate(names)}
    initial = (p.initial, 0)
    state: dict[int, tuple[float, int]] = {
        rank[name]: (float(value[0]), int(value[1])) for name, value in start.items()
        if name in rank
    }
    rows: list[HistoryRow] = []
    for period, parties in enumerate(periods, start=first):
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


def glicko2_history(p: Glicko2Parameters, periods: Sequence[Sequence[RatedParty]], first: int,
                    start: State) -> list[HistoryRow]:
    """Glicko-2 period by period; an idle subject's RD grows by his volatility each period.

    The arithmetic is :func:`scoring.ratings.glicko2.glicko2_update`'s, operation for
    operation (step 5 is :func:`volatility`); g(phi) and its square are taken once per
    subject and period, before the period.
    """
    names = ranks(periods)
    rank = {name: i for i, name in enumerate(names)}
    # state: subject -> (mu, phi, sigma, last period played); mu and phi on the Glicko-2 scale
    state: dict[int, tuple[float, float, float, int]] = {
        rank[name]: (float(value[0]), float(value[1]), float(value[2]), int(value[3]))
        for name, value in start.items() if name in rank
    }
    new_phi = p.deviation / SCALE
    max_phi = p.max_deviation / SCALE
    initial, volatility0 = p.initial, p.volatility
    rows: list[HistoryRow] = []
    append = rows.append
    pi2 = math.pi * math.pi
    exp, sqrt = math.exp, math.sqrt
    new_volatility = volatility_of(p)
    get_state = state.get
    for period, parties in enumerate(periods, start=first):
        games, scores = _period_games(parties, rank, False)
        before: dict[int, tuple[float, float, float]] = {}  # mu, phi, sigma
        opponents: dict[int, tuple[float, float, float]] = {}  # mu, g(phi), g²
        for subject in scores:
            known = get_state(subject)
            if known is None:
                mu, phi, sigma = 0.0, new_phi, volatility0
            else:
                mu, phi, sigma, last = known
                gap = period - last - 1
                if gap > 0:
                    phi = min(sqrt(phi * phi + gap * sigma * sigma), max_phi)
            g = 1.0 / sqrt(1.0 + 3.0 * phi * phi / pi2)
            before[subject] = (mu, phi, sigma)
            opponents[subject] = (mu, g, g * g)
        for subject in sorted(scores):
            mu, phi, sigma = before[subject]
            v_inv = delta_sum = 0.0
            for key in sorted(games[subject]):
                mu_j, g, g2 = opponents[key >> 2]
                expected = 1.0 / (1.0 + exp(g * (mu_j - mu)))
                v_inv += g2 * expected * (1.0 - expected)
                delta_sum += g * ((key & 3) * 0.5 - expected)
            if v_inv > 0.0:
                v = 1.0 / v_inv
                sigma = new_volatility(phi, sigma, v * delta_sum, v)
                phi_star2 = phi * phi + sigma * sigma
                phi = 1.0 / sqrt(1.0 / phi_star2 + v_inv)
                mu = mu + phi * phi * delta_sum
            if phi > max_phi:
                phi = max_phi
            state[subject] = (mu, phi, sigma, period)
            mine = scores[subject]
            append(HistoryRow(names[subject], period, mu * SCALE + initial, phi * SCALE,
                              sigma, len(mine), sum(mine), mu, phi))
    return rows
