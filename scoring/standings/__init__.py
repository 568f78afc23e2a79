"""The standings engine: plain Python (no ORM), metrics as small declarative classes.

:func:`compute_standings` ranks pairs (or, in an individual event, players) from finished
:class:`PartyResult` s in the order the regulations (:class:`StandingsConfig`) give.
"""

from .engine import Tally, compute_standings
from .metrics import METRICS, Metric
from .types import (
    DEFAULT_ORDER,
    OwnScore,
    PartyResult,
    StandingRow,
    StandingsConfig,
    default_order,
    rule_set_metrics,
)

__all__ = [
    "DEFAULT_ORDER",
    "METRICS",
    "Metric",
    "OwnScore",
    "PartyResult",
    "StandingRow",
    "StandingsConfig",
    "Tally",
    "compute_standings",
    "default_order",
    "rule_set_metrics",
]
