"""Redis restarts under a running site: the web node stays in, the worker takes tasks again.

The test starts its own Redis (``/usr/bin/redis-server`` on a free port, no persistence, in a
temporary folder; never the one on 6379), a Celery worker with compose.yaml's command and a
gunicorn web node with production settings, both on that Redis as broker, result backend and
cache. A task runs; Redis stops: the web node's liveness and readiness answer 200 and its full
report names the cache and the broker, while the worker waits; Redis starts again on the same
port: within 30 s the same worker process runs a task again (its result comes back through the
result backend, its heartbeat is in the new, empty Redis) and the report is "ok" again.
"""

from __future__ import annotations

import http.client
import json
import os
import shlex
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml
from celery import Celery

from config.cache import ResilientRedisCache
from scoring.core.heartbeat import HEARTBEAT_KEY

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
SITE = "domino.example.org"
REDIS_SERVER = "/usr/bin/redis-server"
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text())

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path(REDIS_SERVER).exists(), reason="needs /usr/bin/redis-server"),
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port = sock.getsockname()[1]
    assert port != 6379  # never the system's Redis
    return port


def _wait_until(check: Callable[[], object], what: str, timeout: float) -> float:
    """Poll until ``check()`` is true; the seconds it took."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            if check():
                return time.monotonic() - started
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"{what} within {timeout:.0f} s")


class OwnRedis:
    """A redis-server of this test: started, stopped and started again on one port."""

    def __init__(self, folder: Path) -> None:
        self.port = _free_port()
        self.folder = folder
        self.proc: subprocess.Popen | None = None

    def url(self, db: int) -> str:
        """The address of one of its databases."""
        return f"redis://{HOST}:{self.port}/{db}"

    def answers(self) -> bool:
        """Whether it answers a PING."""
        with socket.create_connection((HOST, self.port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")

    def start(self) -> None:
        """Start it (no snapshot, no append-only file: it comes back empty) and wait for it."""
        log = open(self.folder / "redis.log", "a")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", HOST, "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            cwd=self.folder, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        _wait_until(self.answers, f"redis-server on port {self.port} answered", 20)

    def stop(self) -> None:
        """Stop it and wait until it is gone."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


def _tail(path: Path, lines: int = 40) -> str:
    """The last lines of a log, to show with a failure."""
    if not path.exists():
        return ""
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    """This test's own Redis, stopped at the end."""
    redis = OwnRedis(tmp_path)
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


@pytest.fixture
def site(own_redis: OwnRedis, tmp_path: Path) -> Iterator[dict]:
    """A worker (compose.yaml's command) and a web node (DEBUG=0) on the test's Redis."""
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("CELERY_", "REDIS_", "DATABASE_"))}
    env |= {"CELERY_BROKER_URL": own_redis.url(0), "REDIS_URL": own_redis.url(1),
            "CELERY_RESULT_BACKEND": own_redis.url(2),
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "DEBUG": "0", "SECRET_KEY": "redis-restart-" + uuid.uuid4().hex * 2,
            "ALLOWED_HOSTS": SITE, "LOG_LEVEL": "INFO"}
    worker = shlex.split(COMPOSE["services"]["worker"]["command"])
    assert worker[0] == "celery"
    web_port = _free_port()
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    commands = {
        "worker": [sys.executable, "-m", *worker, "--concurrency=1",
                   "-n", f"restart-{uuid.uuid4().hex[:8]}@%h"],
        "web": [gunicorn, "config.wsgi", "--bind", f"{HOST}:{web_port}", "--workers", "1",
                "--timeout", "60", "--control-socket", str(tmp_path / "web.ctl")],
    }
    procs: dict[str, subprocess.Popen] = {}
    try:
        for name, command in commands.items():
            with open(tmp_path / f"{name}.log", "w") as log:
                procs[name] = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log,
                                               stderr=subprocess.STDOUT)
        _wait_until(lambda: _get(web_port, "/healthz/live")[0] == 200, "the web node served",
                    90)
        yield {"procs": procs, "web_port": web_port, "logs": tmp_path}
    finally:
        for proc in procs.values():
            proc.terminate()
        for proc in procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _get(port: int, path: str) -> tuple[int, dict]:
    conn = http.client.HTTPConnection(HOST, port, timeout=15)
    try:
        conn.request("GET", path, headers={"Host": SITE})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


def _run_a_task(client: Celery, broker: str, timeout: float) -> float:
    """Send the heartbeat task until the worker runs one; the time it stamped."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no task ran within {timeout:.0f} s")
        try:
            with client.connection_for_write(broker) as conn:
                sent = client.send_task("scoring.heartbeat.stamp_heartbeat", connection=conn,
                                        ignore_result=False)
            return float(sent.get(timeout=min(5.0, left)))
        except Exception:  # noqa: BLE001 - the broker or the worker is not back yet: again
            time.sleep(0.5)


def test_the_worker_outlives_a_redis_restart_and_the_web_node_stays_ready(
    own_redis, site, monkeypatch
):
    for name in ("CELERY_BROKER_URL", "CELERY_BROKER_WRITE_URL", "CELERY_RESULT_BACKEND"):
        monkeypatch.delenv(name, raising=False)  # they would override the client's addresses
    client = Celery("redis-restart", broker=own_redis.url(0), backend=own_redis.url(2))
    worker, port, logs = site["procs"]["worker"], site["web_port"], site["logs"]
    cache = ResilientRedisCache(own_redis.url(1), {"OPTIONS": {"retry_after": 0}})

    def log() -> str:
        return _tail(logs / "worker.log")

    stamped = _run_a_task(client, own_redis.url(0), 120)
    assert cache.get(HEARTBEAT_KEY) == stamped, log()
    _wait_until(lambda: _get(port, "/healthz")[1]["status"] == "ok", "the report said ok", 20)

    own_redis.stop()
    assert _get(port, "/healthz/live")[0] == 200
    probe = COMPOSE["services"]["web"]["healthcheck"]["test"][-1]
    assert subprocess.run(  # compose's liveness probe, as the container runs it
        [sys.executable, "-c", probe.replace("localhost:8000", f"{HOST}:{port}")],
        env={**os.environ, "ALLOWED_HOSTS": SITE}, timeout=30).returncode == 0
    assert _get(port, "/healthz/ready") == (200, {
        "status": "ok", "failed": [], "checks": {"database": {"ok": True, "backend": "sqlite"}}})
    status, report = _get(port, "/healthz")
    assert status == 200 and report["status"] == "degraded" and report["ready"] is True
    assert {"cache", "broker"} <= set(report["failed"]) and "database" not in report["failed"]
    assert report["checks"]["cache"]["backend"] == "redis"
    assert report["checks"]["broker"]["backend"] == "redis"
    time.sleep(8)  # the worker keeps trying to reconnect meanwhile
    assert worker.poll() is None, log()

    own_redis.start()  # empty: no queue, no binding, no heartbeat
    back = time.monotonic()
    stamped = _run_a_task(client, own_redis.url(0), 30)
    took = time.monotonic() - back
    assert worker.poll() is None, log()  # the same process, not a restarted one
    assert cache.get(HEARTBEAT_KEY) == stamped  # written to the new Redis by the worker
    print(f"a task ran {took:.1f} s after Redis came back")
    _wait_until(lambda: _get(port, "/healthz")[1]["status"] == "ok", "the report said ok again",
                30)
    assert "Unrecoverable" not in (logs / "worker.log").read_text()
