"""The rating engine, plain Python and numpy: Glicko-2 and Elo over rating periods (one per
tournament).

``compute_history`` takes the rated parties of each period in order and returns every
subject's rating after each period he played in (``compute_columns``: the same as columns);
no Django, no database.
"""

from scoring.ratings.elo import EloParameters, elo_expected, elo_period
from scoring.ratings.glicko2 import Glicko2Parameters, Glicko2Rating, glicko2_update
from scoring.ratings.history import (
    HistoryColumns,
    HistoryRow,
    RatedParty,
    RatingParameters,
    compute_columns,
    compute_history,
    pairwise_games,
    parameters_for,
    start_state,
)

__all__ = [
    "EloParameters",
    "Glicko2Parameters",
    "Glicko2Rating",
    "HistoryColumns",
    "HistoryRow",
    "RatedParty",
    "RatingParameters",
    "compute_columns",
    "compute_history",
    "elo_expected",
    "elo_period",
    "glicko2_update",
    "pairwise_games",
    "parameters_for",
    "start_state",
]
