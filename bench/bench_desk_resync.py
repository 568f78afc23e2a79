"""Benchmark of the desk's offline queue: 50 table devices reconnect together after an outage.

Prepares 50 running parties and gunicorn as ``bench_deal_entry.py`` does (PostgreSQL when
DATABASE_URL is set, else a temporary SQLite file). Each simulated device (an HTTP client,
no browser) holds the party screen of its table, logged in with a session like the browser.
During the outage it queues five actions from the screen's forms — a deal, a warning, a pause,
a resume and another deal, each with its own Idempotency-Key and the version and deal number
the screen showed — exactly what ``static/js/desk-offline.js`` keeps in IndexedDB. Then all
devices reconnect at once and replay their queues as the script does: in order, one action at
a time, ``Accept: application/json``, each sent with the version the server answered for the
previous one (``referee.offline.answer``'s ``rebase``); a tenth of the answers are "lost" and the
action is sent again with the same key. A warning that the server answers with a question (an
earlier warning of its kind, replayed first, makes it a fine) is confirmed and sent again, as
the referee does from the sync bar. Once its queue is empty a device fetches its screen's
panel after a random wait of 0.3 to 3 s, as the script does after an outage.

    .venv/bin/python bench/bench_desk_resync.py               # 3 runs, the median reported
    .venv/bin/python bench/bench_desk_resync.py --runs 1 --outage 60
    .venv/bin/python bench/bench_desk_resync.py --renice -15     # on a machine shared with others

The outage is not waited out in wall time by default (``--outage`` seconds, default 1): while
the network is down nothing reaches the server, and the queued actions carry no time, so a
60-second outage differs from a short one only in the party clocks (180 minutes here, so none
runs out). What is measured is the reconnection: the time from the moment every device is back
until every queue is empty.

Prints ``BENCH desk_resync_50x5_s`` (the median of the runs; target <= 5 s),
``BENCH desk_resync_screens_s`` (until every screen shows the server's state again),
``BENCH desk_resync_server_cpu_s`` (CPU seconds of gunicorn's workers and PostgreSQL's backends
during a run: what the reconnection costs, whatever else the machine is doing),
``BENCH desk_resync_lost`` and ``BENCH desk_resync_duplicated`` (over all runs; both 0), checked
against the database: every queued deal and warning present exactly once (by client id), one
pause and one resume per device and run in the party's event log, no action refused.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlparse

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import hall  # noqa: E402 - the shared set-up: database, parties, gunicorn
from processes import renice, server_cpu  # noqa: E402 - beside this script

HOST = hall.HOST
DEVICES = 50
ACTIONS = ("deal", "warning", "pause", "resume", "deal")
LOST_SHARE = 0.1
VERSION_RE = re.compile(r'name="version" value="(\d+)"')
NUMBER_RE = re.compile(r'name="number" value="(\d+)"')


def session_for(token: str) -> tuple[str, str]:
    """A logged-in session of the bench's referee and a CSRF secret (cookie and form token)."""
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        load_backend,
    )
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import connections
    from django.utils.crypto import get_random_string
    from rest_framework.authtoken.models import Token

    user = Token.objects.select_related("user").get(key=token).user
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    # The backend that logs a session in: the first one that can load a user (django-axes's
    # backend, listed first, only counts failed attempts).
    store[BACKEND_SESSION_KEY] = next(
        path for path in settings.AUTHENTICATION_BACKENDS if hasattr(load_backend(path), "get_user")
    )
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    connections.close_all()
    return store.session_key, get_random_string(32)


@dataclass
class Item:
    """One queued action: the page form's fields, its key, and what it should make."""

    action: str
    fields: dict[str, str]
    key: str = field(default_factory=lambda: uuid.uuid4().hex)


@dataclass
class Outcome:
    """What one device saw while replaying its queue."""

    done_at: float = 0.0
    screen_at: float = 0.0
    errors: Counter = field(default_factory=Counter)
    replays: int = 0
    retries: int = 0
    confirmed: int = 0
    latencies: dict[str, list[float]] = field(default_factory=dict)


class Device:
    """One table's phone: the party screen's forms, a queue, and the replay of desk-offline.js."""

    def __init__(self, port: int, session: str, csrf: str, party_id: int, seed: int) -> None:
        self.port = port
        self.party_id = party_id
        self.csrf = csrf
        self.cookie = f"sessionid={session}; csrftoken={csrf}"
        self.rng = random.Random(seed)
        self.queue: list[Item] = []

    def request(self, method: str, path: str, body: str = "", headers: dict | None = None
                ) -> tuple[int, bytes, dict[str, str]]:
        """One HTTP request with the device's cookies."""
        conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
        try:
            conn.request(method, path, body=body or None,
                         headers={"Cookie": self.cookie, **(headers or {})})
            response = conn.getresponse()
            return response.status, response.read(), dict(response.getheaders())
        finally:
            conn.close()

    def open_screen(self) -> tuple[int, int]:
        """Load the party screen (before the outage): the version and deal number it shows."""
        status, body, _headers = self.request("GET", f"/referee/party/{self.party_id}/")
        html = body.decode()
        if status != 200:
            raise RuntimeError(f"party screen {self.party_id}: HTTP {status}")
        return int(VERSION_RE.search(html).group(1)), int(NUMBER_RE.search(html).group(1))

    def queue_offline(self, version: int, number: int) -> None:
        """The referee's five taps during the outage, as the page's forms would send them."""
        self.queue = []
        for action in ACTIONS:
            fields = {"csrfmiddlewaretoken": self.csrf, "version": str(version)}
            if action == "deal":
                winner = self.rng.choice("ab")
                fields.update(outcome=self.rng.choice(("domino", "fish")), winner=winner,
                              points=str(self.rng.randint(1, 12)), number=str(number),
                              client_id=uuid.uuid4().hex)
                number += 1  # the screen shows the next deal once one is queued
            elif action == "warning":
                fields.update(category=self.rng.choice(("move_time", "talking", "signs")),
                              side=self.rng.choice("ab"), client_id=uuid.uuid4().hex)
            elif action == "pause":
                fields.update(reason="Wi-Fi")
            self.queue.append(Item(action, fields))

    def replay(self, started: float) -> Outcome:
        """Send the queue in order, each action on the version its predecessor produced."""
        outcome = Outcome()
        chain: dict[int, int] = {}
        numbers: dict[int, int] = {}
        for item in self.queue:
            fields = dict(item.fields)
            version = int(fields["version"])
            while version in chain:
                version = chain[version]
            if version != int(fields["version"]) and "number" in fields and version in numbers:
                fields["number"] = str(numbers[version])
            fields["version"] = str(version)
            headers = {"Accept": "application/json", "Idempotency-Key": item.key,
                       "Content-Type": "application/x-www-form-urlencoded"}
            answer = self._send(item, urlencode(fields), headers, outcome)
            if answer is None:
                return outcome
            after = answer["rebase"]
            if after["version"] != version:
                chain[version] = after["version"]
            numbers[after["version"]] = after["number"]
        outcome.done_at = time.monotonic() - started
        time.sleep(self.rng.uniform(0.3, 3.0))  # the screen refreshed a moment later
        status, _body, _headers = self.request("GET", f"/referee/party/{self.party_id}/",
                                               headers={"HX-Request": "true"})
        if status != 200:
            outcome.errors[f"panel http {status}"] += 1
        outcome.screen_at = time.monotonic() - started
        return outcome

    def _send(self, item: Item, body: str, headers: dict, outcome: Outcome) -> dict | None:
        """Send until answered (a lost answer or a busy key: again, same key); None if refused."""
        path = f"/referee/party/{self.party_id}/{item.action}/"
        lose = self.rng.random() < LOST_SHARE
        for attempt in range(20):
            sent = time.perf_counter()
            try:
                status, raw, got = self.request("POST", path, body, headers)
                kind = item.action + ("+panel" if "X-Desk-Panel" in headers else "")
                outcome.latencies.setdefault(kind, []).append(time.perf_counter() - sent)
            except (OSError, http.client.HTTPException) as exc:
                outcome.errors[type(exc).__name__] += 1
                time.sleep(0.2 * (attempt + 1))
                continue
            answer = json.loads(raw or b"{}") if raw.startswith(b"{") else {}
            if answer.get("confirm") and "confirmed=1" not in body:
                # A warning that is a fine on the server (an earlier one of its kind was
                # replayed first): the device asks, the referee confirms, the action goes again.
                outcome.confirmed += 1
                body += "&confirmed=1"
                continue
            if status >= 500 or answer.get("busy"):
                outcome.retries += 1
                time.sleep(0.05 * (attempt + 1))
                continue
            if not answer.get("ok"):
                outcome.errors[f"http {status}: {answer.get('error', raw[:80])}"] += 1
                return None
            outcome.replays += got.get("Idempotent-Replayed") == "true"
            if lose:  # the answer never arrived: the device sends the action again
                lose = False
                outcome.retries += 1
                continue
            return answer
        outcome.errors["gave up"] += 1
        return None


def run_once(
    devices: list[Device], outage: float, before: Callable[[], None] = lambda: None
) -> tuple[float, float, list[Outcome]]:
    """Every device opens its screen, queues five actions offline, then all reconnect at once."""
    for device in devices:
        device.queue_offline(*device.open_screen())
    time.sleep(outage)
    before()
    barrier = threading.Barrier(len(devices) + 1)
    outcomes: list[Outcome] = [Outcome() for _ in devices]
    started = [0.0]

    def go(index: int, device: Device) -> None:
        barrier.wait()
        outcomes[index] = device.replay(started[0])

    threads = [threading.Thread(target=go, args=(i, d), daemon=True)
               for i, d in enumerate(devices)]
    for thread in threads:
        thread.start()
    started[0] = time.monotonic()
    barrier.wait()
    for thread in threads:
        thread.join(timeout=300)
    took = max((o.done_at for o in outcomes if o.done_at), default=float("nan"))
    screens = max((o.screen_at for o in outcomes if o.screen_at), default=float("nan"))
    return took, screens, outcomes


def check(devices: list[Device], since: dict[int, int]) -> tuple[int, int]:
    """(lost, duplicated): the queued records and clock events against the database."""
    from django.db import connections

    from scoring.models import Deal, PartyEvent, Penalty

    lost = duplicated = 0
    for device in devices:
        for model, action in ((Deal, "deal"), (Penalty, "warning")):
            wanted = [i.fields["client_id"] for i in device.queue if i.action == action]
            stored = Counter(model.objects.filter(party_id=device.party_id, client_id__in=wanted)
                             .values_list("client_id", flat=True))
            lost += sum(1 for cid in wanted if stored[cid] == 0)
            duplicated += sum(n - 1 for n in stored.values() if n > 1)
        kinds = Counter(PartyEvent.objects.filter(party_id=device.party_id,
                                                  seq__gt=since[device.party_id])
                        .values_list("kind", flat=True))
        for kind in ("clock_paused", "clock_resumed"):
            lost += kinds[kind] == 0
            duplicated += max(0, kinds[kind] - 1)
    connections.close_all()
    return lost, duplicated


def event_marks(party_ids: list[int]) -> dict[int, int]:
    """The last event number of each party (what a run adds comes after it)."""
    from django.db import connections
    from django.db.models import Max

    from scoring.models import PartyEvent

    marks = dict(PartyEvent.objects.filter(party_id__in=party_ids).values("party_id")
                 .annotate(m=Max("seq")).values_list("party_id", "m"))
    connections.close_all()
    return {pk: marks.get(pk, 0) for pk in party_ids}


def main() -> int:
    """Prepare, serve, run the outages, check, report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="outages in a row (median reported)")
    parser.add_argument("--outage", type=float, default=1.0, help="seconds the queues are held")
    parser.add_argument("--quick", action="store_true", help="one run (make bench passes it on)")
    parser.add_argument("--renice", type=int, default=None,
                        help="priority of the bench's processes on a shared machine (e.g. -15)")
    args, _other = parser.parse_known_args()  # run_all.py passes every script the same options
    runs = 1 if args.quick else args.runs

    database_url = os.environ.get("DATABASE_URL", "")
    tmp = tempfile.TemporaryDirectory(prefix="bench-desk-resync-")
    if not database_url:
        database_url = f"sqlite:///{Path(tmp.name) / 'bench.sqlite3'}"
    elif database_url.startswith("postgres"):
        hall.ensure_postgres_database(database_url)
    sqlite = database_url.startswith("sqlite")
    env = hall.server_env(database_url)
    env["STATIC_ROOT"] = str(Path(tmp.name) / "static")  # the pages need the static manifest
    os.environ.update({k: v for k, v in env.items() if k != "PATH"})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    hall.note(f"database: {'SQLite (temporary file)' if sqlite else urlparse(database_url).path}")

    token, party_ids = hall.prepare(DEVICES)
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)
    session, csrf = session_for(token)
    server, port = hall.start_gunicorn(env, sqlite, Path(tmp.name))
    times: list[float] = []
    screen_times: list[float] = []
    cpu_times: list[float] = []
    lost = duplicated = errors = 0
    try:
        devices = [Device(port, session, csrf, pk, seed) for seed, pk in enumerate(party_ids)]
        for number in range(runs):
            since = event_marks(party_ids)
            app_before, db_before = server_cpu(server.pid, database_url)
            took, screens, outcomes = run_once(
                devices, args.outage,
                (lambda: renice(server.pid, database_url, args.renice, hall.note))
                if args.renice is not None else (lambda: None),
            )
            app_after, db_after = server_cpu(server.pid, database_url)
            app, db = app_after - app_before, db_after - db_before
            cpu_times.append(app + db)
            run_lost, run_dup = check(devices, since)
            run_errors = sum(sum(o.errors.values()) for o in outcomes)
            unfinished = sum(1 for o in outcomes if not o.done_at)
            lost, duplicated, errors = lost + run_lost, duplicated + run_dup, errors + run_errors
            problems = Counter()
            for o in outcomes:
                problems.update(o.errors)
            hall.note(f"run {number + 1}: {DEVICES}x{len(ACTIONS)} actions replayed in "
                      f"{took:.2f} s, screens refreshed in {screens:.2f} s; "
                      f"unfinished queues {unfinished}, resent "
                      f"{sum(o.retries for o in outcomes)}, replayed by key "
                      f"{sum(o.replays for o in outcomes)}, confirmed "
                      f"{sum(o.confirmed for o in outcomes)}, lost {run_lost}, "
                      f"duplicated {run_dup}; errors: {dict(problems) or 0}")
            times.append(took if not unfinished else float("inf"))
            screen_times.append(screens if not unfinished else float("inf"))
            by_kind: dict[str, list[float]] = {}
            for o in outcomes:
                for kind, values in o.latencies.items():
                    by_kind.setdefault(kind, []).extend(values)
            hall.note(f"  server CPU during the run (screens included): gunicorn {app:.2f} s, "
                      f"PostgreSQL {db:.2f} s; load average {os.getloadavg()[0]:.1f}")
            hall.note("  latency ms (p50/p95): " + ", ".join(
                f"{kind} {hall.percentile(v, .5) * 1000:.0f}/{hall.percentile(v, .95) * 1000:.0f}"
                for kind, v in sorted(by_kind.items())))
        hall.bench("desk_resync_50x5_s", float(statistics.median(times)), "s")
        hall.bench("desk_resync_screens_s", float(statistics.median(screen_times)), "s")
        hall.bench("desk_resync_server_cpu_s", float(statistics.median(cpu_times)), "s")
        hall.bench("desk_resync_lost", lost, "")
        hall.bench("desk_resync_duplicated", duplicated, "")
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except Exception:  # noqa: BLE001 - a stuck server is killed
            server.kill()
        tmp.cleanup()
    return 0 if lost == 0 and duplicated == 0 and errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
