"""Benchmark of webhook delivery: from an event's commit to the receiver, worker running.

Needs PostgreSQL and a broker: DATABASE_URL (postgres://…) and CELERY_BROKER_URL (redis://…);
without them it says so and skips. Migrates the database, registers a local receiver
(http.server on 127.0.0.1; loopback allowed for the run) for a tournament's events, starts a
real Celery worker (``celery -A config worker``), then emits 100 events, each in its own
committed transaction, and measures per event the time from the commit to the receiver's
arrival.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/domino_hooks \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/9 .venv/bin/python bench/bench_webhooks.py

Prints ``BENCH webhook_delivery_p50_ms``, ``_p95_ms`` and ``_lost`` (events that did not
arrive, arrived twice or out of order). Target: p95 <= 500 ms, 0 lost.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

EVENTS = 100
GAP_SECONDS = 0.02  # between two events' transactions
P95_LIMIT_MS = 500.0

from hall import bench, ensure_postgres_database, note, percentile  # noqa: E402 - beside this script


class Arrivals:
    """What the receiver got: arrival time per event number, and the order of sequences."""

    def __init__(self) -> None:
        self.times: dict[int, float] = {}
        self.sequences: list[int] = []
        self.duplicates = 0
        self.lock = threading.Lock()


def start_receiver(arrivals: Arrivals) -> ThreadingHTTPServer:
    """A local receiver that notes when each event arrived; answers 204."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            now = time.time()
            envelope = json.loads(body)
            with arrivals.lock:
                number = envelope["data"]["number"]
                if number in arrivals.times:
                    arrivals.duplicates += 1
                arrivals.times.setdefault(number, now)
                arrivals.sequences.append(envelope["sequence"])
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def prepare(receiver_url: str) -> tuple[int, int]:
    """Migrate; a tournament with its organizer's subscription to the local receiver."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections

    from scoring.webhooks.services import create_subscription
    from tournaments.setup.services import create_tournament

    call_command("migrate", verbosity=0, interactive=False)
    stamp = uuid.uuid4().hex[:8]
    user = get_user_model().objects.create_user(f"bench-hooks-{stamp}", password=stamp * 4)
    tournament = create_tournament(name=f"Hooks {stamp}", slug=f"hooks-{stamp}",
                                   organizer=user)
    subscription = create_subscription(tournament, url=receiver_url,
                                       events=["round.published"], actor=user)
    connections.close_all()
    return tournament.pk, subscription.pk


def start_worker(env: dict[str, str]) -> subprocess.Popen:
    """A real Celery worker on the broker (2 processes), answering a ping."""
    from config.celery import app

    app.control.purge()
    log = ROOT / "var" / "bench-webhooks-worker.log"
    log.parent.mkdir(exist_ok=True)
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency=2",
         "--loglevel=warning", "--without-gossip", "--without-mingle",
         "-n", f"bench-hooks-{uuid.uuid4().hex[:6]}@%h"],
        cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the worker exited; see {log}")
        if app.control.ping(timeout=1.0):
            return proc
    proc.terminate()
    raise RuntimeError("the Celery worker did not answer within 60 s")


def emit_events(tournament_id: int) -> dict[int, float]:
    """Emit the events, each in its own transaction; the commit time of each."""
    from django.db import transaction

    from scoring.webhooks.services import emit

    committed: dict[int, float] = {}
    for number in range(EVENTS):
        with transaction.atomic():
            transaction.on_commit(lambda n=number: committed.__setitem__(n, time.time()))
            emit(tournament_id, "round.published", lambda n=number: {"number": n})
        time.sleep(GAP_SECONDS)
    return committed


def main() -> int:
    """Prepare, start the worker, emit, wait for the receiver, report."""
    database_url = os.environ.get("DATABASE_URL", "")
    broker_url = os.environ.get("CELERY_BROKER_URL", "")
    if not database_url.startswith("postgres") or not broker_url:
        note("bench_webhooks skipped: set DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL "
             "(e.g. redis://127.0.0.1:6379/9) to run it")
        return 0
    ensure_postgres_database(database_url)
    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": "bench-" + uuid.uuid4().hex * 2,
           "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "1", "LOG_LEVEL": "WARNING",
           "CONN_MAX_AGE": "600", "SECURE_SSL_REDIRECT": "0"}
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    arrivals = Arrivals()
    server = start_receiver(arrivals)
    receiver_url = f"http://127.0.0.1:{server.server_address[1]}/domino"
    tournament_id, _subscription = prepare(receiver_url)
    worker = start_worker(env)
    try:
        note(f"worker up; {EVENTS} events, one every {GAP_SECONDS * 1000:.0f} ms")
        committed = emit_events(tournament_id)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(arrivals.times) < EVENTS:
            time.sleep(0.05)
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
        server.shutdown()
    latencies = [(arrivals.times[n] - committed[n]) * 1000
                 for n in committed if n in arrivals.times]
    in_order = arrivals.sequences == sorted(arrivals.sequences)
    lost = EVENTS - len(latencies) + arrivals.duplicates + (0 if in_order else 1)
    p95 = percentile(latencies, 0.95)
    bench("webhook_delivery_p50_ms", percentile(latencies, 0.5), "ms")
    bench("webhook_delivery_p95_ms", p95, "ms")
    bench("webhook_delivery_lost", lost, "")
    note(f"max {max(latencies, default=float('nan')):.1f} ms; in order: {in_order}")
    return 0 if lost == 0 and p95 <= P95_LIMIT_MS else 1


if __name__ == "__main__":
    sys.exit(main())
