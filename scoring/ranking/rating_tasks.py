"""Recomputing rating lists in the background when a rated tournament's result changes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from celery import shared_task

from scoring.core.background import RecordTask
from scoring.models import RatingList
from scoring.ranking.rating_runs import recompute_rating_list


@shared_task(base=RecordTask, name="scoring.rating_tasks.recompute_rating_list")
def recompute_rating_list_task(list_id: int) -> int:
    """Recompute one list from scratch (idempotent: the same results give the same rows)."""
    if not RatingList.objects.filter(pk=list_id).exists():
        return 0
    return recompute_rating_list(list_id)


def results_changed(party: Any) -> None:
    """Queue the recompute of every list rating the party's tournament, after commit.

    ``scoring.party.ending`` calls it when a party finishes and when a finished party changes.
    """
    tournaments_changed([party.round.tournament_id])


def tournaments_changed(tournament_ids: Iterable[int]) -> None:
    """Queue the recompute of every list rating any of these tournaments, after commit (a
    result changed, or the people linked to its entries did)."""
    for list_id in RatingList.objects.filter(tournaments__in=list(tournament_ids)).values_list(
        "pk", flat=True
    ).distinct():
        recompute_rating_list_task.delay_on_commit(list_id)
