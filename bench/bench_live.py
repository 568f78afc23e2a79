"""Benchmark of the live updates: 10,000 streams on one ASGI node, an event's fan-out, the fallback.

Prepares a tournament with running parties (a temporary SQLite file, or DATABASE_URL's
PostgreSQL), starts one uvicorn process (one ASGI node, as ``make run`` serves; in-memory
fan-out) and a load generator in a process of its own (``live_clients.py``: asyncio, loopback,
bounded in count and time) holding 10,000 streams of the tournament's channel. Then:

- ``live_connections_10000_rss_mb``: the node's resident memory holding them (target <= 1024);
- ``live_fanout_10000_p95_ms``: a deal recorded through the API (its POST sent) -> 95 % of the
  streams have the event (target <= 1000); three deals, 2 s apart, all their arrivals counted;
- ``live_fanout_10000_node_cpu_s``: the node's CPU seconds for one such fan-out (median);
- ``live_fallback_ok``: Chromium opens the public standings through a proxy that buffers each
  whole response (the stream never comes through); 1 when the page polls its fragment instead,
  shows a deal recorded meanwhile, and never believed its stream open.

    .venv/bin/python bench/bench_live.py              # 10,000 streams
    .venv/bin/python bench/bench_live.py --quick      # 1,000 streams (a smoke test)
    .venv/bin/python bench/bench_live.py --renice -15  # the fan-out on a machine shared with others

The file-descriptor limit is raised to the hard limit in both processes (``ulimit -n``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hall import (  # noqa: E402 - beside this script
    HOST,
    bench,
    free_port,
    note,
    percentile,
    prepare,
    server_env,
    stop,
)
from live_proxy import BufferingProxy  # noqa: E402 - beside this script
from processes import _cpu_of  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


def rss_mb(pid: int) -> float:
    """A process's resident memory in MB (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def start_uvicorn(env: dict[str, str], port: int) -> subprocess.Popen:
    """One uvicorn process serving the site (uvloop, httptools), once it answers."""
    uvicorn = Path(sys.executable).with_name("uvicorn")
    proc = subprocess.Popen(
        [str(uvicorn), "config.asgi:application", "--host", HOST, "--port", str(port),
         "--lifespan", "off", "--no-access-log", "--log-level", "warning",
         "--backlog", "4096", "--loop", "uvloop", "--http", "httptools"],
        cwd=ROOT, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("uvicorn exited")
        try:
            urllib.request.urlopen(f"http://{HOST}:{port}/healthz/live", timeout=2)
            return proc
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise RuntimeError("uvicorn did not answer within 60 s")


def record_deal(port: int, token: str, party_id: int) -> float:
    """Record a deal through the API; the wall-clock time its request was sent."""
    body = json.dumps({"outcome": "domino", "side": "a", "points": {"a": 5, "b": 0}}).encode()
    request = urllib.request.Request(
        f"http://{HOST}:{port}/api/v1/parties/{party_id}/deal/", data=body, method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json",
                 "Idempotency-Key": str(uuid.uuid4())})
    sent = time.time()
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 201, response.status
    return sent


def party_token(party_id: int) -> str:
    """The token the party's last change was sent with (``scoring.live``)."""
    from scoring.models import Party

    return f"p{party_id}.{Party.objects.get(pk=party_id).version}"


def streams_and_fanout(port: int, pid: int, slug_id: int, token: str, party_id: int,
                       count: int, niceness: int | None) -> None:
    """Hold ``count`` streams, measure the node's memory, then three deals' fan-out (with
    ``niceness``, the node and the load generator get that priority for the fan-out only)."""
    path = f"/live/?channel=tournament-{slug_id}"
    seconds = 300.0 if count > 2000 else 90.0
    before = rss_mb(pid)
    clients = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("live_clients.py")), str(port), path,
         str(count), str(seconds)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    started = time.monotonic()
    ready = clients.stdout.readline().split()
    opened, failed = int(ready[1]), int(ready[2])
    note(f"{opened} streams open, {failed} failed, in {time.monotonic() - started:.1f} s; "
         f"node RSS before {before:.0f} MB")
    time.sleep(2)  # settled
    bench(f"live_connections_{count}_rss_mb", rss_mb(pid), "MB")
    if niceness is not None:
        for process in (pid, clients.pid, os.getpid()):
            os.setpriority(os.PRIO_PROCESS, process, niceness)
        note(f"the fan-out at priority {niceness} (a measuring aid on a shared machine)")
    sent, spent = {}, []
    for _ in range(3):
        cpu = _cpu_of(pid), _cpu_of(clients.pid)
        at = record_deal(port, token, party_id)
        sent[party_token(party_id)] = at
        time.sleep(2.0)
        spent.append(_cpu_of(pid) - cpu[0])
        note(f"CPU seconds of the fan-out: node {_cpu_of(pid) - cpu[0]:.2f}, load generator "
             f"{_cpu_of(clients.pid) - cpu[1]:.2f}; load average {os.getloadavg()[0]:.1f}")
    if niceness is not None:
        for process in (pid, os.getpid()):
            os.setpriority(os.PRIO_PROCESS, process, 0)
    clients.stdin.close()
    result = json.loads(clients.stdout.readline())
    clients.wait(timeout=60)
    delays = []
    for event_token, at in sent.items():
        arrivals = result["arrivals"].get(event_token, [])
        note(f"{event_token}: {len(arrivals)} of {opened} streams had it")
        delays += [(t - at) * 1000 for t in arrivals]
        delays += [float("inf")] * (opened - len(arrivals))  # a stream that missed it
    p95 = percentile(delays, 0.95) if delays else float("inf")
    if delays:
        note(f"arrivals after the deal's POST: first {min(delays):.0f} ms, median "
             f"{percentile(delays, 0.5):.0f} ms, p95 {p95:.0f} ms")
    bench(f"live_fanout_{count}_p95_ms", p95 if p95 != float("inf") else -1, "ms")
    # the node's own work for one event to every stream (median of three): what a quiet
    # machine's fan-out takes at most, where the p95 above also waits for a busy machine's CPU
    bench(f"live_fanout_{count}_node_cpu_s", round(sorted(spent)[1], 2), "s")


def fallback(port: int, slug: str, token: str, party_id: int) -> bool:
    """The draw (table map) behind a buffering proxy: the page polls and shows a deal."""
    from playwright.sync_api import sync_playwright

    proxy = BufferingProxy(HOST, port)
    proxy_port = proxy.start()
    base = f"http://{HOST}:{proxy_port}"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--no-first-run"])
            page = browser.new_page()
            polls, streams = [], []
            page.on("request", lambda r: streams.append(r) if r.url.startswith(f"{base}/live/")
                    else polls.append(r) if r.headers.get("hx-request") else None)
            page.goto(f"{base}/t/{slug}/draw/")
            score = page.locator(f"#live-{party_id} .tcard-score")
            before = score.inner_text()
            record_deal(port, token, party_id)  # straight to the node: the page is not told
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and score.inner_text() == before:
                page.wait_for_timeout(500)
            changed = score.inner_text() != before
            never_open = page.evaluate("window.liveUpdates ? window.liveUpdates.opened : -1")
            note(f"fallback: {len(streams)} stream request(s) held by the proxy, {len(polls)} "
                 f"poll(s) of the fragment, times the stream opened: {never_open}, the table's "
                 f"score {before!r} -> {score.inner_text()!r}")
            browser.close()
    finally:
        proxy.stop()
    return bool(streams) and bool(polls) and never_open == 0 and changed


def main() -> int:
    """Prepare, serve, hold the streams, record, measure; then the fallback."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 streams")
    parser.add_argument("--streams", type=int, default=None)
    parser.add_argument("--renice", type=int, default=None,
                        help="priority of the node and the load generator during the fan-out "
                             "(e.g. -15 on a shared machine; needs root)")
    args = parser.parse_args()
    count = args.streams or (1000 if args.quick else 10_000)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # `ulimit -n` for the node too
    if hard < count + 1000:
        note(f"the file-descriptor limit {hard} is below {count} streams")

    database_url = os.environ.get("DATABASE_URL", "")
    tmp = tempfile.TemporaryDirectory(prefix="bench-live-")
    if not database_url:
        database_url = f"sqlite:///{Path(tmp.name) / 'bench.sqlite3'}"
    env = {**server_env(database_url), "STATIC_ROOT": str(Path(tmp.name) / "static"),
           "API_THROTTLE_ANON_RATE": "", "PUBLIC_ETAG_VERSION_SECONDS": "1"}
    os.environ.update({k: v for k, v in env.items() if k != "PATH"})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    token, party_ids = prepare(4)
    from django.core.management import call_command

    from scoring.models import Party

    call_command("collectstatic", interactive=False, verbosity=0)
    tournament = Party.objects.select_related("round__tournament").get(
        pk=party_ids[0]).round.tournament
    port = free_port()
    server = start_uvicorn(env, port)
    try:
        note(f"one uvicorn process (pid {server.pid}), load average "
             f"{os.getloadavg()[0]:.1f}")
        streams_and_fanout(port, server.pid, tournament.pk, token, party_ids[0], count,
                           args.renice)
        ok = fallback(port, tournament.slug, token, party_ids[1])
        bench("live_fallback_ok", int(ok), "bool")
    finally:
        stop(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
