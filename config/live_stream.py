"""One open stream's loop: django-eventstream's listener, woken by its fan-out, at little cost.

The library's listener manager (and, with ``EVENTSTREAM_REDIS``, its Redis subscriber) hands
each event to the listeners of its channel and wakes them; this loop writes what it was
handed. It replaces the library's own per-stream loop, which makes a task, a timer and an
``asyncio.wait`` at every wake-up (about 1 ms of a loaded core per stream and event: 10 s
for 10,000 streams). Keep-alives come from one ticker per event loop for all its streams, not
a timer in each. An event is encoded once for all the streams it reaches.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from django.http import HttpRequest, StreamingHttpResponse

KEEP_ALIVE_SECONDS = 20.0
OPENING = ":" + " " * 2048 + "\n\nevent: stream-open\ndata:\n\n"
"""The first words: padding past what some proxies hold back, then ``stream-open``."""
KEEP_ALIVE = "event: keep-alive\ndata:\n\n"
OVERFLOW = 'event: message\ndata: {"channel": "", "token": "overflow"}\n\n'
"""More events came than a listener keeps (the library's ``MAX_PENDING``): refresh all."""

_tickers: dict[int, asyncio.Task] = {}


def _encoded(item: Any) -> str:
    """An event as the stream sends it, encoded once for every stream it reaches."""
    text = getattr(item, "sse_text", None)
    if text is None:
        from django_eventstream.utils import sse_encode_event

        text = sse_encode_event(item.type, item.data)
        item.sse_text = text
    return text


async def _tick(manager: Any) -> None:
    """Every ``KEEP_ALIVE_SECONDS``, wake every stream of this loop that has nothing to say."""
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(KEEP_ALIVE_SECONDS)
        with manager.lock:
            listeners = {listener for group in manager.listeners_by_channel.values()
                         for listener in group if listener.loop is loop}
        for listener in listeners:
            listener.keep_alive = True
            listener.aevent.set()


def _ensure_ticker(manager: Any) -> None:
    """One keep-alive ticker for the running loop."""
    loop = asyncio.get_running_loop()
    task = _tickers.get(id(loop))
    if task is None or task.done():
        _tickers[id(loop)] = loop.create_task(_tick(manager))


async def _events(listener: Any, manager: Any) -> AsyncIterator[str]:
    """The stream: its opening, then what the listener is handed, until the client leaves."""
    listener.assign_loop()
    listener.keep_alive = False
    manager.add_listener(listener)
    _ensure_ticker(manager)
    try:
        yield OPENING
        while True:
            await listener.aevent.wait()
            with manager.lock:
                items, overflow = listener.channel_items, listener.overflow
                listener.channel_items, listener.overflow = {}, False
                listener.aevent.clear()
            body = "".join(_encoded(item) for group in items.values() for item in group)
            if overflow:
                body += OVERFLOW
            if not body and listener.keep_alive:
                body = KEEP_ALIVE
            listener.keep_alive = False
            if body:
                yield body
    finally:
        manager.remove_listener(listener)


def open_stream(request: HttpRequest, channels: list[str]) -> StreamingHttpResponse:
    """The streaming answer of the channels (already checked readable)."""
    from django_eventstream.utils import add_default_headers
    from django_eventstream.views import Listener, get_listener_manager

    listener = Listener()
    listener.user_id = request.user.pk if request.user.is_authenticated else "anonymous"
    listener.channels = set(channels)
    response = StreamingHttpResponse(_events(listener, get_listener_manager()),
                                     content_type="text/event-stream")
    add_default_headers(response, request=request)
    return response
