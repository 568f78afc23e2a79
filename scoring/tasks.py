"""Background work on protocols: printing a round, forgetting expired prints."""

from __future__ import annotations

from celery import shared_task

from scoring import printing
from scoring.background import RecordTask
from scoring.printing import render_print_job
from scoring.webhook_delivery import deliver_webhooks


@shared_task(base=RecordTask)
def purge_print_jobs() -> int:
    """Delete round prints past their expiry, with their files (the beat runs this)."""
    return printing.purge_expired_jobs()


__all__ = ["deliver_webhooks", "purge_print_jobs", "render_print_job"]
