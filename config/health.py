"""Health for load balancers, orchestrators and monitoring: liveness, readiness, the full report.

- ``/healthz/live``: the process serves requests; nothing else is asked (always 200).
- ``/healthz/ready``: what every page needs, the database: 200, else 503.
- ``/healthz``: every part (database, cache, broker, the workers' heartbeat) for monitoring;
  200 ``"ok"``, 200 ``"degraded"`` naming the failed parts, 503 ``"fail"`` only when the
  database fails (as readiness), so a cache or worker outage never takes a web node out.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from config.cache import REDIS_ERRORS, ResilientRedisCache
from scoring.core.background import BROKER_ERRORS
from scoring.core.heartbeat import last_heartbeat


def failure(exc: BaseException, **known: object) -> dict:
    """A failed part's result: what is known of it and the error, shortened."""
    return {"ok": False, **known, "error": f"{type(exc).__name__}: {exc}"[:300]}


def check_database() -> dict:
    """The database answers a query."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"ok": True, "backend": connection.vendor}


def check_cache() -> dict:
    """The cache stores and returns a value; a Redis cache is asked directly, so that its error
    shows (its reads only miss while Redis is down)."""
    used = caches["default"]
    backend = "redis" if isinstance(used, RedisCache) else type(used).__name__
    if isinstance(used, ResilientRedisCache):
        try:
            used.ping()
        except REDIS_ERRORS as exc:
            return failure(exc, backend=backend)
    probe = f"health:probe:{time.monotonic_ns()}"
    used.set(probe, "1", 10)
    ok = used.get(probe) == "1"
    used.delete(probe)
    if not ok:
        return {"ok": False, "backend": backend, "error": "the cache did not keep a value"}
    return {"ok": True, "backend": backend}


def check_broker() -> dict:
    """The Celery broker accepts a connection (``eager`` when tasks run in the web process)."""
    from config.celery import app

    if app.conf.task_always_eager:
        return {"ok": True, "mode": "eager"}
    with app.connection_for_write() as conn:
        try:
            # celery-types say the timeout is an int; kombu adds the seconds, a float, to time()
            conn.ensure_connection(
                max_retries=1, interval_start=0,
                timeout=settings.BROKER_TIMEOUT_SECONDS,  # type: ignore[arg-type]
            )
        except BROKER_ERRORS as exc:
            return failure(exc, backend=conn.transport_cls)
        return {"ok": True, "backend": conn.transport_cls}


def check_heartbeat() -> dict:
    """A worker stamped its heartbeat recently enough (not needed when tasks run eagerly)."""
    from config.celery import app

    stamped = last_heartbeat()
    limit = settings.HEALTH_HEARTBEAT_MAX_AGE_SECONDS
    if stamped is None:
        if app.conf.task_always_eager:
            return {"ok": True, "mode": "eager", "age_seconds": None}
        return {"ok": False, "age_seconds": None,
                "error": "no worker heartbeat in the cache (none yet, or the cache is down)"}
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
"""Every part of the full report, by name."""

READINESS = ("database",)
"""The parts without which no page answers: only their failure makes a node unready."""


def run_checks(names: tuple[str, ...] | list[str]) -> dict[str, dict]:
    """Each named check's result; a check that raises is a failure naming the error."""
    results: dict[str, dict] = {}
    for name in names:
        try:
            results[name] = CHECKS[name]()
        except Exception as exc:  # noqa: BLE001 - a failed part is reported, not raised
            results[name] = failure(exc)
    return results


@never_cache
def live(request: HttpRequest) -> JsonResponse:
    """Liveness: this process answers requests (no database, cache or broker is asked)."""
    return JsonResponse({"status": "ok"})


@never_cache
def ready(request: HttpRequest) -> JsonResponse:
    """Readiness: 200 while the database answers, 503 naming it when it does not."""
    results = run_checks(READINESS)
    failed = [name for name, result in results.items() if not result["ok"]]
    return JsonResponse({"status": "fail" if failed else "ok", "failed": failed,
                         "checks": results}, status=503 if failed else 200)


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """The full report: every part; 200 "ok" or "degraded" naming the failed parts, 503 "fail"
    only when a readiness part (the database) failed."""
    results = run_checks(list(CHECKS))
    failed = [name for name, result in results.items() if not result["ok"]]
    is_ready = not any(name in failed for name in READINESS)
    status = "ok" if not failed else "degraded" if is_ready else "fail"
    return JsonResponse({"status": status, "ready": is_ready, "failed": failed,
                         "checks": results}, status=200 if is_ready else 503)
