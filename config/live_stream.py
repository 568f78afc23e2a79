"""The open streams of this process: who listens to which channel, and how an event reaches them.

django-eventstream's listener manager (``LoopListenerManager``, installed as the library's
when this module is imported) keeps the listeners by channel; ``scoring.live_fanout`` hands it
each event (this process's, or with ``LIVE_REDIS`` its Redis subscriber's). An event is
encoded once, handed to the streams' event loop in one call (the library would queue and wake
each listener from the sending thread, under a lock the woken streams wait for: a convoy of
thread switches), and there written to each listener of its channel, in one pass:

- **written straight** (``DirectListener``): a stream served by ``config.asgi`` holds no
  request, response nor task of its own once open; the event's bytes go to the server's
  ``send`` at once, in the pass (no stream is woken: 10,000 wake-ups and their allocations
  were most of a fan-out's CPU, and of what the collector walked). Only a stream whose client
  reads too slowly (the server holds its write back) gets a task, which writes what came
  meanwhile when the client catches up;
- **queued** (``QueuedListener``): a stream served another way (Django's own ASGI handler,
  the test client) is a streaming answer (``events``), woken for what was queued.

More than ``MAX_PENDING`` events waiting for one stream: the rest are dropped and the stream
is told to refresh everything (``OVERFLOW``), as after a Redis gap (``push_all``).
Keep-alives come from one ticker per event loop for all its streams, not a timer in each.
"""

from __future__ import annotations

import asyncio
import logging
import types
from collections.abc import AsyncGenerator, Awaitable, Callable, Coroutine, Generator
from typing import Any

from django.http import HttpRequest, StreamingHttpResponse
from django_eventstream import views

from scoring import live_fanout

LOG = logging.getLogger(__name__)
KEEP_ALIVE_SECONDS = 20.0
OPENING = (":" + " " * 2048 + "\n\nevent: stream-open\ndata:\n\n").encode()
"""The first words: padding past what some proxies hold back, then ``stream-open``."""
KEEP_ALIVE = b"event: keep-alive\ndata:\n\n"
OVERFLOW = live_fanout.OVERFLOW
MAX_PENDING = views.MAX_PENDING
"""Events kept for a stream that cannot take them yet; past it: ``OVERFLOW``."""

_tickers: dict[int, asyncio.Task] = {}


class Listener:
    """One open stream of this process: its channels and its event loop."""

    __slots__ = ("channels", "loop", "held", "overflow")

    def __init__(self, channels: set[str], loop: asyncio.AbstractEventLoop) -> None:
        """A stream of ``channels`` served in ``loop``."""
        self.channels = channels
        self.loop = loop
        self.held: list[bytes] | None = None
        """What waits to be written (None: nothing waits)."""
        self.overflow = False

    def push(self, data: bytes) -> None:
        """Write ``data`` to the stream (in its loop)."""
        raise NotImplementedError

    def _hold(self, data: bytes) -> None:
        """Keep ``data`` until the stream can take it (past ``MAX_PENDING``: ``OVERFLOW``)."""
        assert self.held is not None
        if len(self.held) < MAX_PENDING:
            self.held.append(data)
        else:
            self.overflow = True

    def _take(self) -> bytes:
        """What was held, as one write (with ``OVERFLOW`` after what was lost)."""
        held, overflow = self.held or [], self.overflow
        self.held, self.overflow = [], False
        return b"".join(held) + (OVERFLOW if overflow else b"")


class QueuedListener(Listener):
    """A stream that is a streaming answer (``events``): what is pushed waits for it."""

    __slots__ = ("wake",)

    def __init__(self, channels: set[str], loop: asyncio.AbstractEventLoop) -> None:
        """A stream of ``channels`` in ``loop``, with nothing queued."""
        super().__init__(channels, loop)
        self.held = []
        self.wake = asyncio.Event()

    def push(self, data: bytes) -> None:
        """Queue ``data`` and wake the stream."""
        self._hold(data)
        self.wake.set()

    async def next_write(self) -> bytes:
        """What was queued since the last write, once there is something."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            body = self._take()
            if body:
                return body


Send = Callable[[dict[str, Any]], Coroutine[Any, Any, None]]


class DirectListener(Listener):
    """A stream written through the server's ASGI ``send`` as an event comes (``hold``)."""

    __slots__ = ("send",)

    def __init__(self, channels: set[str], loop: asyncio.AbstractEventLoop,
                 send: Send) -> None:
        """A stream of ``channels`` in ``loop``, written with ``send``."""
        super().__init__(channels, loop)
        self.send = send

    def push(self, data: bytes) -> None:
        """Write ``data`` now; when the server holds the write back (a slow client), it is
        finished by a task, and what comes meanwhile waits for it."""
        if self.held is not None:
            self._hold(data)
            return
        writing = self.send({"type": "http.response.body", "body": data, "more_body": True})
        try:
            waits_for = writing.send(None)
        except StopIteration:
            return  # written (uvicorn: unless its flow control holds the connection back)
        except Exception:
            LOG.debug("live stream: a write failed (the client has gone)", exc_info=True)
            return
        self.held = []
        self.loop.create_task(self._catch_up(writing, waits_for))

    async def _catch_up(self, writing: Coroutine, waits_for: Any) -> None:
        """Finish the write held back, then write what came meanwhile, until none waits."""
        try:
            await _resumed(writing, waits_for)
            while self.held or self.overflow:
                await self.send({"type": "http.response.body", "body": self._take(),
                                 "more_body": True})
        except Exception:
            LOG.debug("live stream: a write failed (the client has gone)", exc_info=True)
        finally:
            self.held, self.overflow = None, False


@types.coroutine
def _resumed(coroutine: Coroutine, waits_for: Any) -> Generator[Any, Any, None]:
    """Await the rest of ``coroutine``, which was run by hand until it waited for
    ``waits_for`` (a future): the task running this waits for it, then goes on with it."""
    while True:
        try:
            sent = yield waits_for
        except GeneratorExit:
            coroutine.close()
            raise
        except BaseException as error:
            try:
                waits_for = coroutine.throw(error)
            except StopIteration:
                return
        else:
            try:
                waits_for = coroutine.send(sent)
            except StopIteration:
                return


class LoopListenerManager(views.ListenerManager):
    """The library's listener manager, writing an event to its listeners in their own loop."""

    def add_to_queues(self, channel: str, event: Any) -> None:
        """Send the event to the channel's listeners: here when this is their loop, else
        handed to each of their loops in one call."""
        data = _encoded(event)
        for loop in self._loops(channel):
            self._call_in(loop, self._push_here, channel, data, loop)

    def push_all(self, data: bytes) -> int:
        """Send ``data`` to every listener of this process (``OVERFLOW``: refresh all); how
        many listeners there were."""
        with self.lock:
            listeners = {listener for group in self.listeners_by_channel.values()
                         for listener in group}
        for loop in {listener.loop for listener in listeners}:
            self._call_in(loop, self._push_all_here, data, loop)
        return len(listeners)

    def _loops(self, channel: str) -> set[asyncio.AbstractEventLoop]:
        """The event loops of the channel's listeners."""
        with self.lock:
            return {listener.loop for listener in self.listeners_by_channel.get(channel, ())}

    @staticmethod
    def _call_in(loop: asyncio.AbstractEventLoop, function: Callable[..., None],
                 *args: Any) -> None:
        """``function(*args)`` in ``loop``: now when it is this thread's running loop."""
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if loop is running:
            function(*args)
        elif not loop.is_closed():
            loop.call_soon_threadsafe(function, *args)

    def _push_here(self, channel: str, data: bytes, loop: asyncio.AbstractEventLoop) -> None:
        """Write ``data`` to the channel's listeners of ``loop`` (in it)."""
        with self.lock:
            listeners = [listener for listener in self.listeners_by_channel.get(channel, ())
                         if listener.loop is loop]
        for listener in listeners:
            listener.push(data)

    def _push_all_here(self, data: bytes, loop: asyncio.AbstractEventLoop) -> None:
        """Write ``data`` to every listener of ``loop`` (in it)."""
        for listener in self.listeners_of(loop):
            listener.push(data)

    def keep_alive(self, loop: asyncio.AbstractEventLoop) -> None:
        """A keep-alive to every stream of ``loop`` (in it)."""
        for listener in self.listeners_of(loop):
            listener.push(KEEP_ALIVE)

    def listeners_of(self, loop: asyncio.AbstractEventLoop) -> list[Listener]:
        """Every listener of ``loop``, once each."""
        with self.lock:
            return list({listener for group in self.listeners_by_channel.values()
                         for listener in group if listener.loop is loop})


views.listener_manager = LoopListenerManager()


def manager() -> LoopListenerManager:
    """This process's listener manager."""
    current = views.get_listener_manager()
    assert isinstance(current, LoopListenerManager)
    return current


def _encoded(item: Any) -> bytes:
    """An event as the stream sends it (bytes: written as they are)."""
    from django_eventstream.utils import sse_encode_event

    return sse_encode_event(item.type, item.data).encode()


async def _tick(listeners: LoopListenerManager) -> None:
    """Every ``KEEP_ALIVE_SECONDS``, the keep-alives of this loop's streams."""
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(KEEP_ALIVE_SECONDS)
        listeners.keep_alive(loop)


def _start(listener: Listener) -> None:
    """Listen: the process's subscriber running, the listener known, the loop's ticker."""
    live_fanout.ensure_subscriber()
    listeners = manager()
    listeners.add_listener(listener)
    task = _tickers.get(id(listener.loop))
    if task is None or task.done() or task.get_loop() is not listener.loop:
        _tickers[id(listener.loop)] = listener.loop.create_task(_tick(listeners))


async def events(listener: QueuedListener) -> AsyncGenerator[bytes, None]:
    """The stream as a streaming answer: its opening, then what it is pushed, until the
    client leaves."""
    _start(listener)
    try:
        yield OPENING
        while True:
            yield await listener.next_write()
    finally:
        manager().remove_listener(listener)


async def hold(channels: set[str], send: Send, receive: Callable[[], Awaitable[dict]]) -> None:
    """The stream served straight (``config.asgi``, its answer's head sent): its opening, then
    each event written as it comes (``DirectListener``), until the client leaves."""
    await send({"type": "http.response.body", "body": OPENING, "more_body": True})
    listener = DirectListener(channels, asyncio.get_running_loop(), send)
    _start(listener)
    try:
        while (await receive())["type"] != "http.disconnect":
            pass
    finally:
        manager().remove_listener(listener)


class Stream:
    """A stream's answer before it is served: its channels; iterated, the streaming answer
    (``events``, started at the first step: the view has no event loop)."""

    def __init__(self, channels: set[str]) -> None:
        """A stream of ``channels``."""
        self.channels = channels
        self._events: AsyncGenerator[bytes, None] | None = None

    def __aiter__(self) -> Stream:
        """Itself."""
        return self

    async def __anext__(self) -> bytes:
        """The stream's next write."""
        if self._events is None:
            self._events = events(QueuedListener(self.channels, asyncio.get_running_loop()))
        return await anext(self._events)

    async def aclose(self) -> None:
        """Stop listening."""
        if self._events is not None:
            await self._events.aclose()


def open_stream(request: HttpRequest, channels: list[str]) -> StreamingHttpResponse:
    """The streaming answer of the channels (already checked readable); ``config.asgi``
    serves it straight (its ``live_stream``)."""
    from django_eventstream.utils import add_default_headers

    stream = Stream(set(channels))
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response.live_stream = stream  # type: ignore[attr-defined]  # read by config.asgi
    add_default_headers(response, request=request)
    return response
