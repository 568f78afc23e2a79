"""The workers' heartbeat: a task the beat sends that stamps the time in the shared cache."""

from __future__ import annotations

import time

from celery import shared_task
from django.conf import settings
from django.core.cache import cache

from scoring.core.background import RecordTask

HEARTBEAT_KEY = "health:worker-heartbeat"
"""The cache key a worker stamps and ``/healthz`` (``config.health``) reads."""


def stamp_heartbeat_now() -> float:
    """Record that a worker is alive now (in the shared cache); the time stamped."""
    now = time.time()
    cache.set(HEARTBEAT_KEY, now, settings.HEALTH_HEARTBEAT_MAX_AGE_SECONDS * 10)
    return now


def last_heartbeat() -> float | None:
    """When a worker last stamped the heartbeat (epoch seconds), or None."""
    stamped = cache.get(HEARTBEAT_KEY)
    return None if stamped is None else float(stamped)


@shared_task(base=RecordTask, name="scoring.heartbeat.stamp_heartbeat", ignore_result=True)
def stamp_heartbeat() -> float:
    """Stamp the workers' heartbeat that ``/healthz`` checks (the beat sends it every 15 s)."""
    return stamp_heartbeat_now()
