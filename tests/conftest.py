"""Shared fixtures: a tournament with pairs and tables, logins for each role, a started party."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from config.celery import app as celery_app
from tests.factories import (
    DealFactory,
    PairFactory,
    PartyFactory,
    PenaltyFactory,
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
    create_bulk,
)

_counter = itertools.count(1)


@pytest.fixture(autouse=True)
def _eager_celery():
    """Tasks run in-process unless a test asks for the real worker."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture
def make_user(db):
    """Create a user; organizers get the permission to create tournaments."""

    def make(username: str | None = None, *, organizer: bool = False, **extra):
        if username is not None:
            extra["username"] = username
        return UserFactory(organizer=organizer, **extra)

    return make


@pytest.fixture
def organizer(make_user):
    return make_user("org", organizer=True)


@pytest.fixture
def tournament(organizer):
    """A pairs tournament with default regulations, 8 pairs of Cyrillic names and 4 tables."""
    t = TournamentFactory(name="Кубок Москвы", slug=f"cup-{next(_counter)}", organizer=organizer)
    players = [
        PlayerFactory(tournament=t, name=name)
        for name in [
            "Иван Петров", "Сергей Смирнов", "Ольга Морозова", "Мария Волкова",
            "José García", "Anna Müller", "Ёлкин Щукин", "Эдуард Юдин",
            "Пётр Первый", "Фёдор Второй", "Юрий Третий", "Борис Четвёртый",
            "Нина Пятая", "Вера Шестая", "Лев Седьмой", "Яков Восьмой",
        ]
    ]
    for k in range(8):
        PairFactory(tournament=t, player1=players[2 * k], player2=players[2 * k + 1])
    TableFactory.create_batch(4, tournament=t)
    return t


@pytest.fixture
def referee_user(make_user, tournament):
    user = make_user("ref")
    TournamentRoleFactory(tournament=tournament, user=user, role="referee")
    return user


@pytest.fixture
def chief_user(make_user, tournament):
    user = make_user("chief")
    TournamentRoleFactory(tournament=tournament, user=user, role="chief")
    return user


@pytest.fixture
def make_party(tournament):
    """Create a party in a published round (round number grows with each call)."""

    def make(pair_a=None, pair_b=None, table_number: int = 1, round_number: int | None = None):
        pairs = list(tournament.pairs.order_by("id"))
        number = round_number or (tournament.rounds.count() + 1)
        return PartyFactory(
            round=RoundFactory(tournament=tournament, number=number),
            table=tournament.tables.get(number=table_number),
            pair_a=pair_a or pairs[0],
            pair_b=pair_b or pairs[1],
        )

    return make


@pytest.fixture
def party(make_party, referee_user):
    """A started party at table 1."""
    from referee.services import start_party

    p = make_party()
    start_party(p.pk, actor=referee_user)
    p.refresh_from_db()
    return p


def _wait_for_worker(timeout: float = 60.0) -> None:
    """Wait until a worker answers a ping through the broker."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if celery_app.control.ping(timeout=1.0):
            return
    raise RuntimeError(f"the Celery worker did not answer within {timeout} s")


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker):
    """A real Celery worker process on the configured broker, using the test database."""
    from django.conf import settings
    from django.db import connection

    if not os.environ.get("CELERY_BROKER_URL") or settings.DATABASES["default"][
        "ENGINE"
    ].endswith("sqlite3"):
        pytest.skip("needs CELERY_BROKER_URL and DATABASE_URL (PostgreSQL); .ci/run sets both")
    db = connection.settings_dict
    url = (
        f"postgres://{db['USER']}:{db.get('PASSWORD') or ''}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )
    env = {**os.environ, "DATABASE_URL": url, "CONN_MAX_AGE": "0",
           "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "1"}  # the tests' receivers are local
    root = Path(__file__).resolve().parent.parent
    celery_app.control.purge()  # tasks left by an earlier run must not touch this database
    (root / "var").mkdir(exist_ok=True)
    log = open(root / "var" / "test-worker.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
         "--loglevel=info", "--without-gossip", "--without-mingle", "-n", "ci-worker@%h"],
        cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        _wait_for_worker()
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture
def real_worker(celery_worker_process):
    """Send tasks through the broker to the worker process for the duration of a test."""
    celery_app.conf.task_always_eager = False
    yield celery_worker_process
    celery_app.conf.task_always_eager = True


DEAD_BROKER = "redis://127.0.0.1:6390/0"
"""A broker address where nothing listens: the broker is down."""


def _new_broker_pools() -> None:
    """Make the Celery app connect afresh to the broker its settings name now."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def hanging_port():
    """A local port that accepts connections and never answers: a Redis or broker that hangs."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    held = []

    def accept() -> None:
        while True:
            try:
                held.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1]
    server.close()
    for connection in held:
        connection.close()


@pytest.fixture
def broker_at():
    """``broker_at(url)``: send tasks through the broker at ``url`` (not run here) for the test.

    The environment's CELERY_BROKER_URL overrides Celery's setting, so it is the one changed;
    ``broker_at(None)`` goes back to the configured broker.
    """
    names = ("CELERY_BROKER_URL", "CELERY_BROKER_WRITE_URL")
    saved = {name: os.environ.get(name) for name in names}

    def restore() -> None:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value

    def point(url: str | None) -> None:
        if url is None:
            restore()
        else:
            os.environ.update(dict.fromkeys(names, url))
            celery_app.conf.task_always_eager = False
        _new_broker_pools()

    yield point
    restore()
    _new_broker_pools()


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Hash test passwords cheaply."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _english_by_default():
    """Each test starts in the default language (a request may have switched the thread's)."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture
def make_field(organizer):
    """A pairs tournament of ``size`` pairs: ``finished`` rounds played, one round in play.

    Rows are bulk-created as the referee desk would have left them: every finished party
    210 : 40 for pair A, with a fine for pair B at table 1; every party of the round in play
    started, with one deal. The same shape at any size, for query-count tests.
    """
    import random

    from django.utils import timezone

    def make(size: int, *, finished: int = 2, slug: str = "", **fields):
        t = TournamentFactory(
            name=f"Поле {size}", slug=slug or f"field-{next(_counter)}", organizer=organizer,
            status="running", **fields,
        )
        players = create_bulk(
            PlayerFactory, ({"tournament": t, "name": f"Игрок {k:03d}"} for k in range(2 * size))
        )
        pairs = create_bulk(PairFactory, (
            {"tournament": t, "player1": players[2 * k], "player2": players[2 * k + 1]}
            for k in range(size)
        ))
        tables = create_bulk(
            TableFactory, ({"tournament": t, "number": n} for n in range(1, size // 2 + 1))
        )
        now = timezone.now()
        for number in range(1, finished + 2):
            live = number > finished
            rnd = RoundFactory(
                tournament=t, number=number, status="in_progress" if live else "finished",
                published_at=now,
            )
            order = list(pairs)
            random.Random(number).shuffle(order)
            parties = create_bulk(PartyFactory, (
                {"round": rnd, "table": tables[k // 2], "pair_a": order[k],
                 "pair_b": order[k + 1], "status": "in_progress" if live else "finished",
                 "started_at": now, "finished_at": None if live else now,
                 "end_reason": "" if live else "target", "winner": "" if live else "a"}
                for k in range(0, size, 2)
            ))
            points = [(30, 0)] if live else [(100, 0), (0, 40), (110, 0)]
            create_bulk(DealFactory, (
                {"party": party, "number": n, "outcome": "domino", "winner": "a" if a else "b",
                 "points_a": a, "points_b": b}
                for party in parties
                for n, (a, b) in enumerate(points, start=1)
            ))
            PenaltyFactory(party=parties[0])
        return t

    return make


@pytest.fixture
def protocol_files(settings, tmp_path):
    """The installation's signing identity and stored files (signed PDFs) in a temp dir."""
    settings.PROTOCOL_SIGNING_DIR = tmp_path / "signing"
    settings.PROTOCOL_SIGNING_KEY = ""
    settings.PROTOCOL_SIGNING_CERT = ""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings
