"""Benchmark of a webhook receiver's outage in the default `make run` setup (no broker).

As `make run` does: a fresh SQLite file, `migrate`, `seed_demo --fresh` (skipped with
`--quick`), then `manage.py runserver --noreload` with no broker (Celery eager; the web
process's sender thread sends the outbox). A local receiver (127.0.0.1; loopback allowed for the
run) is down — its port bound, nobody listening, every connection refused — for `--outage`
seconds (60) from the moment the round is published. Meanwhile, through the API as the demo's
organizer, a client runs two rounds of a new tournament: publish, start, deals to the end of
every party, close (round.published, party.finished, round.closed, standings.changed). Then the
receiver comes back, and the bench waits until every delivery has arrived.

    .venv/bin/python bench/bench_webhook_outage.py [--outage 60] [--quick] [--retry-base S]

Prints ``BENCH webhook_outage_publish_ms`` (the publish's answer while the receiver is down),
``_request_max_ms`` (the slowest API answer during the outage), ``_events`` (deliveries
written), ``_delivered_once`` (distinct deliveries received), ``_duplicates``,
``_out_of_order``, ``_first_after_back_s`` (the receiver back → its first delivery: the retry
that was due) and ``_caught_up_s`` (back → the last delivery). Target: publish < 1000 ms, every
delivery once and in order. Exit status 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hall import bench, free_port, note  # noqa: E402 - beside this script

PUBLISH_LIMIT_MS = 1000.0
ORGANIZER, PASSWORD = "organizer", "demo"  # the demo's organizer (seed_demo)


class Arrivals:
    """What the receiver got: (delivery id, sequence, arrival time), in arrival order."""

    def __init__(self) -> None:
        self.got: list[tuple[int, int, float]] = []
        self.lock = threading.Lock()


def receiver_down(arrivals: Arrivals) -> ThreadingHTTPServer:
    """A receiver whose port is bound but not listening yet (connections refused)."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            envelope = json.loads(body)
            with arrivals.lock:
                arrivals.got.append((envelope["delivery"], envelope["sequence"], time.time()))
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler, bind_and_activate=False)
    server.server_bind()
    return server


def receiver_back(server: ThreadingHTTPServer) -> None:
    """The receiver listens and answers 204 from now on."""
    server.server_activate()
    threading.Thread(target=server.serve_forever, daemon=True).start()


class Client:
    """The API as an outside client calls it, with the time of every answer."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.token = ""
        self.timings: list[tuple[str, float]] = []

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """Call /api/v1/<path>; an error answer stops the bench."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.base}/api/v1/{path}", data=data,
                                         method=method)
        request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        started = time.perf_counter()
        with urllib.request.urlopen(request, timeout=60) as response:
            raw = response.read()
        self.timings.append((f"{method} {path}", (time.perf_counter() - started) * 1000))
        return json.loads(raw) if raw else None


def serve(env: dict[str, str], quick: bool) -> tuple[subprocess.Popen, str]:
    """`make run`'s steps on the bench's database; the server's address once it answers."""
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    if quick:  # the demo's organizer only
        script = ("from django.contrib.auth.models import Permission, User; "
                  f"u = User.objects.create_user({ORGANIZER!r}, password={PASSWORD!r}); "
                  "u.user_permissions.add(Permission.objects.get(codename='add_tournament'))")
        subprocess.run([*manage, "shell", "-c", script], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)
    else:
        subprocess.run([*manage, "seed_demo", "--fresh"], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)
    port = free_port()
    proc = subprocess.Popen([*manage, "runserver", "--noreload", f"127.0.0.1:{port}"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{base}/api/v1/", timeout=2).read()
            return proc, base
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("runserver exited") from None
            time.sleep(0.2)
    proc.terminate()
    raise RuntimeError("runserver did not answer within 60 s")


def play_round(api: Client, tournament: int, first: bool) -> float:
    """Create, draw, publish, start, play to the end and close a round; the publish's ms."""
    rnd = api.call("POST", "rounds/", {"tournament": tournament})
    api.call("POST", f"rounds/{rnd['id']}/generate/", {})
    api.call("POST", f"rounds/{rnd['id']}/publish/")
    publish_ms = api.timings[-1][1]
    if first:
        note(f"round published in {publish_ms:.0f} ms with the receiver down")
    api.call("POST", f"rounds/{rnd['id']}/start/")
    for party in api.call("GET", f"parties/?round={rnd['id']}")["results"]:
        state, number = party, 0
        while state["status"] != "finished":
            number += 1
            state = api.call("POST", f"parties/{party['id']}/deal/", {
                "outcome": "domino", "seat": "a1", "number": number,
                "pips": {"a1": 0, "a2": 10, "b1": 25, "b2": 25},
                "version": state["version"]})["party"]
    api.call("POST", f"rounds/{rnd['id']}/close/")
    return publish_ms


def main() -> int:
    """Serve as `make run`, break the receiver, run two rounds, bring it back, report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--outage", type=float, default=60.0, help="seconds the receiver is down")
    parser.add_argument("--quick", action="store_true", help="no demo data (seed_demo)")
    parser.add_argument("--retry-base", type=float, default=None,
                        help="WEBHOOK_RETRY_BASE_SECONDS of the server (default: its own, 1 s)")
    options, _rest = parser.parse_known_args()
    work = ROOT / "var" / "bench-webhook-outage"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    env = {name: value for name, value in os.environ.items()
           if name not in ("CELERY_BROKER_URL", "REDIS_URL", "CELERY_RESULT_BACKEND")}
    env.update(DATABASE_URL=f"sqlite:///{work / 'db.sqlite3'}", MEDIA_ROOT=str(work / "media"),
               PROTOCOL_SIGNING_DIR=str(work / "signing"), WEBHOOK_ALLOW_PRIVATE_NETWORKS="1",
               LOG_LEVEL="ERROR")
    if options.retry_base is not None:
        env["WEBHOOK_RETRY_BASE_SECONDS"] = str(options.retry_base)
    arrivals = Arrivals()
    receiver = receiver_down(arrivals)
    receiver_url = f"http://127.0.0.1:{receiver.server_address[1]}/domino"
    note("migrate" + ("" if options.quick else ", seed_demo") + ", runserver (no broker)")
    server, base = serve(env, options.quick)
    back_at = 0.0
    try:
        api = Client(base)
        api.token = api.call("POST", "auth/token/",
                             {"username": ORGANIZER, "password": PASSWORD})["token"]
        cup = api.call("POST", "tournaments/", {"name": "Outage Cup", "rule_set": "sport",
                                                "format": "pairs"})
        api.call("PATCH", f"tournaments/{cup['id']}/regulations/", {"target": 100})
        players = [api.call("POST", "players/", {"tournament": cup["id"], "name": f"P{n}"})["id"]
                   for n in range(8)]
        for k in range(0, 8, 2):
            api.call("POST", "pairs/", {"tournament": cup["id"], "player1": players[k],
                                        "player2": players[k + 1]})
        for number in (1, 2):
            api.call("POST", "tables/", {"tournament": cup["id"], "number": number})
        webhook = api.call("POST", "webhooks/", {
            "tournament": cup["id"], "url": receiver_url,
            "events": ["party.finished", "round.published", "round.closed",
                       "standings.changed"]})
        during = len(api.timings)
        down_at = time.time()
        publish_ms = [play_round(api, cup["id"], first) for first in (True, False)]
        request_max = max(ms for _name, ms in api.timings[during:])
        note(f"{len(api.timings) - during} API calls while the receiver was down, slowest "
             f"{request_max:.0f} ms; waiting for the end of the {options.outage:.0f} s outage")
        time.sleep(max(0.0, down_at + options.outage - time.time()))
        back_at = time.time()
        receiver_back(receiver)
        deliveries = api.call("GET", f"webhook-deliveries/?subscription={webhook['id']}")
        events = deliveries["count"]
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            with arrivals.lock:
                if len({d for d, _s, _t in arrivals.got}) >= events:
                    break
            time.sleep(0.1)
        time.sleep(1.0)  # anything sent twice comes now
        states = {d["status"] for d in api.call(
            "GET", f"webhook-deliveries/?subscription={webhook['id']}")["results"]}
    finally:
        server.terminate()
        server.wait(timeout=20)
        if back_at:
            receiver.shutdown()
        receiver.server_close()
    got = list(arrivals.got)
    ids = [d for d, _s, _t in got]
    sequences = [s for _d, s, _t in got]
    duplicates = len(ids) - len(set(ids))
    out_of_order = sum(1 for a, b in zip(sequences, sequences[1:], strict=False) if b <= a)
    bench("webhook_outage_publish_ms", max(publish_ms), "ms")
    bench("webhook_outage_request_max_ms", request_max, "ms")
    bench("webhook_outage_events", events, "")
    bench("webhook_outage_delivered_once", len(set(ids)), "")
    bench("webhook_outage_duplicates", duplicates, "")
    bench("webhook_outage_out_of_order", out_of_order, "")
    if got:
        bench("webhook_outage_first_after_back_s", got[0][2] - back_at, "s")
        bench("webhook_outage_caught_up_s", got[-1][2] - back_at, "s")
    note(f"outage {options.outage:.0f} s; deliveries now {sorted(states)}; sequences {sequences}")
    ok = (max(publish_ms) < PUBLISH_LIMIT_MS and len(set(ids)) == events and not duplicates
          and not out_of_order and states == {"delivered"} and all(t >= back_at for *_x, t in got))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
