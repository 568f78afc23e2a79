"""A list's history: the rated parties of each period in order → rows per period.

From scratch, or from the state stored after an earlier period (a correction recomputes
from its tournament's period on); the kernels and how a party's games count are in
:mod:`scoring.ratings.periods`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields
from typing import Any, TypeAlias

from scoring.ratings.elo import EloParameters
from scoring.ratings.glicko2 import Glicko2Parameters, Glicko2Rating
from scoring.ratings.periods import (
    HistoryColumns,
    HistoryRow,
    Period,
    RatedParty,
    State,
    elo_history,
    glicko2_columns,
    pairwise_games,
)

ELO, GLICKO2 = "elo", "glicko2"

RatingParameters: TypeAlias = EloParameters | Glicko2Parameters
"""A rating system's parameters (see :func:`parameters_for`)."""


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


def compute_history(
    system: str, parameters: RatingParameters, periods: Sequence[Period],
    *, first: int = 1, start: State | None = None, names: Sequence[str] | None = None,
) -> list[HistoryRow]:
    """Every subject's rating after each period he played in, deterministic.

    From scratch by default; given ``start`` (each subject's state after the period before
    ``first``, as the rows of that run stored it: :func:`start_state`) the periods are those
    from ``first`` on, and the rows equal a run from scratch's rows of those periods.
    Rows are ordered by period, then subject key. A period is a list of rated parties or
    :class:`~scoring.ratings.kernel.Columns` of subject ranks in ``names`` (every subject key
    of the run, in string order).
    """
    if system == ELO and isinstance(parameters, EloParameters):
        return elo_history(parameters, periods, first, start or {}, names)
    return compute_columns(system, parameters, periods, first=first, start=start,
                           names=names).rows()


def compute_columns(
    system: str, parameters: RatingParameters, periods: Sequence[Period],
    *, first: int = 1, start: State | None = None, names: Sequence[str] | None = None,
) -> HistoryColumns:
    """:func:`compute_history`'s rows as columns (what a list stores them from)."""
    begin: State = start or {}
    if system == ELO and isinstance(parameters, EloParameters):
        return HistoryColumns.of_rows(elo_history(parameters, periods, first, begin, names))
    if system == GLICKO2 and isinstance(parameters, Glicko2Parameters):
        return glicko2_columns(parameters, periods, first, begin, names)
    if system in (ELO, GLICKO2):
        raise TypeError(f"not {system} parameters: {parameters!r}")
    raise ValueError(f"unknown rating system {system!r}")


def start_state(system: str, rows: Iterable[HistoryRow]) -> dict[str, tuple[float, ...]]:
    """The state a run from a later period starts from: a subject's rows before it, in
    period order (Elo sums his parties; Glicko-2 takes his last row's exact state)."""
    state: dict[str, tuple[float, ...]] = {}
    if system == ELO:
        for row in rows:
            played = state.get(row.subject, (0.0, 0))[1]
            state[row.subject] = (row.rating, int(played) + row.games)
        return state
    for row in rows:
        if row.mu is None or row.phi is None or row.volatility is None:
            raise ValueError(f"no Glicko-2 state stored for {row.subject!r}")
        state[row.subject] = (row.mu, row.phi, row.volatility, row.period)
    return state


def current_ratings(rows: Sequence[HistoryRow]) -> dict[str, HistoryRow]:
    """Each subject's last row: his rating now."""
    return {row.subject: row for row in rows}


__all__ = [
    "ELO", "GLICKO2", "Glicko2Rating", "HistoryColumns", "HistoryRow", "RatedParty",
    "compute_columns", "compute_history",
    "RatingParameters", "State", "current_ratings", "pairwise_games", "parameters_for",
    "start_state",
]
