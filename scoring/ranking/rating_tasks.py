"""Recomputing rating lists in the background when a rated tournament's result changes.

A change marks each list rating the tournament: ``recompute_from`` lowered (never raised) to
the tournament's rating period, and one run queued only when none is pending
(``recompute_queued_at`` set from empty). The run starts a few seconds later, so the parties
finishing meanwhile join it; it takes the mark (:func:`update_rating_list`). A change while a
run holds the list sends its mark with a task of its own, which waits for the list.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from celery import shared_task
from django.db import transaction
from django.db.models import F, PositiveIntegerField, Value
from django.db.models.functions import Coalesce, Least
from django.utils import timezone

from scoring.core.background import RecordTask
from scoring.models import RatingList
from scoring.ranking.rating_updates import period_of, update_rating_list

DELAY_SECONDS = 3
"""How long a queued run waits: the parties finishing meanwhile are recomputed with it."""


@shared_task(base=RecordTask, name="scoring.rating_tasks.recompute_rating_list")
def recompute_rating_list_task(list_id: int, tournament_ids: Sequence[int] = ()) -> int:
    """Run the list's pending recompute (idempotent: nothing pending, nothing done); the rows
    written. ``tournament_ids``: a mark sent with the task (the list was busy)."""
    run = update_rating_list(list_id, list(tournament_ids))
    return 0 if run is None else run.written


def results_changed(party: Any) -> None:
    """Mark every list rating the party's tournament, after commit (see the module).

    ``scoring.party.ending`` calls it when a party finishes and when a finished party changes.
    """
    tournaments_changed([party.round.tournament_id])


def tournaments_changed(tournament_ids: Iterable[int]) -> None:
    """Mark every list rating any of these tournaments, after commit (a result changed, or
    the people linked to its entries did)."""
    ids = sorted(set(tournament_ids))
    transaction.on_commit(lambda: mark_lists(ids))


def mark_lists(tournament_ids: Sequence[int]) -> list[int]:
    """Mark the lists rating these tournaments from the first one's period on; the lists
    whose run this call queued."""
    lists = RatingList.objects.filter(tournaments__in=tournament_ids).values_list(
        "pk", flat=True).distinct().order_by("pk")
    return [pk for pk in lists if _mark(pk, tournament_ids)]


def _mark(list_id: int, tournament_ids: Sequence[int]) -> bool:
    """Lower one list's mark and queue its run unless one is pending; whether it queued."""
    with transaction.atomic():
        periods = RatingList.objects.select_for_update(skip_locked=True).filter(
            pk=list_id).values_list("periods", flat=True).first()
        if periods is None:  # a run holds the list: the mark goes with a task, which waits
            recompute_rating_list_task.apply_async_on_commit(
                (list_id, list(tournament_ids)), countdown=DELAY_SECONDS)
            return True
        period = Value(period_of(periods, tournament_ids), output_field=PositiveIntegerField())
        RatingList.objects.filter(pk=list_id).update(
            recompute_from=Least(Coalesce(F("recompute_from"), period), period))
        queued = RatingList.objects.filter(pk=list_id, recompute_queued_at__isnull=True).update(
            recompute_queued_at=timezone.now())
        if queued:
            recompute_rating_list_task.apply_async_on_commit((list_id,),
                                                            countdown=DELAY_SECONDS)
    return bool(queued)


def queue_missed(older_than: Any) -> list[int]:
    """Send again the runs queued before ``older_than`` and still pending (a broker outage
    lost their message; a run sent twice finds nothing the second time); their lists."""
    lists = list(RatingList.objects.filter(recompute_queued_at__lt=older_than)
                 .values_list("pk", flat=True))
    for pk in lists:
        RatingList.objects.filter(pk=pk).update(recompute_queued_at=timezone.now())
        recompute_rating_list_task.send_quietly((pk,))
    return lists
