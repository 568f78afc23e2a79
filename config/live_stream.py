"""One open stream's loop: django-eventstream's listener, woken by its fan-out, at little cost.

The library's listener manager (fed by ``scoring.live_fanout``: this process's events, or with
``LIVE_REDIS`` its Redis subscriber, started when a stream opens) hands each event to the
listeners of its channel and wakes them; this loop writes what it was
handed. It replaces the library's own per-stream loop, which makes a task, a timer and an
``asyncio.wait`` at every wake-up. Keep-alives come from one ticker per event loop for all its
streams, not a timer in each. An event is encoded once for all the streams it reaches.

``LoopListenerManager`` (installed as the library's listener manager when this module is
imported) hands an event sent from another thread (a request's or a task's commit) to the
streams' event loop in one call, which then queues it for each of its listeners: the library
would queue and wake them one by one from the sending thread, under a lock the woken streams
wait for (a convoy of thread switches: about 0.75 s of a loaded machine for 10,000 streams).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from django.http import HttpRequest, StreamingHttpResponse
from django_eventstream import views

from scoring import live_fanout

KEEP_ALIVE_SECONDS = 20.0
OPENING = (":" + " " * 2048 + "\n\nevent: stream-open\ndata:\n\n").encode()
"""The first words: padding past what some proxies hold back, then ``stream-open``."""
KEEP_ALIVE = b"event: keep-alive\ndata:\n\n"
OVERFLOW = b'event: message\ndata: {"channel": "", "token": "overflow"}\n\n'
"""More events came than a listener keeps (the library's ``MAX_PENDING``): refresh all."""

_tickers: dict[int, asyncio.Task] = {}


class LoopListenerManager(views.ListenerManager):
    """The library's listener manager, queueing an event in its listeners' own loop."""

    def add_to_queues(self, channel: str, event: Any) -> None:
        """Queue the event for the channel's listeners: here when this is their loop, else
        handed to each of their loops in one call."""
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        with self.lock:
            loops = {listener.loop for listener in self.listeners_by_channel.get(channel, ())
                     if listener.loop is not None}
        for loop in loops:
            if loop is running:
                self._add_here(channel, event, loop)
            elif not loop.is_closed():
                loop.call_soon_threadsafe(self._add_here, channel, event, loop)

    def _add_here(self, channel: str, event: Any, loop: Any) -> None:
        """Queue the event for the channel's listeners of ``loop`` and wake them (in it)."""
        with self.lock:
            woken = []
            for listener in self.listeners_by_channel.get(channel, ()):
                if listener.loop is not loop:
                    continue
                items = listener.channel_items.setdefault(channel, [])
                if len(items) < views.MAX_PENDING:
                    items.append(event)
                    woken.append(listener)
                else:
                    listener.overflow = True
        for listener in woken:
            listener.aevent.set()


views.listener_manager = LoopListenerManager()


def _encoded(item: Any) -> bytes:
    """An event as the stream sends it, encoded once for every stream it reaches (bytes: the
    streaming answer passes them on as they are)."""
    text = getattr(item, "sse_bytes", None)
    if text is None:
        from django_eventstream.utils import sse_encode_event

        text = sse_encode_event(item.type, item.data).encode()
        item.sse_bytes = text
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


async def _events(listener: Any, manager: Any) -> AsyncIterator[bytes]:
    """The stream: its opening, then what the listener is handed, until the client leaves."""
    live_fanout.ensure_subscriber()
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
            body = b"".join(_encoded(item) for group in items.values() for item in group)
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

    listener = views.Listener()
    listener.user_id = request.user.pk if request.user.is_authenticated else "anonymous"
    listener.channels = set(channels)
    response = StreamingHttpResponse(_events(listener, views.get_listener_manager()),
                                     content_type="text/event-stream")
    add_default_headers(response, request=request)
    return response
