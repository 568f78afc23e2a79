"""Several machines, as it were: two web nodes and two workers on one PostgreSQL and Redis.

Two gunicorn instances on two ports and two Celery workers (one of them runs the beat, ``-B``)
share the test database and the broker. A bounded deal-entry load goes to both nodes, some
requests retried on the other node with the same ``Idempotency-Key``; meanwhile the sweeps of
several workers race over the parties whose clock ran out. Nothing is lost, nothing is stored
twice, every expired clock is marked exactly once. Runs where CI runs it: PostgreSQL and a
broker (``DATABASE_URL``, ``CELERY_BROKER_URL``, as ``.ci/run`` sets them).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from config.celery import app as celery_app
from tests.pg import ONLY_ON_POSTGRES

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
LOAD_PARTIES, EXPIRING_PARTIES = 12, 12
REQUESTS, RETRY_SHARE, CLIENTS = 300, 0.15, 6

pytestmark = [
    *ONLY_ON_POSTGRES,
    pytest.mark.celery_worker,
    pytest.mark.skipif(not os.environ.get("CELERY_BROKER_URL"),
                       reason="needs CELERY_BROKER_URL (a shared broker); .ci/run sets it"),
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _node_env() -> dict[str, str]:
    """Production-like settings of every process, on the test database and the shared broker."""
    db = connection.settings_dict
    url = (f"postgres://{db['USER']}:{db.get('PASSWORD') or ''}@{db['HOST'] or HOST}:"
           f"{db['PORT'] or 5432}/{db['NAME']}")
    return {**os.environ, "DATABASE_URL": url, "DEBUG": "0", "ALLOWED_HOSTS": HOST,
            "SECRET_KEY": "topology-" + uuid.uuid4().hex * 2, "SECURE_SSL_REDIRECT": "0",
            "CONN_MAX_AGE": "60", "LOG_LEVEL": "WARNING"}


def _get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def _wait_until(check, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"{what} within {timeout:.0f} s")


@pytest.fixture
def cluster(tmp_path, django_db_blocker):
    """Start the nodes; yield the web ports; stop everything (logs under var/topology-*)."""
    env = _node_env()
    (ROOT / "var").mkdir(exist_ok=True)
    procs, logs = [], []
    ports = [_free_port(), _free_port()]
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    commands = [
        [gunicorn, "config.wsgi", "--bind", f"{HOST}:{port}", "--workers", "1",
         "--log-level", "warning", "--timeout", "60",
         "--control-socket", str(tmp_path / f"node-{port}.ctl")]  # one each, as on 2 machines
        for port in ports
    ] + [
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
         "--loglevel=warning", "--without-gossip", "--without-mingle", "-n", f"topo{n}@%h",
         *(["-B", "-s", str(tmp_path / "beat-schedule")] if n == 1 else [])]
        for n in (1, 2)
    ]
    try:
        for n, command in enumerate(commands):
            log = open(ROOT / "var" / f"topology-{n}.log", "w")  # noqa: SIM115
            logs.append(log)
            procs.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=log,
                                          stderr=subprocess.STDOUT))
        for port in ports:
            _wait_until(lambda port=port: _get(port, "/healthz")[0] in (200, 503),
                        f"web node :{port} answered")
        _wait_until(lambda: len(celery_app.control.ping(timeout=1.0) or []) >= 2,
                    "both workers answered a ping")
        yield ports
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        for log in logs:
            log.close()


def _field() -> tuple[str, list[int], list[int]]:
    """A chief's token, parties being played, parties whose clock ran out an hour ago."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from referee.services import start_party
    from scoring.models import Party, Round, TournamentRole
    from tests.factories import (
        PairFactory,
        PartyFactory,
        PlayerFactory,
        TableFactory,
        create_bulk,
    )
    from tournaments.setup.services import create_tournament

    tournament = create_tournament(name="Cluster", slug=f"cluster-{uuid.uuid4().hex[:6]}")
    regulations = tournament.regulations
    regulations.target, regulations.party_minutes = 100000, 60  # nobody reaches the target
    regulations.save()
    user = get_user_model().objects.create_user(f"chief-{uuid.uuid4().hex[:6]}")
    TournamentRole.objects.create(tournament=tournament, user=user, role="chief")
    count = LOAD_PARTIES + EXPIRING_PARTIES
    players = create_bulk(PlayerFactory, ({"tournament": tournament} for _ in range(4 * count)))
    pairs = create_bulk(PairFactory, (
        {"tournament": tournament, "player1": players[2 * n], "player2": players[2 * n + 1]}
        for n in range(2 * count)))
    tables = create_bulk(TableFactory, (
        {"tournament": tournament, "number": n + 1} for n in range(count)))
    rnd = Round.objects.create(tournament=tournament, number=1, status="published")
    parties = create_bulk(PartyFactory, (
        {"round": rnd, "table": tables[n], "pair_a": pairs[2 * n], "pair_b": pairs[2 * n + 1]}
        for n in range(count)))
    ids = [party.pk for party in parties]
    for pk in ids:
        start_party(pk, actor=user)
    expiring = ids[LOAD_PARTIES:]
    Party.objects.filter(pk__in=expiring).update(
        started_at=timezone.now() - timedelta(minutes=120))
    return Token.objects.create(user=user).key, ids[:LOAD_PARTIES], expiring


def _post_deal(port: int, token: str, party: int, body: dict, key: str) -> tuple[int, dict]:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        conn.request("POST", f"/api/v1/parties/{party}/deal/", body=json.dumps(body),
                     headers={"Authorization": f"Token {token}", "Idempotency-Key": key,
                              "Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


@pytest.mark.django_db(transaction=True)
def test_two_web_nodes_and_two_workers_lose_nothing_and_expire_each_clock_once(cluster):
    from referee.tasks import sweep_party_clocks
    from scoring.core.heartbeat import stamp_heartbeat
    from scoring.models import Deal, Party

    token, load, expiring = _field()
    ports = cluster
    celery_app.conf.task_always_eager = False
    try:
        sweeps = [sweep_party_clocks.delay() for _ in range(4)]  # races the beat's own sweeps
        stamp_heartbeat.delay()
        accepted: dict[int, set[str]] = {pk: set() for pk in load}
        problems: Counter = Counter()
        lock = threading.Lock()
        jobs = list(range(REQUESTS))

        def client(seed: int) -> None:
            rng = random.Random(seed)
            while True:
                with lock:
                    if not jobs:
                        return
                    n = jobs.pop()
                party, key, cid = load[n % len(load)], str(uuid.uuid4()), uuid.uuid4().hex
                side = rng.choice("ab")
                body = {"outcome": "domino", "side": side, "client_id": cid,
                        "points": {"a": 0, "b": 0} | {side: rng.randint(1, 12)}}
                nodes = [ports[n % 2]] + ([ports[1 - n % 2]] if rng.random() < RETRY_SHARE
                                          else [])
                records = []
                for port in nodes:  # a retry goes to the other node with the same key
                    status, answer = _post_deal(port, token, party, body, key)
                    if status >= 400:
                        with lock:
                            problems[f"http {status}: {answer}"] += 1
                        continue
                    records.append((answer.get("record") or {}).get("id"))
                with lock:
                    if records:
                        accepted[party].add(cid)
                    if len(set(records)) > 1:
                        problems["a retry answered another record"] += 1

        started = time.monotonic()
        threads = [threading.Thread(target=client, args=(s,)) for s in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        took = time.monotonic() - started
        assert not problems, problems
        for sweep in sweeps:
            sweep.get(timeout=60)
        _wait_until(lambda: not Party.objects.filter(pk__in=expiring,
                                                     time_expired_at__isnull=True).exists(),
                    "every expired clock was marked")
        _wait_until(lambda: all(_get(p, "/healthz")[0] == 200 for p in ports),
                    "both nodes report healthy (a worker's heartbeat in the shared cache)")
    finally:
        celery_app.conf.task_always_eager = True

    print(f"{REQUESTS} deal requests over 2 nodes in {took:.1f} s")
    lost = duplicated = 0
    for party, client_ids in accepted.items():
        stored = Counter(Deal.objects.filter(party_id=party).values_list("client_id", flat=True))
        lost += sum(1 for cid in client_ids if stored[cid] == 0)
        duplicated += sum(n - 1 for n in stored.values() if n > 1)
    assert sum(len(c) for c in accepted.values()) == REQUESTS
    assert (lost, duplicated) == (0, 0)
    for party in Party.objects.filter(pk__in=expiring).prefetch_related("events"):
        assert [e.kind for e in party.events.all()].count("time_expired") == 1, party.pk
    assert not Party.objects.filter(pk__in=load, time_expired_at__isnull=False).exists()
    _status, body = _get(ports[1], "/healthz")
    assert json.loads(body)["checks"]["worker_heartbeat"]["age_seconds"] < 90
