"""The rating engine, plain Python: Glicko-2 and Elo over rating periods (one per tournament).

``compute_history`` takes the rated parties of each period in order and returns every
subject's rating after each period he played in; no Django, no database.
"""

from scoring.ratings.elo import EloParameters, elo_expected, elo_period
from scoring.ratings.glicko2 import Glicko2Parameters, Glicko2Rating, glicko2_update
from scoring.ratings.history import (
    HistoryRow,
    RatedParty,
    RatingParameters,
    compute_history,
    pairwise_games,
    parameters_for,
    start_state,
)

__all__ = [
    "EloParameters",
    "Glicko2Parameters",
    "Glicko2Rating",
    "HistoryRow",
    "RatedParty",
    "RatingParameters",
    "compute_history",
    "elo_expected",
    "elo_period",
    "glicko2_update",
    "pairwise_games",
    "parameters_for",
    "start_state",
]
