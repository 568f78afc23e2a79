"""The one base class of every Celery task: queued on commit, retried and acknowledged late."""

from __future__ import annotations

import logging
from typing import Any

from celery.contrib.django.task import DjangoTask
from django.db import InterfaceError, OperationalError, transaction
from kombu.exceptions import OperationalError as BrokerOperationalError

logger = logging.getLogger(__name__)

BROKER_ERRORS = (BrokerOperationalError, OSError)
"""What a send raises when the broker is down or hangs (kombu wraps the transport's errors)."""


class RecordTask(DjangoTask):
    """A task that reads or changes the record: idempotent, so it may run again safely.

    Send it with ``delay_on_commit`` (Celery's ``DjangoTask``): it goes out when the caller's
    transaction commits (at once outside a transaction), so a worker never looks for rows that
    are not committed yet. A lost database connection retries with backoff; the message is
    acknowledged only after the task ran.

    A send after commit never fails the request: the change is committed already, so a broker
    that is down (or hangs past ``BROKER_TIMEOUT_SECONDS``) is logged and the work is left to
    the beat's sweeps, which find it from the record. Nothing waits for such a task's result,
    so none is stored (no round trip to the result backend either).
    """

    abstract = True
    acks_late = True
    autoretry_for = (OperationalError, InterfaceError)
    retry_backoff = True
    retry_backoff_max = 60
    retry_jitter = True
    max_retries = 5

    # celery-types has both return an AsyncResult; Celery's own DjangoTask returns None too
    def delay_on_commit(  # type: ignore[override]
        self, *args: object, **kwargs: object
    ) -> None:
        """Send the task with these arguments once the current transaction commits."""
        self.apply_async_on_commit(args, kwargs)

    def apply_async_on_commit(  # type: ignore[override]
        self,
        args: tuple[object, ...] | None = None,
        kwargs: dict[str, object] | None = None,
        **options: Any,
    ) -> None:
        """``apply_async`` once the current transaction commits; a broker error is logged."""
        transaction.on_commit(lambda: self.send_quietly(args, kwargs, **options))

    def queue_after(self, seconds: float, *args: object, **kwargs: object) -> None:
        """Send the task to run ``seconds`` later, once the current transaction commits."""
        self.apply_async_on_commit(args, kwargs, countdown=seconds)

    def send_quietly(
        self,
        args: tuple[object, ...] | None = None,
        kwargs: dict[str, object] | None = None,
        **options: Any,
    ) -> bool:
        """Send the task without its result; False (logged) when the broker refused it.

        In eager mode (no broker) the task runs here and its errors propagate as usual.
        """
        if self.app.conf.task_always_eager:
            self.apply_async(args, kwargs, ignore_result=True, **options)
            return True
        try:
            self.apply_async(args, kwargs, ignore_result=True, **options)
        except BROKER_ERRORS as exc:
            logger.error("broker unavailable, %s%s not sent (the beat's sweep catches up): %s",
                         self.name, tuple(args or ()), exc)
            return False
        return True
