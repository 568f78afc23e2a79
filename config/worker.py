"""What a Celery worker process adds to Celery: a consumer that reconnects every few seconds."""

from __future__ import annotations

from functools import partial
from typing import Any

from celery.worker.consumer import Consumer as CeleryConsumer
from django.conf import settings


class Consumer(CeleryConsumer):
    """Celery's consumer, but a lost broker is tried again at most ``BROKER_RECONNECT_SECONDS``
    apart (Celery's own waits grow to 30 s), so a worker takes tasks again within seconds of
    Redis coming back however long it was away (``CELERY_WORKER_CONSUMER``)."""

    def ensure_connected(self, conn: Any) -> Any:
        """Connect as Celery does (retries for ever, settings), with the shorter waits."""
        wait = settings.BROKER_RECONNECT_SECONDS
        conn.ensure_connection = partial(conn.ensure_connection, interval_start=min(1.0, wait),
                                         interval_step=1.0, interval_max=wait)
        return super().ensure_connected(conn)
