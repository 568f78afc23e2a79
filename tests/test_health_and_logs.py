"""Liveness, readiness and the full health report; request ids and parties in logs; Sentry."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from config.observability import RequestContextFilter
from scoring.core.heartbeat import HEARTBEAT_KEY, stamp_heartbeat
from tests.tournaments.test_cache_down import _redis_cache_at
from tests.tournaments.test_public_pages import _url, played  # noqa: F401 - the fixture

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_healthz_is_200_with_every_part_when_healthy(client):
    stamp_heartbeat.delay()  # eager here: the task a worker runs for the beat
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200 and body["status"] == "ok" and body["failed"] == []
    assert body["ready"] is True
    assert set(body["checks"]) == {"database", "cache", "broker", "worker_heartbeat"}
    assert body["checks"]["worker_heartbeat"]["age_seconds"] < 5
    assert client.get("/healthz/ready").json() == {"status": "ok", "failed": [], "checks": {
        "database": {"ok": True, "backend": connection.vendor}}}
    assert client.get("/healthz/live").json() == {"status": "ok"}


@pytest.mark.django_db
def test_a_stale_heartbeat_is_degraded_not_down(client, settings):
    from django.core.cache import cache

    cache.set(HEARTBEAT_KEY, time.time() - 600)
    settings.HEALTH_HEARTBEAT_MAX_AGE_SECONDS = 90
    response = client.get("/healthz")
    assert response.status_code == 200  # a load balancer on /healthz keeps the node
    assert response.json()["status"] == "degraded" and response.json()["ready"] is True
    assert response.json()["failed"] == ["worker_heartbeat"]
    assert "600 s ago" in response.json()["checks"]["worker_heartbeat"]["error"]
    assert client.get("/healthz/ready").status_code == 200


@pytest.mark.django_db
def test_a_broker_that_is_down_is_degraded_not_down(client, broker_at):
    from tests.conftest import DEAD_BROKER

    stamp_heartbeat.apply()  # the heartbeat is fresh: only the broker fails
    broker_at(DEAD_BROKER)
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json()["status"] == "degraded"
    assert response.json()["failed"] == ["broker"]
    assert "Error" in response.json()["checks"]["broker"]["error"]
    assert client.get("/healthz/ready").status_code == 200


@pytest.mark.django_db
def test_with_redis_down_pages_and_readiness_answer_200_and_the_report_names_redis(
    client, played, settings, broker_at  # noqa: F811 - the fixture
):
    """Redis stopped, as cache and broker: the site serves, only the full report says so."""
    from tests.conftest import DEAD_BROKER, DEAD_PORT

    _redis_cache_at(settings, DEAD_BROKER)
    broker_at(DEAD_BROKER)
    for page in ("/", _url(played, "detail"), _url(played, "standings"), _url(played, "hall")):
        assert client.get(page).status_code == 200, page
    assert client.get("/healthz/live").status_code == 200
    ready = client.get("/healthz/ready")
    assert ready.status_code == 200 and ready.json()["status"] == "ok"
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200 and body["status"] == "degraded" and body["ready"] is True
    assert body["failed"] == ["cache", "broker", "worker_heartbeat"]
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["cache"]["backend"] == "redis"
    assert "ConnectionError" in body["checks"]["cache"]["error"]
    assert f"127.0.0.1:{DEAD_PORT}" in body["checks"]["cache"]["error"]
    assert "OperationalError" in body["checks"]["broker"]["error"]
    assert "cache is down" in body["checks"]["worker_heartbeat"]["error"]


@pytest.mark.django_db
def test_with_the_database_down_readiness_is_503_and_liveness_200(client, monkeypatch):
    from django.db import OperationalError

    def refused() -> None:
        raise OperationalError("connection to server failed: Connection refused")

    stamp_heartbeat.apply()
    with monkeypatch.context() as patched:
        patched.setattr(connection, "ensure_connection", refused)
        live = client.get("/healthz/live")
        ready = client.get("/healthz/ready")
        report = client.get("/healthz")
    assert live.status_code == 200 and live.json() == {"status": "ok"}  # it asked nothing
    assert ready.status_code == 503 and ready.json()["failed"] == ["database"]
    assert "Connection refused" in ready.json()["checks"]["database"]["error"]
    assert report.status_code == 503 and report.json()["status"] == "fail"
    assert report.json()["ready"] is False and report.json()["failed"] == ["database"]
    assert report.json()["checks"]["cache"]["ok"] is True  # the rest still reported


@pytest.mark.django_db
def test_request_id_is_taken_or_made_and_returned(client):
    given = client.get("/healthz", HTTP_X_REQUEST_ID="lb-1234")
    assert given["X-Request-ID"] == "lb-1234"
    made = client.get("/healthz", HTTP_X_REQUEST_ID="bad id with spaces\n")
    assert len(made["X-Request-ID"]) == 32 and made["X-Request-ID"] != "lb-1234"


@pytest.mark.django_db
def test_log_lines_name_the_request_and_the_party(client, referee_user, caplog):
    client.force_login(referee_user)
    caplog.handler.addFilter(RequestContextFilter())
    with caplog.at_level(logging.WARNING):
        response = client.get("/referee/party/987654/status/", HTTP_X_REQUEST_ID="r-77")
        logging.getLogger("tests.outside").warning("outside any request")
    assert response.status_code == 404 and response["X-Request-ID"] == "r-77"
    served = [r for r in caplog.records if r.name == "django.request"]
    assert served and served[0].request_id == "r-77" and served[0].party == "987654"
    outside = [r for r in caplog.records if r.name == "tests.outside"]
    assert outside[0].request_id == "-" and outside[0].party == "-"


def test_sentry_is_initialised_only_when_a_dsn_is_set():
    code = ("import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE','config.settings');"
            "django.setup(); import sentry_sdk; c = sentry_sdk.get_client();"
            "print(c.is_active(), c.dsn)")
    clean = {k: v for k, v in os.environ.items() if k != "SENTRY_DSN"}
    off = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean,
                         capture_output=True, text=True, timeout=60)
    assert off.stdout.split()[0] == "False", off.stderr
    from tests.conftest import DEAD_PORT

    dsn = f"https://public@127.0.0.1:{DEAD_PORT}/1"
    on = subprocess.run([sys.executable, "-c", code], cwd=ROOT,
                        env={**clean, "SENTRY_DSN": dsn}, capture_output=True, text=True,
                        timeout=60)
    assert on.stdout.split() == ["True", dsn], on.stderr
