"""The one base class of every Celery task: queued on commit, retried and acknowledged late."""

from __future__ import annotations

from typing import Any

from celery.contrib.django.task import DjangoTask
from django.db import InterfaceError, OperationalError, transaction


class RecordTask(DjangoTask):
    """A task that reads or changes the record: idempotent, so it may run again safely.

    Send it with ``delay_on_commit`` (Celery's ``DjangoTask``): it goes out when the caller's
    transaction commits (at once outside a transaction), so a worker never looks for rows that
    are not committed yet. A lost database connection retries with backoff; the message is
    acknowledged only after the task ran.
    """

    abstract = True
    acks_late = True
    autoretry_for = (OperationalError, InterfaceError)
    retry_backoff = True
    retry_backoff_max = 60
    retry_jitter = True
    max_retries = 5

    def queue_after(self, seconds: float, *args: Any, **kwargs: Any) -> None:
        """Send the task to run ``seconds`` later, once the current transaction commits."""
        transaction.on_commit(lambda: self.apply_async(args, kwargs, countdown=seconds))
