"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013): one rating period's update."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""The factor between the Glicko scale and the Glicko-2 scale (400 / ln 10)."""


@dataclass(frozen=True)
class Glicko2Parameters:
    """The system's constants: a new player's rating, deviation and volatility, and tau."""

    initial: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06
    tau: float = 0.5
    epsilon: float = 0.000001
    max_deviation: float = 350.0


@dataclass(frozen=True)
class Glicko2Rating:
    """A rating on the Glicko scale with its deviation (RD) and volatility (sigma)."""

    rating: float
    deviation: float
    volatility: float


def _g(phi: float) -> float:
    """Glickman's g(phi): how much an opponent's uncertainty flattens the expected score."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _new_volatility(phi: float, sigma: float, delta: float, v: float, p: Glicko2Parameters
                    ) -> float:
    """Step 5: the new volatility by the Illinois algorithm (regula falsi)."""
    return volatility_of(p)(phi, sigma, delta, v)


def volatility_of(p: Glicko2Parameters) -> Callable[[float, float, float, float], float]:
    """Step 5 with the system's constants bound: (phi, sigma, delta, v) → the new volatility.

    The function of the paper, f(x) = eˣ(Δ² − φ² − v − eˣ) / 2(φ² + v + eˣ)² − (x − a) / τ²,
    is written out in the loop, its constant parts taken once (the same operations in the
    same order: the same floats).
    """
    tau, epsilon = p.tau, p.epsilon
    tau2 = tau * tau
    exp, log = math.exp, math.log

    def volatility(phi: float, sigma: float, delta: float, v: float) -> float:
        a = log(sigma * sigma)
        phi2 = phi * phi
        delta2 = delta * delta
        rest = delta2 - phi2 - v  # Δ² − φ² − v
        base = phi2 + v
        big_a = a
        if delta2 > base:
            big_b = log(rest)
        else:
            k = 1
            while True:
                x = a - k * tau
                ex = exp(x)
                if not (ex * (rest - ex)) / (2.0 * (base + ex) ** 2) - (x - a) / tau2 < 0:
                    break
                k += 1
            big_b = a - k * tau
        ex = exp(big_a)
        f_a = (ex * (rest - ex)) / (2.0 * (base + ex) ** 2) - (big_a - a) / tau2
        ex = exp(big_b)
        f_b = (ex * (rest - ex)) / (2.0 * (base + ex) ** 2) - (big_b - a) / tau2
        while abs(big_b - big_a) > epsilon:
            big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
            ex = exp(big_c)
            f_c = (ex * (rest - ex)) / (2.0 * (base + ex) ** 2) - (big_c - a) / tau2
            if f_c * f_b <= 0:
                big_a, f_a = big_b, f_b
            else:
                f_a /= 2.0
            big_b, f_b = big_c, f_c
        return exp(big_a / 2.0)

    return volatility


def idle(rating: Glicko2Rating, periods: int, p: Glicko2Parameters) -> Glicko2Rating:
    """The rating after ``periods`` rating periods without a game: only the RD grows."""
    if periods <= 0:
        return rating
    phi = rating.deviation / SCALE
    phi = math.sqrt(phi * phi + periods * rating.volatility * rating.volatility)
    return Glicko2Rating(rating.rating, min(phi * SCALE, p.max_deviation), rating.volatility)


def glicko2_update(
    rating: Glicko2Rating,
    games: Sequence[tuple[Glicko2Rating, float]],
    p: Glicko2Parameters = Glicko2Parameters(),
) -> Glicko2Rating:
    """The rating after one period of ``games`` (opponent's rating before the period, score).

    Steps 2–8 of Glickman's paper; without a game only the deviation grows (step 6).
    """
    if not games:
        return idle(rating, 1, p)
    mu = (rating.rating - p.initial) / SCALE
    phi = rating.deviation / SCALE
    v_inv = 0.0
    delta_sum = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - p.initial) / SCALE
        g = _g(opponent.deviation / SCALE)
        expected = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        v_inv += g * g * expected * (1.0 - expected)
        delta_sum += g * (score - expected)
    v = 1.0 / v_inv
    delta = v * delta_sum
    sigma = _new_volatility(phi, rating.volatility, delta, v, p)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Glicko2Rating(
        mu_new * SCALE + p.initial, min(phi_new * SCALE, p.max_deviation), sigma
    )
