"""An ASGI live server for the browser tests that need it (the live updates' streams).

pytest-django's ``live_server`` is a WSGI thread: a page it serves polls and never opens a
stream (``LIVE_UPDATES`` "auto"). ``asgi_live_server`` serves the same site with uvicorn in a
thread of this process, on the test database (SQLite's shared in-memory database, or the
test's PostgreSQL), with the static files as ``live_server`` serves them, for one test; the
other tests keep ``live_server``.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def asgi_live_server(transactional_db: None) -> Iterator[str]:
    """The base URL of the site served under ASGI (uvicorn in a thread) for this test."""
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from config.asgi import application

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(
        ASGIStaticFilesHandler(application), host="127.0.0.1", port=port, lifespan="off",
        log_level="warning", loop="asyncio", http="h11", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, name="asgi-live-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
