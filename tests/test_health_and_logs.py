"""``/healthz`` for load balancers, request ids and parties in logs, Sentry only with a DSN."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from config import health
from config.observability import RequestContextFilter
from scoring.core.heartbeat import HEARTBEAT_KEY, stamp_heartbeat

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_healthz_is_200_with_every_part_when_healthy(client):
    stamp_heartbeat.delay()  # eager here: the task a worker runs for the beat
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200 and body["status"] == "ok" and body["failed"] == []
    assert set(body["checks"]) == {"database", "cache", "broker", "worker_heartbeat"}
    assert body["checks"]["worker_heartbeat"]["age_seconds"] < 5


@pytest.mark.django_db
def test_healthz_is_503_naming_a_stale_heartbeat(client, settings):
    from django.core.cache import cache

    cache.set(HEARTBEAT_KEY, time.time() - 600)
    settings.HEALTH_HEARTBEAT_MAX_AGE_SECONDS = 90
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["failed"] == ["worker_heartbeat"]
    assert "600 s ago" in response.json()["checks"]["worker_heartbeat"]["error"]


@pytest.mark.django_db
def test_healthz_is_503_naming_a_failed_database(client, monkeypatch):
    def broken():
        raise RuntimeError("connection refused")

    monkeypatch.setitem(health.CHECKS, "database", broken)
    stamp_heartbeat.delay()
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["failed"] == ["database"]
    assert "connection refused" in response.json()["checks"]["database"]["error"]


@pytest.mark.django_db
def test_healthz_is_503_naming_a_broker_that_is_down(client, broker_at):
    from tests.conftest import DEAD_BROKER

    stamp_heartbeat.apply()  # the heartbeat is fresh: only the broker fails
    broker_at(DEAD_BROKER)
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["failed"] == ["broker"]
    assert "Error" in response.json()["checks"]["broker"]["error"]


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
