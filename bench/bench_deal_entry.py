"""Benchmark of the referee desk under a busy hall: 500 table devices against gunicorn.

Prepares a tournament with 500 running parties (``--tables``; 50 was the bench before issue
#38; PostgreSQL when DATABASE_URL is set, else a temporary SQLite file), starts gunicorn on
127.0.0.1 and runs one simulated device per party, the hall's pace being 50 actions a second
over all of them (``--pace``): a deal, a warning or a clock pause/resume through the API, a
tenth of them retried with the same Idempotency-Key, for 60 seconds. Then it checks the
database — every accepted deal and penalty present exactly once — and raises the pace step by
step to find the highest rate it sustains with p95 under 100 ms. All of it twice, one server
after the other on the same parties (``--workers both``): gunicorn with uvicorn workers serving
``config.asgi`` as the README deploys a web node (figures ``deal_entry_*``), then with sync
workers serving ``config.wsgi`` (``deal_entry_sync_*``).

    .venv/bin/python bench/bench_deal_entry.py            # 500 tables, ASGI then sync
    .venv/bin/python bench/bench_deal_entry.py --tables 50 --workers sync   # the old bench
    .venv/bin/python bench/bench_deal_entry.py --quick    # 10 s and a short ramp (a smoke test)

Prints ``BENCH deal_entry_p50_ms``, ``_p95_ms``, ``_errors``, ``_lost`` and ``_max_rps``, and
``deal_entry_sql_statements``: the SQL statements of one deal through the API (target <= 12),
and ``deal_entry_page_sql_statements``: every statement of one deal entered on the referee's
desk page (its htmx answer, the panel drawn again; the session's two reads, BEGIN and COMMIT
included: 16; main spent 23).
Targets on a 2-core machine (issue #38): p95 <= 30 ms at the hall's pace, 0 errors, 0 lost,
and at least 150 requests/s with p95 under 100 ms.

The server is set up as a production deployment on 2 cores would be: gunicorn with one worker
per core, the app preloaded in the master with its URLconf imported and the loaded
objects frozen for the garbage collector before the workers fork (``GUNICORN_CONFIG``: no
worker spends its first second importing every view while the devices wait, and no full
collection stops a worker for 100 ms); ``DEBUG=0``, persistent database connections, and
PostgreSQL's prepared statements (``config.settings``, ``DB_PREPARED_STATEMENTS``). The bench
itself (one client thread per device) runs on the same machine: about 0.35 ms of CPU per
request, against 4-5 ms of the server's worker and 1 ms of PostgreSQL (measured for #38).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hall import (  # noqa: E402 - beside this script
    HOST,
    bench,
    ensure_postgres_database,
    note,
    percentile,
    prepare,
    server_env,
    start_gunicorn,
    stop,
)

TABLES = 500
"""The issue's hall (#38): 500 tables, one device each."""
PACE = 50.0
"""The hall's requests per second over all its devices (50 devices at one a second each)."""
RETRY_SHARE = 0.1
P95_LIMIT_MS = 100.0


def count_statements(token: str, party_id: int) -> int:
    """SQL statements of one deal entered through the API as a device sends it (its token, an
    Idempotency-Key, a client id), in this process on the bench's database; the transaction's
    BEGIN, COMMIT and savepoints are not counted. The second deal is counted (warm caches)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    device = APIClient(HTTP_HOST="127.0.0.1")
    device.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    url = f"/api/v1/parties/{party_id}/deal/"
    control = ("SAVEPOINT", "RELEASE SAVEPOINT", "BEGIN", "COMMIT")
    counted = 0
    for _ in range(2):
        body = {"outcome": "domino", "side": "a", "points": {"a": 5, "b": 0},
                "client_id": uuid.uuid4().hex}
        with CaptureQueriesContext(connection) as queries:
            response = device.post(url, body, format="json",
                                   HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
        assert response.status_code == 201, response.content
        counted = sum(not q["sql"].startswith(control) for q in queries.captured_queries)
    connection.close()
    return counted


def count_page_statements(token: str, party_id: int) -> int:
    """SQL statements of one deal entered on the referee's desk page (its htmx form post, a
    logged-in referee): every statement of the request, its session and user reads and the
    transaction's BEGIN and COMMIT included (the desk's own, as the API figure counts them,
    are four fewer: the session's reads, BEGIN, COMMIT). The second deal is counted, as above."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from rest_framework.authtoken.models import Token

    desk = Client(HTTP_HOST="127.0.0.1")
    desk.force_login(Token.objects.get(key=token).user)
    url = f"/referee/party/{party_id}/deal/"
    counted = 0
    for _ in range(2):
        body = {"outcome": "domino", "winner": "a", "points": "5", "client_id": uuid.uuid4().hex}
        with CaptureQueriesContext(connection) as queries:
            response = desk.post(url, body, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.status_code
        counted = len(queries.captured_queries)
    connection.close()
    return counted


# -- the devices ------------------------------------------------------------------------------


@dataclass
class Tally:
    """What the devices saw: latencies, errors and the records the server accepted."""

    latencies: list[float] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    deals: dict[int, set[str]] = field(default_factory=dict)
    penalties: dict[int, set[str]] = field(default_factory=dict)
    replays: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class Device:
    """One table's tablet: it owns one party and knows whether its clock is paused."""

    def __init__(self, port: int, token: str, party_id: int, seed: int) -> None:
        self.port = port
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.party_id = party_id
        self.rng = random.Random(seed)
        self.paused = False

    def post(self, action: str, body: dict, key: str) -> tuple[int, dict, float, bool]:
        """Send one request; return status, body, milliseconds and whether it was a replay."""
        conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
        started = time.perf_counter()
        try:
            conn.request("POST", f"/api/v1/parties/{self.party_id}/{action}/",
                         body=json.dumps(body), headers={**self.headers, "Idempotency-Key": key})
            response = conn.getresponse()
            payload = response.read()
            elapsed = (time.perf_counter() - started) * 1000
            replayed = response.getheader("Idempotent-Replayed") == "true"
            return response.status, json.loads(payload or b"{}"), elapsed, replayed
        finally:
            conn.close()

    def next_action(self) -> tuple[str, dict, str]:
        """A deal (6 in 10), a warning (3 in 10) or a clock action (1 in 10)."""
        roll = self.rng.random()
        client_id = uuid.uuid4().hex
        if roll < 0.6:
            winner = self.rng.choice("ab")
            points = {"a": 0, "b": 0}
            points[winner] = self.rng.randint(1, 12)
            outcome = self.rng.choice(("domino", "fish"))
            return "deal", {"outcome": outcome, "side": winner, "points": points,
                            "client_id": client_id}, "deal"
        if roll < 0.9:
            body = {"side": self.rng.choice("ab"), "client_id": client_id,
                    "category": self.rng.choice(("move_time", "talking", "signs", "conduct"))}
            return "warning", body, "penalty"
        self.paused = not self.paused
        if self.paused:
            return "pause", {"reason": "bench"}, "clock"
        return "resume", {}, "clock"

    def act(self, tally: Tally) -> None:
        """One action, retried with the same key a tenth of the time."""
        action, body, kind = self.next_action()
        key = str(uuid.uuid4())
        sends = 2 if self.rng.random() < RETRY_SHARE else 1
        first = None
        for _ in range(sends):
            try:
                status, answer, ms, replayed = self.post(action, body, key)
            except (OSError, ValueError, http.client.HTTPException) as exc:
                with tally.lock:
                    tally.errors[type(exc).__name__] += 1
                if kind == "clock" and first is None:
                    self.paused = not self.paused  # unanswered: the clock's state unknown
                continue
            with tally.lock:
                tally.latencies.append(ms)
                tally.replays += replayed
                if status >= 400:
                    tally.errors[f"http {status}"] += 1
                    continue
                record = (answer.get("record") or {}).get("id")
                if first is not None and record != first:
                    tally.errors["retry answered differently"] += 1
                first = record
                if kind == "deal":
                    tally.deals.setdefault(self.party_id, set()).add(body["client_id"])
                elif kind == "penalty":
                    tally.penalties.setdefault(self.party_id, set()).add(body["client_id"])


def run_devices(devices: list[Device], rate: float, seconds: float) -> tuple[Tally, float]:
    """Every device acts ``rate`` times a second (from a random phase) for ``seconds``."""
    tally = Tally()
    interval = 1.0 / rate
    start = time.monotonic() + 0.5
    end = start + seconds

    def loop(device: Device) -> None:
        due = start + device.rng.random() * interval
        while due < end:
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            device.act(tally)
            due += interval * device.rng.uniform(0.8, 1.2)

    threads = [threading.Thread(target=loop, args=(d,), daemon=True) for d in devices]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 120)
    return tally, time.monotonic() - start


def count_lost(tally: Tally) -> int:
    """Accepted records missing from the database, plus records stored more than once."""
    from django.db import connections

    from scoring.models import Deal, Penalty

    lost = 0
    for model, accepted in ((Deal, tally.deals), (Penalty, tally.penalties)):
        for party_id, client_ids in accepted.items():
            stored = Counter(
                model.objects.filter(party_id=party_id)
                .exclude(client_id="")
                .values_list("client_id", flat=True)
            )
            lost += sum(1 for cid in client_ids if stored[cid] != 1)
            lost += sum(n - 1 for n in stored.values() if n > 1)
    connections.close_all()
    return lost


def serial_deals(device: Device, count: int, suffix: str) -> None:
    """``count`` deals of one device one after another (no load): their median time, and on
    PostgreSQL the database sessions the server opened meanwhile (a kept connection: none)."""
    from django.db import connection

    def sessions() -> int:
        if connection.vendor != "postgresql":
            return 0
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_force_next_flush()")
            cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = "
                           "current_database()")
            return int(cursor.fetchone()[0])

    before = sessions()
    tally = Tally()
    for _ in range(count):
        body = {"outcome": "domino", "side": "a", "points": {"a": 1, "b": 0},
                "client_id": uuid.uuid4().hex}
        status, _answer, ms, _replayed = device.post("deal", body, str(uuid.uuid4()))
        tally.latencies.append(ms)
        if status >= 400:
            tally.errors[f"http {status}"] += 1
    time.sleep(1.0)  # the server's sessions report their start within a second
    opened = sessions() - before - 1  # this process's own session is not the server's
    connection.close()
    bench(f"deal_entry{suffix}_serial_p50_ms", percentile(tally.latencies, 0.5), "ms")
    if connection.vendor == "postgresql":
        bench(f"deal_entry{suffix}_db_sessions_per_{count}_deals", max(opened, 0), "")
    if tally.errors:
        note(f"serial deals: errors {dict(tally.errors)}")


def measure(devices: list[Device], port: int, pace: float, quick: bool, seconds: float,
            suffix: str) -> tuple[int, int]:
    """The hall's pace (``pace`` requests a second over every device) for ``seconds``, then a
    ramp; print the figures (``suffix`` after ``deal_entry``); return errors and lost."""
    for device in devices:
        device.port = port
    per_device = pace / len(devices)
    step_seconds = 5.0 if quick else 12.0
    # Requests per second of the whole hall: up from its pace while p95 holds, else down.
    ups = (2.0, 3.0) if quick else (1.5, 2.0, 3.0, 4.0, 6.0)
    downs = (0.5,) if quick else (0.75, 0.5, 0.25)
    note(f"{len(devices)} devices, {pace:.0f} actions/s in all, for {seconds:.0f} s; "
         f"load average before: {os.getloadavg()[0]:.1f}")
    tally, took = run_devices(devices, per_device, seconds)
    p50 = percentile(tally.latencies, 0.5)
    p95 = percentile(tally.latencies, 0.95)
    errors = sum(tally.errors.values())
    lost = count_lost(tally)
    note(f"{len(tally.latencies)} requests in {took:.0f} s "
         f"({len(tally.latencies) / took:.1f}/s), {tally.replays} replayed; "
         f"errors: {dict(tally.errors) or 0}")
    bench(f"deal_entry{suffix}_p50_ms", p50, "ms")
    bench(f"deal_entry{suffix}_p95_ms", p95, "ms")
    bench(f"deal_entry{suffix}_errors", errors, "")
    bench(f"deal_entry{suffix}_lost", lost, "")

    best = len(tally.latencies) / took if p95 <= P95_LIMIT_MS and not errors else 0.0
    steps = ups if best else downs
    for factor in steps:
        step, took = run_devices(devices, per_device * factor, step_seconds)
        achieved = len(step.latencies) / took
        step_p95 = percentile(step.latencies, 0.95)
        ok = step_p95 <= P95_LIMIT_MS and not step.errors
        note(f"ramp: {pace * factor:.0f} req/s asked, {achieved:.0f}/s done, "
             f"p95 {step_p95:.1f} ms, errors {sum(step.errors.values())}")
        if ok:
            best = max(best, achieved)
        if ok != bool(steps is ups):
            break
    bench(f"deal_entry{suffix}_max_rps", round(best), "req/s")
    note(f"load average after: {os.getloadavg()[0]:.1f} (other work on the machine skews it)")
    return errors, lost


def main() -> int:
    """Prepare, serve (each worker class in turn), load, check, ramp up, report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 s and a short ramp")
    parser.add_argument("--seconds", type=float, default=None, help="length of the main run")
    parser.add_argument("--tables", type=int, default=TABLES,
                        help=f"table devices, one party each (default {TABLES}; 50: the "
                             "bench before issue #38)")
    parser.add_argument("--pace", type=float, default=PACE,
                        help=f"the hall's requests a second, all devices (default {PACE:.0f})")
    parser.add_argument("--workers", choices=("both", "asgi", "sync"), default="both",
                        help="gunicorn's workers: the README's ASGI ones (figures deal_entry_*), "
                             "sync ones (deal_entry_sync_*), or both in turn (default)")
    args = parser.parse_args()
    seconds = args.seconds or (10.0 if args.quick else 60.0)

    database_url = os.environ.get("DATABASE_URL", "")
    tmp = tempfile.TemporaryDirectory(prefix="bench-deal-entry-")  # gunicorn's config, SQLite
    if not database_url:
        database_url = f"sqlite:///{Path(tmp.name) / 'bench.sqlite3'}"
    elif database_url.startswith("postgres"):
        ensure_postgres_database(database_url)
    sqlite = database_url.startswith("sqlite")
    env = server_env(database_url)
    os.environ.update({k: v for k, v in env.items() if k != "PATH"})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    note(f"database: {'SQLite (temporary file)' if sqlite else urlparse(database_url).path}")

    token, party_ids = prepare(args.tables + 2)  # the last two for the statement counts
    bench("deal_entry_sql_statements", count_statements(token, party_ids.pop()), "")
    bench("deal_entry_page_sql_statements", count_page_statements(token, party_ids.pop()), "")
    devices = [Device(0, token, party_id, seed) for seed, party_id in enumerate(party_ids)]
    kinds = ("asgi", "sync") if args.workers == "both" else (args.workers,)
    failed = 0
    for kind in kinds:
        note(f"gunicorn with {kind} workers")
        server, port = start_gunicorn(env, sqlite, Path(tmp.name), kind)
        devices[0].port = port
        try:
            suffix = "" if kind == "asgi" else f"_{kind}"
            serial_deals(devices[0], 100, suffix)
            errors, lost = measure(devices, port, args.pace, args.quick, seconds, suffix)
            failed += errors + lost
        finally:
            stop(server)
    tmp.cleanup()
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
