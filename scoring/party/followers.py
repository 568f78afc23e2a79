"""What follows a party's result: the season tables and rating lists that count it."""

from __future__ import annotations

from typing import Any

from scoring.ranking import rating_tasks
from scoring.ranking.seasons import schedule_refresh


def results_changed(party: Any) -> None:
    """A party's result changed: its season tables and rating lists follow (tasks on commit)."""
    schedule_refresh(round_id=party.round_id)
    rating_tasks.results_changed(party)
