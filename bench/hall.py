"""The benches' hall: a database with running parties, and gunicorn serving it as production
would on 2 cores (shared by bench_deal_entry, bench_desk_resync and bench_public_304)."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HOST = "127.0.0.1"


def bench(name: str, value: float, unit: str) -> None:
    """Print one figure in the BENCH format."""
    text = f"{value:.1f}" if isinstance(value, float) else str(value)
    print(f"BENCH {name} {text} {unit}".rstrip(), flush=True)


def note(text: str) -> None:
    """Progress on stderr, so that stdout holds the figures."""
    print(f"# {text}", file=sys.stderr, flush=True)


# -- the database and the server ------------------------------------------------------------


def ensure_postgres_database(url: str) -> None:
    """Create the PostgreSQL database of ``url`` if it does not exist."""
    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def server_env(database_url: str) -> dict[str, str]:
    """The environment of the bench process and of gunicorn: production-like, local only."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "0",
        "SECRET_KEY": "bench-" + uuid.uuid4().hex * 2,
        "ALLOWED_HOSTS": HOST,
        "SECURE_SSL_REDIRECT": "0",
        "CELERY_BROKER_URL": "",
        "REDIS_URL": "",
        "LOG_LEVEL": "ERROR",
        "CONN_MAX_AGE": "600",
        # one chief's token drives the whole hall and the ramp goes past 100 requests/s: the
        # bench measures the server, not the API's per-user throttle (config.api_throttle)
        "API_THROTTLE_USER_RATE": "",
    }
    return env


def prepare(parties: int) -> tuple[str, list[int]]:
    """Migrate, then create a tournament with ``parties`` started parties and a referee."""
    import django

    django.setup()
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from referee.services import start_party
    from scoring.models import Pair, Party, Player, Round, Table, TournamentRole
    from tournaments.setup.services import create_tournament

    call_command("migrate", verbosity=0, interactive=False)
    from django.db import connection

    if connection.vendor == "sqlite":  # one writer: let readers go on while it writes
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode=WAL")
    from django.contrib.auth import get_user_model

    stamp = uuid.uuid4().hex[:8]
    user = get_user_model().objects.create_user(f"bench-ref-{stamp}", password=uuid.uuid4().hex)
    tournament = create_tournament(name=f"Bench {stamp}", slug=f"bench-{stamp}")
    regulations = tournament.regulations
    regulations.target = 10000  # nobody finishes during the run
    regulations.party_minutes = 180
    regulations.save()
    TournamentRole.objects.create(tournament=tournament, user=user, role="chief")
    players = Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Игрок {n}") for n in range(parties * 4)
    )
    pairs = Pair.objects.bulk_create(
        Pair(tournament=tournament, player1=players[2 * n], player2=players[2 * n + 1])
        for n in range(parties * 2)
    )
    tables = Table.objects.bulk_create(
        Table(tournament=tournament, number=n + 1) for n in range(parties)
    )
    rnd = Round.objects.create(tournament=tournament, number=1, status="published")
    created = Party.objects.bulk_create(
        Party(round=rnd, table=tables[n], pair_a=pairs[2 * n], pair_b=pairs[2 * n + 1])
        for n in range(parties)
    )
    ids = [party.pk for party in created]
    for party_id in ids:
        start_party(party_id, actor=user)
    token, _created = Token.objects.get_or_create(user=user)
    from django.db import connections

    connections.close_all()
    return token.key, ids


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


GUNICORN_CONFIG = '''"""gunicorn settings of bench_deal_entry.py: app loaded, warmed, forked."""

preload_app = True


def when_ready(server):
    """Import the URLconf (every view module) in the master, before the workers fork.

    Then freeze what is loaded: the collector no longer walks these objects, so that a full
    collection in a worker takes a few ms instead of a 100 ms pause.
    """
    import gc

    from django.db import connections
    from django.urls import get_resolver

    get_resolver().url_patterns
    connections.close_all()  # a forked worker must not share a connection of the master
    gc.freeze()
'''


WORKER_CLASSES = {
    # as the README deploys a web node: ASGI, uvicorn workers under gunicorn
    "asgi": ("config.asgi:application", "uvicorn_worker.UvicornWorker"),
    # the WSGI deployment before the live streams (kept to compare the two)
    "sync": ("config.wsgi:application", "sync"),
}


def start_gunicorn(
    env: dict[str, str], sqlite: bool, config_dir: Path, worker_class: str = "", *,
    workers: int | None = None, port: int | None = None,
) -> tuple[subprocess.Popen, int]:
    """Start gunicorn and wait until it answers.

    ``worker_class``: "asgi" (the README's deployment: ``config.asgi`` with uvicorn workers) or
    "sync" (``config.wsgi`` with sync workers); empty: BENCH_WORKER_CLASS, else "asgi".
    One worker per core (the work is CPU-bound and PostgreSQL needs CPU too: three
    workers measured no better here, and worse when the machine is slow; SQLite: one worker,
    as SQLite has one writer). The app is preloaded, warmed and frozen in the master
    (``GUNICORN_CONFIG``), as in production.
    BENCH_WORKERS overrides the count; BENCH_ACCESS_LOG names a file for gunicorn's access
    log with the server-side time of every request. ``workers`` and ``port`` (one of several
    nodes, or a node started again on its port) override the defaults.
    """
    port = port or free_port()
    cores = os.cpu_count() or 1
    count = str(workers) if workers else (
        "1" if sqlite else os.environ.get("BENCH_WORKERS", str(cores)))
    kind = worker_class or os.environ.get("BENCH_WORKER_CLASS", "asgi")
    app, worker = WORKER_CLASSES[kind]
    gunicorn = Path(sys.executable).with_name("gunicorn")
    config = config_dir / "gunicorn_bench.py"
    config.write_text(GUNICORN_CONFIG)
    command = [str(gunicorn), app, "--config", str(config), "--bind", f"{HOST}:{port}",
               "--workers", count, "--worker-class", worker, "--backlog", "2048",
               "--log-level", "warning", "--timeout", "60"]
    if os.environ.get("BENCH_ACCESS_LOG"):
        command += ["--access-logfile", os.environ["BENCH_ACCESS_LOG"],
                    "--access-logformat", "%(L)s %(s)s"]
    proc = subprocess.Popen(command, cwd=ROOT, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("gunicorn exited")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/api/v1/parties/0/")  # 401/403: up, no template
            conn.getresponse().read()
            conn.close()
            return proc, port
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise RuntimeError("gunicorn did not answer within 60 s")


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the values lie."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def stop(proc: subprocess.Popen) -> None:
    """End a server process: terminate, then kill it if it has not gone within 20 s."""
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
