"""Elo with a K factor by experience (FIDE style): one rating period's update."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class EloParameters:
    """The constants: a new player's rating and the K factors by experience and by rating.

    K is ``k_new`` for the first ``new_games`` parties, ``k`` after, ``k_top`` from a
    rating of ``top``; each is taken before the period (the tournament).
    """

    initial: float = 1500.0
    k_new: float = 40.0
    new_games: int = 30
    k: float = 20.0
    k_top: float = 10.0
    top: float = 2400.0


def elo_expected(rating: float, opponent: float) -> float:
    """The expected score against an opponent: 1 / (1 + 10^((Rb − Ra) / 400))."""
    power: float = 10.0 ** ((opponent - rating) / 400.0)  # a positive base: never complex
    return 1.0 / (1.0 + power)


def k_factor(rating: float, parties: int, p: EloParameters) -> float:
    """The subject's K before the period, from his parties rated so far and his rating."""
    if parties < p.new_games:
        return p.k_new
    if rating >= p.top:
        return p.k_top
    return p.k


def elo_period(
    rating: float,
    parties: int,
    games: Sequence[tuple[float, float, float]],
    p: EloParameters = EloParameters(),
) -> float:
    """The rating after a period: R + K · Σ weight · (score − expected).

    ``games`` are (opponent's rating before the period, score, weight); the expected scores
    use the ratings before the period, so the order of the games does not matter.
    """
    k = k_factor(rating, parties, p)
    change = sum(w * (score - elo_expected(rating, opp)) for opp, score, w in games)
    return rating + k * change
