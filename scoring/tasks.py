"""Background work on protocols and webhooks: printing a round, forgetting expired prints, the
sweep that sends again the prints a broker outage kept from going out after commit, and the
webhook outbox's sweep."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from scoring.core.background import RecordTask
from scoring.models import PrintJob
from scoring.ranking import rating_tasks
from scoring.ranking.rating_tasks import recompute_rating_list_task
from scoring.ranking.seasons import refresh_placings_task
from scoring.signoff import printing
from scoring.signoff.printing import render_print_job
from scoring.webhooks import outbox
from scoring.webhooks.sender import deliver_webhooks

MISSED_AFTER = timedelta(minutes=2)
"""A queued print left this long was not sent (the broker was down)."""


@shared_task(base=RecordTask, name="scoring.tasks.purge_print_jobs")
def purge_print_jobs() -> int:
    """Delete round prints past their expiry, with their files (the beat runs this)."""
    return printing.purge_expired_jobs()


@shared_task(base=RecordTask, name="scoring.tasks.sweep_missed_sends")
def sweep_missed_sends() -> dict[str, list[int]]:
    """Send again the prints and the rating lists' runs still waiting for a task (the beat
    runs it).

    The tasks are idempotent and take their work under a row lock, so one sent twice (the first
    message was only late) does nothing the second time.
    """
    now = timezone.now()
    jobs = list(
        PrintJob.objects.filter(
            status=PrintJob.Status.QUEUED, created_at__lt=now - MISSED_AFTER,
            created_at__gt=now - printing.STALE_AFTER,
        ).values_list("pk", flat=True)
    )
    for pk in jobs:
        render_print_job.send_quietly((pk,))
    return {"print_jobs": jobs, "rating_lists": rating_tasks.queue_missed(now - MISSED_AFTER)}


@shared_task(base=RecordTask, name="scoring.tasks.sweep_webhooks")
def sweep_webhooks() -> list[int]:
    """The beat's webhook sweep: a delivery task for every subscription whose next delivery is
    due (its message lost to a broker outage, or its retry's message early); the outbox's claim
    makes a task sent twice harmless. The subscriptions it queued."""
    due, _next_in = outbox.due_heads()
    for pk in due:
        deliver_webhooks.send_quietly((pk,))
    return due


__all__ = [
    "deliver_webhooks", "purge_print_jobs", "recompute_rating_list_task",
    "refresh_placings_task", "render_print_job", "sweep_missed_sends", "sweep_webhooks",
]
