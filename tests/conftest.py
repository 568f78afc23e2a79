"""Shared fixtures: a tournament with pairs and tables, logins for each role, a started party."""

from __future__ import annotations

import functools
import itertools
import os
import socket
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


@functools.cache
def _load_hypothesis_profile() -> None:
    """Property tests on a loaded 2-core host: no per-example deadline, no ``too_slow`` health
    check (``HYPOTHESIS_PROFILE=dev`` for a quick look with fewer examples)."""
    import hypothesis

    hypothesis.settings.register_profile(
        "ci", deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow],
        print_blob=True,
    )
    hypothesis.settings.register_profile("dev", deadline=None, max_examples=20)
    hypothesis.settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> None:
    """Load the Hypothesis profile before the first test module that uses Hypothesis is
    imported (its ``@settings`` inherit from it); a run without one never imports Hypothesis,
    which takes about a second."""
    if "hypothesis" in module_path.read_text(encoding="utf-8"):
        _load_hypothesis_profile()


def _held_port() -> int:
    """A local port bound for the whole run and never listened on: connecting is refused."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    _HELD_SOCKETS.append(sock)
    return sock.getsockname()[1]


_HELD_SOCKETS: list[socket.socket] = []
DEAD_PORT = _held_port()
"""A port where nothing listens, and nothing else can start listening during the run."""


def _isolate_parallel_worker(worker: str) -> None:
    """Give a pytest-xdist worker its own Redis databases, files and logs.

    Each worker already has its own test database (pytest-django adds ``_gw0``); the broker,
    the cache and the files under ``var/`` would otherwise be shared, so one worker's
    ``cache.clear()`` or queued task would reach the other's tests. Redis database numbers go
    down from the configured ones, two per worker (``.ci/run``: broker 15 and cache 14 for
    ``gw0``, 13 and 12 for ``gw1``). Environment variables are set too, so that the worker
    processes and web nodes the tests start share the same ones.
    """
    from django.conf import settings

    index = int(worker.removeprefix("gw"))

    def moved(url: str) -> str:
        base, _, db = url.rpartition("/")
        return f"{base}/{int(db or 0) - 2 * index}" if url.startswith("redis") else url

    for name in ("CELERY_BROKER_URL", "REDIS_URL", "CELERY_RESULT_BACKEND"):
        if os.environ.get(name):
            os.environ[name] = moved(os.environ[name])
    if "LOCATION" in settings.CACHES["default"]:
        settings.CACHES["default"]["LOCATION"] = moved(settings.CACHES["default"]["LOCATION"])
    if getattr(settings, "LIVE_REDIS", None):  # the live updates' pub/sub channel: per db
        db = int(settings.LIVE_REDIS.get("db") or 0) - 2 * index
        settings.LIVE_REDIS = {**settings.LIVE_REDIS, "db": db}
    celery_app.conf.result_backend = moved(celery_app.conf.result_backend or "") or None
    var = Path(settings.BASE_DIR) / "var" / f"test-{worker}"
    for name, folder in (("MEDIA_ROOT", "media"), ("PROTOCOL_SIGNING_DIR", "signing"),
                         ("EMAIL_FILE_PATH", "mail")):
        path = var / folder
        setattr(settings, name, path if name != "EMAIL_FILE_PATH" else str(path))
        os.environ[name] = str(path)


if os.environ.get("PYTEST_XDIST_WORKER"):
    _isolate_parallel_worker(os.environ["PYTEST_XDIST_WORKER"])


def _unthrottled_api() -> None:
    """The suite sends far more API requests a minute than a client may: no API throttle here
    or in the servers it starts, unless a test sets a rate (tests/api/test_throttling.py)."""
    from django.conf import settings

    for name in ("API_THROTTLE_ANON_RATE", "API_THROTTLE_USER_RATE"):
        os.environ[name] = ""
        setattr(settings, name, "")


_unthrottled_api()
def _no_webhook_sender_thread() -> None:
    """No test's request starts the web process's webhook sender thread: the tests send the
    outbox themselves (``tests/webhooks``: ``send_due``), or start the thread on purpose."""
    from django.conf import settings

    settings.WEBHOOK_SENDER_THREAD = False


_no_webhook_sender_thread()


@pytest.hookimpl(tryfirst=True)  # before -m deselects
def pytest_itemcollected(item: pytest.Item) -> None:
    """Mark every test that needs the database ``db``: ``-m "not db"`` leaves the plain ones."""
    if item.get_closest_marker("django_db") or "django_db_setup" in getattr(
        item, "fixturenames", ()
    ):
        item.add_marker(pytest.mark.db)


@pytest.hookimpl(trylast=True)  # after -m and -k have deselected
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Build the test database through the real migration history when a chosen test asks.

    The suite runs without migrations (``--nomigrations`` in pyproject: the schema straight
    from the models, ~1 s instead of 13–33 s); a test marked ``migrations`` (a data
    migration's own test) needs the history, so a run that includes one migrates.
    """
    if any(item.get_closest_marker("migrations") for item in items):
        config.option.nomigrations = False


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
    name = f"test-worker{os.environ.get('PYTEST_XDIST_WORKER', '')}.log"
    log = open(root / "var" / name, "w")  # noqa: SIM115
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


DEAD_BROKER = f"redis://127.0.0.1:{DEAD_PORT}/0"
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
