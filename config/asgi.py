"""ASGI entry point (uvicorn: ``make run``; gunicorn with uvicorn workers in production)."""

import asyncio
import gc
import os
from typing import Any

import django
from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpRequest
from django.http.response import HttpResponseBase
from django.urls import set_script_prefix

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

LIVE_PREFIX = "/live/"


class SyncChainHandler(ASGIHandler):
    """Django's ASGI handler whose middleware and view run as one sync call in the shared
    thread, as under WSGI.

    Django's own ASGI chain runs each async-capable middleware on the event loop and each
    sync-only one in the thread, crossing between the two at every change: ten crossings
    each way for this site's middleware, each a wake-up of the other side (the desk's deal
    twice as slow as under a sync worker on a loaded machine, docs/performance.md).
    """

    def load_middleware(self, is_async: bool = False) -> None:
        """The middleware chain in sync mode, whatever the server."""
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        """The whole sync chain in one call on the shared thread."""
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

    async def handle(self, scope: dict, receive: Any, send: Any) -> None:
        """Serve one request with a single crossing to the shared thread and back.

        Django's ``handle`` crosses three times (``request_started``'s receivers, the chain,
        then ``response.close`` with ``request_finished``'s), each a wake-up of the thread and
        then of the loop (the desk's actions one after another against one uvicorn worker, the
        bench's mix: its CPU per request 4.75 → 4.07 ms and 4.56 → 4.40 ms in two runs, a
        loaded machine). Here the thread sends
        ``request_started``, builds the request, runs the chain and, for an answer held in
        memory, closes it (``request_finished``) before the loop sends it; a streamed answer is
        closed after it is sent, as Django does. A request whose client went away while its
        view ran is still answered into the void (a sync view is not cancelled either way).
        """
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            response = await sync_to_async(self._serve, thread_sensitive=True)(scope, body_file)
            try:
                await self.send_response(response, send)
            finally:
                if response.streaming:
                    await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _serve(self, scope: dict, body_file: Any) -> HttpResponseBase:
        """In the shared thread: the request's start, its answer, the close of one in memory."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            # Django's own attribute, set as its handler sets it (``response.close`` sends it)
            response._handler_class = self.__class__  # type: ignore[attr-defined]  # noqa: SLF001
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        assert response is not None  # create_request gives a request or an error's answer
        if not response.streaming:
            response.close()
        return response


class SiteASGIHandler(ASGIHandler):
    """Django's ASGI handler, whose requests run their sync parts in one thread per process
    (the one asgiref keeps) instead of a new thread each; the pages, the API and the live
    streams' opening (``/live/``) through ``SyncChainHandler``, the open streams on the event
    loop alone (``serve_stream``).

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

    def __init__(self) -> None:
        """``SyncChainHandler`` for the pages and the API, and the streams' opening."""
        super().__init__()
        self.pages = SyncChainHandler()

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        """Serve the request, its sync parts in the process's shared thread."""
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
        elif scope.get("path", "").startswith(LIVE_PREFIX):
            await self.serve_stream(scope, receive, send)
        else:
            await self.pages.handle(scope, receive, send)

    async def serve_stream(self, scope: dict, receive: Any, send: Any) -> None:
        """A live stream: opened as any request (``open_stream``), then held with nothing of
        the request's kept (``config.live_stream.hold``: each event written as it comes).

        Django's handler would keep the request, its answer, two tasks and the context the
        middleware filled (about 160 objects a stream, all walked by each full collection of
        the garbage collector: near 1 s at 10,000 streams, in the middle of a fan-out).
        The opening runs in a task of its own, so what it leaves in its context goes with it.
        """
        from config import live_stream

        channels = await asyncio.create_task(self.open_stream(scope, receive, send))
        if channels is not None:
            await live_stream.hold(channels, send, receive)

    async def open_stream(self, scope: dict, receive: Any, send: Any) -> set[str] | None:
        """The request through the middleware and the view, as Django's ``handle`` does; a
        stream's channels once its head is sent, None when it was answered otherwise."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return None
        set_script_prefix(get_script_prefix(scope))
        await signals.request_started.asend(sender=self.__class__, scope=scope)
        request, error = self.create_request(scope, body_file)
        response = error if request is None else await sync_to_async(
            self.respond, thread_sensitive=True)(request)
        assert response is not None
        stream = getattr(response, "live_stream", None)
        try:
            if stream is None:
                await self.send_response(response, send)
                await sync_to_async(response.close)()
                return None
            await send_head(response, send)
            return stream.channels
        finally:
            body_file.close()

    def respond(self, request: HttpRequest) -> HttpResponseBase:
        """The answer through the sync chain; a stream's is closed at once (the request is
        over for Django: its connection back, ``request_finished``), its stream served on."""
        response = self.pages.get_response(request)
        if getattr(response, "live_stream", None) is not None:
            response.close()
        return response


async def send_head(response: HttpResponseBase, send: Any) -> None:
    """An answer's status and headers (its cookies too), as Django's ``send_response``."""
    headers = []
    for header, value in response.items():
        headers.append((header.encode("ascii") if isinstance(header, str) else bytes(header),
                        value.encode("latin1") if isinstance(value, str) else bytes(value)))
    for cookie in response.cookies.values():
        headers.append((b"Set-Cookie", cookie.output(header="").encode("ascii").strip()))
    await send({"type": "http.response.start", "status": response.status_code,
                "headers": headers})


def freeze_start_up() -> None:
    """Leave what start-up made (Django, the apps, the URLconf's views) out of the garbage
    collector's walks (``gc.freeze``; before a fork: gunicorn's ``--preload``): a full
    collection walks only what came after, the requests' and the streams' objects."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every view now
    gc.collect()
    gc.freeze()


django.setup(set_prefix=False)
application = SiteASGIHandler()
freeze_start_up()
