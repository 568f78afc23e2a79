"""Under ASGI (``config.asgi``) the pages and the API run in one kept thread per process, so a
worker keeps one database connection (its prepared statements, its compiled queries) instead
of opening one per request, as Django's per-request threads did (docs/performance.md)."""

from __future__ import annotations

import threading

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.core.signals import request_started
from django.db import connection

from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def _get(path: str) -> int:
    """One GET through the site's ASGI application; its status."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "headers": [(b"host", b"testserver")],
             "client": ("127.0.0.1", 1), "server": ("testserver", 80)}

    async def run() -> int:
        talk = ApplicationCommunicator(application, scope)
        await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await talk.receive_output(10)
        while (await talk.receive_output(10)).get("more_body"):
            pass
        return start["status"]

    return async_to_sync(run)()


def test_requests_under_asgi_share_one_thread_and_one_connection():
    seen: list[tuple[int, int]] = []

    def note(**_kwargs: object) -> None:
        connection.ensure_connection()
        seen.append((threading.get_ident(), id(connection.connection)))

    request_started.connect(note, dispatch_uid="asgi-threads")
    try:
        statuses = [_get("/api/v1/parties/0/") for _ in range(3)]
    finally:
        request_started.disconnect(dispatch_uid="asgi-threads")
    assert all(status in (401, 403, 404) for status in statuses), statuses
    assert len(seen) == 3
    assert len({thread for thread, _conn in seen}) == 1, seen
    assert len({conn for _thread, conn in seen}) == 1, seen
