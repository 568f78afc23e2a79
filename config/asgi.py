"""ASGI entry point (uvicorn: ``make run``; gunicorn with uvicorn workers in production)."""

import os
from typing import Any

import django
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class SiteASGIHandler(ASGIHandler):
    """Django's ASGI handler, whose requests run their sync parts in one thread per process
    (the one asgiref keeps) instead of a new thread each.

    Django runs each request's sync code (the middleware, a sync view) in a thread of the
    request's own (``ThreadSensitiveContext``), ended with the answer. Two costs follow:

    - the database: a connection belongs to its thread, so every request opened a new one
      (CONN_MAX_AGE, the prepared statements and the compiled queries of
      ``scoring.core.compiled`` were lost with the thread, and the dead threads' connections
      piled up until PostgreSQL refused more: a desk's deal p95 near 1 s at 50 requests/s,
      measured in docs/performance.md); in the shared thread one connection is kept, as in a
      sync worker;
    - the memory: a stream, open for hours, would keep a thread each (~400 KB: 10,000
      streams, 4 GB); a stream's sync work is its opening, after which it only waits.

    The sync parts of a worker's requests therefore run one at a time, as in gunicorn's sync
    worker (the pages and the API are CPU-bound: a thread each bought no throughput under the
    GIL), while the streams wait on the event loop.
    """

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        """Serve the request, its sync parts in the process's shared thread."""
        if scope["type"] == "http":
            await self.handle(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)


django.setup(set_prefix=False)
application = SiteASGIHandler()
