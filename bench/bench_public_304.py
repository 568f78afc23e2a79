"""Benchmark of a hall full of phones polling the public standings: conditional GETs.

Seeds a pairs tournament of 5,000 pairs in bulk (``bench_pages.build``: two finished Swiss
rounds and one in play), starts gunicorn as ``bench_deal_entry`` does (one sync worker per
core, the app preloaded), fetches the standings page once for its ``ETag``, then has
``CLIENTS`` threads poll it with ``If-None-Match`` for a bounded time and count, and prints:

    BENCH public_standings_304_rps <304 answers per second>

with the first (cold) page's time and the 304s' p95 as ``#`` lines. Every answer must be 304.
PostgreSQL when DATABASE_URL is set (its bench data deleted at the end), otherwise SQLite:

    .venv/bin/python bench/bench_public_304.py
    .venv/bin/python bench/bench_public_304.py --quick    # 500 pairs, 3 s

Target on a 2-core machine: at least 500 conditional GETs a second.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_draws_db as db_bench  # noqa: E402
import bench_pages as pages  # noqa: E402
import hall as server  # noqa: E402 - the bench folder is on the path now

CLIENTS = 8
PROCESSES = 2
MAX_REQUESTS = 30000


def get(port: int, path: str, etag: str = "") -> tuple[int, str, float]:
    """One GET: status, ETag, milliseconds."""
    conn = http.client.HTTPConnection(server.HOST, port, timeout=60)
    started = time.perf_counter()
    try:
        conn.request("GET", path, headers={"If-None-Match": etag} if etag else {})
        response = conn.getresponse()
        response.read()
        return response.status, response.getheader("ETag") or "", \
            (time.perf_counter() - started) * 1000
    finally:
        conn.close()


def _client_process(port: int, path: str, etag: str, seconds: float, threads: int,
                    out: Any) -> None:
    """One client process: ``threads`` threads polling; sends its latencies and misses."""
    latencies: list[float] = []
    wrong = [0]
    lock = threading.Lock()
    deadline = time.monotonic() + seconds
    most = MAX_REQUESTS // PROCESSES

    def client() -> None:
        while time.monotonic() < deadline and len(latencies) < most:
            status, _etag, ms = get(port, path, etag)
            with lock:
                latencies.append(ms)
                wrong[0] += status != 304

    running = [threading.Thread(target=client) for _ in range(threads)]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join()
    out.put((latencies, wrong[0]))


def poll(port: int, path: str, etag: str, seconds: float) -> tuple[int, list[float], int]:
    """``CLIENTS`` clients in ``PROCESSES`` processes (the client's own Python must not be the
    bottleneck) polling for ``seconds``: answers, latencies, answers other than 304."""
    out: multiprocessing.Queue = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=_client_process, args=(
        port, path, etag, seconds, CLIENTS // PROCESSES, out)) for _ in range(PROCESSES)]
    for proc in procs:
        proc.start()
    results = [out.get(timeout=seconds + 120) for _ in procs]
    for proc in procs:
        proc.join()
    latencies = [ms for got, _wrong in results for ms in got]
    return len(latencies), latencies, sum(wrong for _got, wrong in results)


def main() -> int:
    """Seed, serve, poll, report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="500 pairs, 3 s")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    pairs, seconds = (500, 3.0) if args.quick else (5000, 10.0)
    tmp = tempfile.TemporaryDirectory(prefix="bench-public-304-")
    database = db_bench.setup_django()
    print(f"# database: {database}", flush=True)
    from django.db import connection, connections
    from django.urls import reverse

    sqlite = connection.vendor == "sqlite"
    url = os.environ["DATABASE_URL"]
    started = time.perf_counter()
    tournament = pages.build(pairs, 2, args.seed)
    connections.close_all()
    print(f"# {pairs} pairs, 2 rounds finished and one in play: seeded in "
          f"{time.perf_counter() - started:.1f} s", flush=True)
    env = {**server.server_env(url), "STATIC_ROOT": str(Path(tmp.name) / "static")}
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                   cwd=server.ROOT, env=env, check=True)  # DEBUG=0 pages need the manifest
    proc, port = server.start_gunicorn(env, sqlite, Path(tmp.name))
    try:
        path = reverse("tournaments:standings", args=[tournament.slug])
        status, etag, cold_ms = get(port, path)
        if status != 200 or not etag:
            raise RuntimeError(f"the standings answered {status} without an ETag")
        print(f"# first page {cold_ms:.0f} ms, ETag {etag}", flush=True)
        poll(port, path, etag, 1.0)  # every worker warm
        count, latencies, wrong = poll(port, path, etag, seconds)
        rps = count / seconds
        print(f"# {count} conditional GETs by {CLIENTS} clients in {seconds:.0f} s, "
              f"p95 {pages.statistics.quantiles(latencies, n=20)[-1]:.1f} ms, "
              f"{wrong} not 304", flush=True)
        print(f"BENCH public_standings_304_rps {rps:.0f}", flush=True)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        db_bench.delete_tournament(tournament)
        tmp.cleanup()
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
