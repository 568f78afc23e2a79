"""A list's history from scratch: the rated parties of each period in order → rows per period.

A party is a game between its sides; every subject of one side plays every subject of each
other side (the partner is not an opponent). The score is the party's result from its
winner: 1 for the winning side, 0 for a losing one, 0.5 each for a draw (no winner); in a
party of more than two sides (each for himself) only the games with the winner count.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, TypeAlias

from scoring.ratings.elo import EloParameters, k_factor
from scoring.ratings.glicko2 import SCALE, Glicko2Parameters, Glicko2Rating, _new_volatility

ELO, GLICKO2 = "elo", "glicko2"

RatingParameters: TypeAlias = EloParameters | Glicko2Parameters
"""A rating system's parameters (see :func:`parameters_for`)."""


@dataclass(frozen=True)
class RatedParty:
    """One rated party: its sides (each a tuple of subject keys) and the winning side's index.

    ``winner`` None is a draw.
    """

    sides: tuple[tuple[str, ...], ...]
    winner: int | None


@dataclass(frozen=True)
class HistoryRow:
    """A subject's rating after a period he played in: parties and score of that period."""

    subject: str
    period: int
    rating: float
    deviation: float | None
    volatility: float | None
    games: int
    score: float


def parameters_for(system: str, values: Mapping[str, object] | None) -> RatingParameters:
    """The system's parameters from a list's JSON (unknown keys or bad values: ValueError)."""
    classes: dict[str, type[RatingParameters]] = {ELO: EloParameters, GLICKO2: Glicko2Parameters}
    cls = classes.get(system)
    if cls is None:
        raise ValueError(f"unknown rating system {system!r}")
    known = {f.name: f for f in fields(cls)}
    if values is not None and not isinstance(values, Mapping):
        raise ValueError("parameters must be an object of names and numbers")
    values = dict(values or {})
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise ValueError(f"unknown parameter {unknown[0]!r}")
    clean: dict[str, Any] = {}
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"parameter {name!r} must be a number")
        if value < 0 or (value == 0 and name != "new_games"):
            raise ValueError(f"parameter {name!r} must be positive")
        clean[name] = int(value) if name == "new_games" else float(value)
    return cls(**clean)


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


def _period(parties: Sequence[RatedParty]
            ) -> tuple[dict[str, list[tuple[str, float, float]]], dict[str, list[float]]]:
    """Each subject's games of a period, sorted so the result does not depend on the order,
    and his party results (1, 0.5, 0), one per party."""
    games: dict[str, list[tuple[str, float, float]]] = {}
    scores: dict[str, list[float]] = {}
    for party in parties:
        sides, winner = party.sides, party.winner
        if len(sides) == 2:  # the common case, inline: a party of two sides
            a, b = sides
            sa = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
            sb = 1.0 - sa
            wa, wb = 1.0 / len(b), 1.0 / len(a)
            for subject in a:
                row = games.get(subject)
                if row is None:
                    row = games[subject] = []
                    scores[subject] = []
                row.extend([(opponent, sa, wa) for opponent in b])
                scores[subject].append(sa)
            for subject in b:
                row = games.get(subject)
                if row is None:
                    row = games[subject] = []
                    scores[subject] = []
                row.extend([(opponent, sb, wb) for opponent in a])
                scores[subject].append(sb)
            continue
        for subject, opponent, score, weight in pairwise_games(party):
            games.setdefault(subject, []).append((opponent, score, weight))
        for i, side in enumerate(sides):
            score = 0.5 if winner is None else float(winner == i)
            for subject in side:
                scores.setdefault(subject, []).append(score)
                games.setdefault(subject, [])
    for row in games.values():
        row.sort()
    return games, scores


def compute_history(
    system: str, parameters: RatingParameters, periods: Sequence[Sequence[RatedParty]]
) -> list[HistoryRow]:
    """Every subject's rating after each period he played in, from scratch, deterministic.

    Rows are ordered by period, then subject key.
    """
    if system == ELO and isinstance(parameters, EloParameters):
        return _elo_history(parameters, periods)
    if system == GLICKO2 and isinstance(parameters, Glicko2Parameters):
        return _glicko2_history(parameters, periods)
    if system in (ELO, GLICKO2):
        raise TypeError(f"not {system} parameters: {parameters!r}")
    raise ValueError(f"unknown rating system {system!r}")


def _elo_history(p: EloParameters, periods: Sequence[Sequence[RatedParty]]) -> list[HistoryRow]:
    """Elo period by period: expected scores from the ratings before the tournament."""
    state: dict[str, tuple[float, int]] = {}
    rows: list[HistoryRow] = []
    initial = (p.initial, 0)
    for period, parties in enumerate(periods, start=1):
        games, scores = _period(parties)
        updated: dict[str, tuple[float, int]] = {}
        before = {subject: state.get(subject, initial)[0] for subject in scores}
        for subject in sorted(scores):
            rating, played = state.get(subject, initial)
            change = 0.0
            for opponent, score, weight in games[subject]:
                expected = 1.0 / (1.0 + 10.0 ** ((before[opponent] - rating) / 400.0))
                change += weight * (score - expected)
            new = rating + k_factor(rating, played, p) * change
            mine = scores[subject]
            updated[subject] = (new, played + len(mine))
            rows.append(HistoryRow(subject, period, new, None, None, len(mine), sum(mine)))
        state.update(updated)
    return rows


def _glicko2_history(
    p: Glicko2Parameters, periods: Sequence[Sequence[RatedParty]]
) -> list[HistoryRow]:
    """Glicko-2 period by period; an idle subject's RD grows by his volatility each period."""
    # state: subject -> (mu, phi, sigma, last period played); mu and phi on the Glicko-2 scale
    state: dict[str, tuple[float, float, float, int]] = {}
    new_phi = p.deviation / SCALE
    max_phi = p.max_deviation / SCALE
    rows: list[HistoryRow] = []
    pi2 = math.pi * math.pi
    for period, parties in enumerate(periods, start=1):
        games, scores = _period(parties)
        before: dict[str, tuple[float, float, float, float]] = {}  # mu, phi, sigma, g(phi)
        mu_g: dict[str, tuple[float, float]] = {}  # the opponents' view: mu, g(phi)
        exp = math.exp
        for subject in scores:
            known = state.get(subject)
            if known is None:
                mu, phi, sigma = 0.0, new_phi, p.volatility
            else:
                mu, phi, sigma, last = known
                gap = period - last - 1
                if gap > 0:
                    phi = min(math.sqrt(phi * phi + gap * sigma * sigma), max_phi)
            g = 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / pi2)
            before[subject] = (mu, phi, sigma, g)
            mu_g[subject] = (mu, g)
        for subject in sorted(scores):
            mu, phi, sigma, _ = before[subject]
            v_inv = delta_sum = 0.0
            for opponent, score, _weight in games[subject]:
                mu_j, g = mu_g[opponent]
                expected = 1.0 / (1.0 + exp(g * (mu_j - mu)))
                v_inv += g * g * expected * (1.0 - expected)
                delta_sum += g * (score - expected)
            if v_inv > 0.0:
                v = 1.0 / v_inv
                sigma = _new_volatility(phi, sigma, v * delta_sum, v, p)
                phi_star2 = phi * phi + sigma * sigma
                phi = 1.0 / math.sqrt(1.0 / phi_star2 + v_inv)
                mu = mu + phi * phi * delta_sum
            phi = min(phi, max_phi)
            state[subject] = (mu, phi, sigma, period)
            mine = scores[subject]
            rows.append(HistoryRow(
                subject, period, mu * SCALE + p.initial, phi * SCALE, sigma, len(mine), sum(mine)
            ))
    return rows


def current_ratings(rows: Sequence[HistoryRow]) -> dict[str, HistoryRow]:
    """Each subject's last row: his rating now."""
    return {row.subject: row for row in rows}


__all__ = [
    "ELO", "GLICKO2", "Glicko2Rating", "HistoryRow", "RatedParty", "compute_history",
    "RatingParameters", "current_ratings", "pairwise_games", "parameters_for",
]
