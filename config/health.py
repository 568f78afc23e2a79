"""``/healthz`` for load balancers: database, cache, broker and the workers' heartbeat."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from scoring.core.heartbeat import last_heartbeat


def check_database() -> dict:
    """The database answers a query."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"ok": True}


def check_cache() -> dict:
    """The cache stores and returns a value (a local cache when no ``REDIS_URL``)."""
    probe = f"health:probe:{time.monotonic_ns()}"
    cache.set(probe, "1", 10)
    ok = cache.get(probe) == "1"
    cache.delete(probe)
    return {"ok": ok} if ok else {"ok": False, "error": "the cache did not keep a value"}


def check_broker() -> dict:
    """The Celery broker accepts a connection (``eager`` when tasks run in the web process)."""
    from config.celery import app

    if app.conf.task_always_eager:
        return {"ok": True, "mode": "eager"}
    with app.connection_for_write() as conn:
        # celery-types say the timeout is an int; kombu adds the seconds, a float, to time()
        conn.ensure_connection(
            max_retries=1, interval_start=0,
            timeout=settings.BROKER_TIMEOUT_SECONDS,  # type: ignore[arg-type]
        )
    return {"ok": True}


def check_heartbeat() -> dict:
    """A worker stamped its heartbeat recently enough (not needed when tasks run eagerly)."""
    from config.celery import app

    stamped = last_heartbeat()
    limit = settings.HEALTH_HEARTBEAT_MAX_AGE_SECONDS
    if stamped is None:
        if app.conf.task_always_eager:
            return {"ok": True, "mode": "eager", "age_seconds": None}
        return {"ok": False, "error": "no worker heartbeat yet", "age_seconds": None}
    age = round(max(0.0, time.time() - stamped), 1)
    if age > limit:
        return {"ok": False, "error": f"last worker heartbeat {age:.0f} s ago (limit {limit} s)",
                "age_seconds": age}
    return {"ok": True, "age_seconds": age}


CHECKS: dict[str, Callable[[], dict]] = {
    "database": check_database,
    "cache": check_cache,
    "broker": check_broker,
    "worker_heartbeat": check_heartbeat,
}


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Every check's result; 200 when all pass, else 503 naming the ones that failed."""
    results: dict[str, dict] = {}
    for name, check in CHECKS.items():
        try:
            results[name] = check()
        except Exception as exc:  # noqa: BLE001 - a failed part is reported, not raised
            results[name] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    failed = [name for name, result in results.items() if not result["ok"]]
    return JsonResponse(
        {"status": "fail" if failed else "ok", "failed": failed, "checks": results},
        status=503 if failed else 200,
    )
