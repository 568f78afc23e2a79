"""Background work on protocols: printing a round, forgetting expired prints."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from scoring import printing


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def render_print_job(job_id: int) -> str:
    """Render one round print job (idempotent: a finished job is left as it is)."""
    job = printing.run_print_job(job_id)
    return job.status if job is not None else "missing"


@shared_task(acks_late=True)
def purge_print_jobs() -> int:
    """Delete round prints past their expiry, with their files (the beat runs this)."""
    return printing.purge_expired_jobs()
