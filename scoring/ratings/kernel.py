"""Glicko-2 over numpy arrays: a period's games as columns, every subject's update at once.

A federation's list (10,000 players × 100 tournaments: 120,000 parties, a million games)
is a second of interpreted arithmetic a game at a time; here each period is a handful of
array operations (``bench/bench_ratings.py``). The arithmetic is Glickman's (the steps of
:func:`scoring.ratings.glicko2.glicko2_update`, step 5 by the Illinois algorithm, run for
every subject until each one's interval is closed).

A subject is his rank among the run's subject keys in string order. His games are summed in
the order of (opponent, score) as integers, whatever the order of the parties: the same
floats in the same order from scratch and from a stored state.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, repeat

import numpy as np
from numpy.typing import NDArray

from scoring.ratings.glicko2 import SCALE, Glicko2Parameters

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]
Codes = NDArray[np.int8]

PI2 = math.pi * math.pi


@dataclass(frozen=True)
class Columns:
    """A period's parties of two sides of one or two subjects each, as columns.

    ``a1``, ``a2``, ``b1``, ``b2``: each side's subjects (ranks in the run's names; −1 where a
    side has one subject only); ``winner``: 0 side a, 1 side b, −1 a draw.
    """

    a1: Ints
    a2: Ints
    b1: Ints
    b2: Ints
    winner: Codes

    def __len__(self) -> int:
        """The number of parties."""
        return len(self.winner)

    def subjects(self) -> Ints:
        """The ranks of the subjects who play in the period, ascending."""
        every = np.concatenate((self.a1, self.a2, self.b1, self.b2))
        return np.unique(every[every >= 0])


@dataclass(frozen=True)
class PeriodGames:
    """A period's games (each subject's: opponent × 4 + 2 × score) and parties (each
    subject's result in each of his parties: 1, 0.5 or 0)."""

    subject: Ints
    key: Ints
    member: Ints
    result: Floats


def column_games(columns: Columns) -> PeriodGames:
    """The games of a period of :class:`Columns`: every subject of a side plays every
    subject of the other side (the partner is no opponent)."""
    code_a = np.where(columns.winner == 0, 2, np.where(columns.winner == 1, 0, 1)).astype(np.int64)
    code_b = 2 - code_a
    a1, a2, b1, b2 = columns.a1, columns.a2, columns.b1, columns.b2
    subject = np.concatenate((a1, a1, a2, a2, b1, b2, b1, b2))
    opponent = np.concatenate((b1, b2, b1, b2, a1, a1, a2, a2))
    code = np.concatenate((code_a, code_a, code_a, code_a, code_b, code_b, code_b, code_b))
    played = (subject >= 0) & (opponent >= 0)
    member = np.concatenate((a1, a2, b1, b2))
    result = (np.concatenate((code_a, code_a, code_b, code_b)) * 0.5).astype(np.float64)
    present = member >= 0
    return PeriodGames(subject[played], opponent[played] * 4 + code[played], member[present],
                       result[present])


def listed_games(games: Mapping[int, Sequence[int]], results: Mapping[int, Sequence[float]]
                 ) -> PeriodGames:
    """The games of a period read party by party (each subject's game keys and results)."""
    return PeriodGames(
        np.fromiter(chain.from_iterable(repeat(s, len(k)) for s, k in games.items()), np.int64),
        np.fromiter(chain.from_iterable(games.values()), np.int64),
        np.fromiter(chain.from_iterable(repeat(s, len(r)) for s, r in results.items()),
                    np.int64),
        np.fromiter(chain.from_iterable(results.values()), np.float64),
    )


@dataclass
class Glicko2State:
    """Every subject's state on the Glicko-2 scale (mu, phi, sigma) and the last period he
    played in (−1: not yet rated)."""

    mu: Floats
    phi: Floats
    sigma: Floats
    last: Ints

    @classmethod
    def empty(cls, size: int) -> Glicko2State:
        """No subject rated yet."""
        return cls(np.zeros(size), np.zeros(size), np.zeros(size), np.full(size, -1, np.int64))


@dataclass(frozen=True)
class PeriodRows:
    """The subjects who played a period (ranks, ascending) and their state after it, with
    their parties and score of the period."""

    subjects: Ints
    mu: Floats
    phi: Floats
    sigma: Floats
    parties: Ints
    score: Floats


def glicko2_period(state: Glicko2State, period: int, games: PeriodGames, p: Glicko2Parameters
                   ) -> PeriodRows:
    """One period: every subject who played updated from the ratings before the period (an
    idle subject's RD grown by his volatility for each period missed); ``state`` updated."""
    size = len(state.last)
    counts = np.bincount(games.member, minlength=size)
    subjects = np.flatnonzero(counts)
    parties = counts[subjects].astype(np.int64)
    score = np.bincount(games.member, weights=games.result, minlength=size)[subjects].astype(
        np.float64)
    at = np.empty(size, np.int64)  # each subject of the period: his place in ``subjects``
    at[subjects] = np.arange(len(subjects))
    last = state.last[subjects]
    known = last >= 0
    mu = np.where(known, state.mu[subjects], 0.0)
    sigma = np.where(known, state.sigma[subjects], p.volatility)
    phi = np.where(known, state.phi[subjects], p.deviation / SCALE)
    gap = np.where(known, period - last - 1, 0)
    grown = np.minimum(np.sqrt(phi * phi + np.maximum(gap, 0) * sigma * sigma),
                       p.max_deviation / SCALE)
    phi = np.where(gap > 0, grown, phi)
    g = 1.0 / np.sqrt(1.0 + 3.0 * phi * phi / PI2)

    # by subject, then (opponent, score): one integer sort (a key is below 4 × size)
    order = np.argsort(games.subject * (4 * size) + games.key, kind="stable")
    own = at[games.subject[order]]
    key = games.key[order]
    other = at[key >> 2]
    g_j = g[other]
    expected = 1.0 / (1.0 + np.exp(g_j * (mu[other] - mu[own])))
    v_terms = g_j * g_j * expected * (1.0 - expected)
    delta_terms = g_j * ((key & 3) * 0.5 - expected)
    v_inv = np.zeros(len(subjects))
    delta_sum = np.zeros(len(subjects))
    if len(own):
        starts = np.flatnonzero(np.concatenate(([True], own[1:] != own[:-1])))
        v_inv[own[starts]] = np.add.reduceat(v_terms, starts)
        delta_sum[own[starts]] = np.add.reduceat(delta_terms, starts)

    rated = v_inv > 0.0
    v = 1.0 / v_inv[rated]
    new_sigma = volatility(phi[rated], sigma[rated], v * delta_sum[rated], v, p)
    phi_star2 = phi[rated] * phi[rated] + new_sigma * new_sigma
    new_phi = 1.0 / np.sqrt(1.0 / phi_star2 + v_inv[rated])
    mu[rated] = mu[rated] + new_phi * new_phi * delta_sum[rated]
    phi[rated] = new_phi
    sigma[rated] = new_sigma
    phi = np.minimum(phi, p.max_deviation / SCALE)

    state.mu[subjects] = mu
    state.phi[subjects] = phi
    state.sigma[subjects] = sigma
    state.last[subjects] = period
    return PeriodRows(subjects, mu, phi, sigma, parties, score)


def volatility(phi: Floats, sigma: Floats, delta: Floats, v: Floats, p: Glicko2Parameters
               ) -> Floats:
    """Step 5 for every subject at once: the new volatility by the Illinois algorithm.

    f(x) = eˣ(Δ² − φ² − v − eˣ) / 2(φ² + v + eˣ)² − (x − a) / τ², a = ln σ²; each subject's
    bracket [A, B] is narrowed until it is shorter than ε, the others' are left as they are.
    """
    tau, epsilon = p.tau, p.epsilon
    tau2 = tau * tau
    a = np.log(sigma * sigma)
    phi2 = phi * phi
    delta2 = delta * delta
    rest = delta2 - phi2 - v
    base = phi2 + v

    def f(x: Floats, at: Ints | slice) -> Floats:
        ex = np.exp(x)
        return (ex * (rest[at] - ex)) / (2.0 * (base[at] + ex) ** 2) - (x - a[at]) / tau2

    big_a = a.copy()
    big_b = np.empty_like(a)
    wide = delta2 > base
    big_b[wide] = np.log(rest[wide])
    pending = np.flatnonzero(~wide)
    k = 1
    while len(pending):
        x = a[pending] - k * tau
        found = ~(f(x, pending) < 0)
        big_b[pending[found]] = x[found]
        pending = pending[~found]
        k += 1
    every = slice(None)
    f_a = f(big_a, every)
    f_b = f(big_b, every)
    open_ = np.flatnonzero(np.abs(big_b - big_a) > epsilon)
    while len(open_):
        fa, fb, aa = f_a[open_], f_b[open_], big_a[open_]
        big_c = aa + (aa - big_b[open_]) * fa / (fb - fa)
        f_c = f(big_c, open_)
        swap = f_c * fb <= 0
        big_a[open_] = np.where(swap, big_b[open_], aa)
        f_a[open_] = np.where(swap, fb, fa / 2.0)
        big_b[open_] = big_c
        f_b[open_] = f_c
        open_ = open_[np.abs(big_c - big_a[open_]) > epsilon]
    result: Floats = np.exp(big_a / 2.0)
    return result
