"""ASGI entry point (uvicorn: ``make run``; gunicorn with uvicorn workers in production)."""

import os
from typing import Any

import django
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Under ASGI each request's sync code runs in a thread of its own (see below), and Django's
# connections belong to threads: a kept connection (CONN_MAX_AGE > 0) is never reused and
# stays open until its thread is collected. Three nodes kept 67 of PostgreSQL's 100 at a
# championship's pace (bench/bench_champ_round.py). So a web node under ASGI closes each
# request's connection unless told otherwise; WSGI workers keep theirs (config/settings.py).
os.environ.setdefault("CONN_MAX_AGE", "0")

LIVE_PREFIX = "/live/"


class SiteASGIHandler(ASGIHandler):
    """Django's ASGI handler; the live streams (``/live/``) share one thread for their sync
    parts instead of one each.

    Django runs each request's sync code (the middleware, a sync view) in a thread of the
    request's own (``ThreadSensitiveContext``), kept until the answer ends: a stream, open for
    hours, would keep a thread each (~400 KB: 10,000 streams, 4 GB). A stream's sync work is
    its opening (the middleware, who may read the channel), after which it only waits, so its
    requests run outside such a context: asgiref then runs their sync code in one thread
    shared by all of them.
    """

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        """Serve the request (a stream: without a thread of its own)."""
        if scope["type"] == "http" and scope.get("path", "").startswith(LIVE_PREFIX):
            await self.handle(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)


django.setup(set_prefix=False)
application = SiteASGIHandler()
