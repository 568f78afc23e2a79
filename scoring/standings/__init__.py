"""The standings engine: plain Python (no ORM), metrics as small declarative classes.

:func:`compute_standings` ranks pairs (or, in an individual event, players) from finished
:class:`PartyResult` s (or their plain tuples, :data:`PlainResult`) in the order the
regulations (:class:`StandingsConfig`) give.
"""

from .engine import Tally, compute_standings, paused_gc, plain, rank_tally
from .metrics import METRICS, Metric
from .types import (
    DEFAULT_ORDER,
    OwnScore,
    PartyResult,
    PlainResult,
    StandingRow,
    StandingsConfig,
    default_order,
    from_plain,
    rule_set_metrics,
)

__all__ = [
    "DEFAULT_ORDER",
    "METRICS",
    "Metric",
    "OwnScore",
    "PartyResult",
    "PlainResult",
    "StandingRow",
    "StandingsConfig",
    "Tally",
    "compute_standings",
    "default_order",
    "from_plain",
    "paused_gc",
    "plain",
    "rank_tally",
    "rule_set_metrics",
]
