"""The live bench's load generator: N event streams held open on loopback (a process of its own).

    python bench/live_clients.py PORT PATH COUNT SECONDS

Opens COUNT connections to 127.0.0.1:PORT, each ``GET PATH`` (the stream of a channel), at
most ``IN_FLIGHT`` being opened at once, and prints ``READY <open> <failed>`` once each has its
``stream-open`` (or failed). Then it notes, per stream, when each event's token arrived
(wall clock, as its bytes are handed over by the event loop: a protocol's ``data_received``),
until SECONDS have passed since the start or stdin is closed, and prints one
JSON line: ``{"arrivals": {token: [times…]}, "open": n, "closed": n}``. Bounded in count
(COUNT), in time (SECONDS) and to loopback.
"""

from __future__ import annotations

import asyncio
import json
import re
import resource
import sys
import time

IN_FLIGHT = 200
TOKEN = re.compile(rb'"token": "([^"]+)"')


class Streams:
    """What the streams have seen."""

    def __init__(self) -> None:
        self.opened = 0
        self.failed = 0
        self.closed = 0
        self.arrivals: dict[str, list[float]] = {}


class Stream(asyncio.Protocol):
    """One stream's connection: its request, then each event's token noted as it arrives.

    A protocol, not a task reading a stream: an event's arrival is one call noting the time,
    with no task woken (the load generator shares the machine's two cores with the node).
    """

    def __init__(self, path: str, streams: Streams, opened: asyncio.Future) -> None:
        self.path = path
        self.streams = streams
        self.opened = opened
        self.buffer = b""
        self.tail = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Send the stream's request."""
        request = (f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   "Accept: text/event-stream\r\n\r\n")
        transport.write(request.encode())  # type: ignore[attr-defined]  # a TCP transport

    def data_received(self, data: bytes) -> None:
        """Wait for stream-open, then note the time of each token (an event) in ``data``."""
        now = time.time()
        if not self.opened.done():
            self.buffer += data
            if b"stream-open" not in self.buffer:
                return
            data = self.buffer[self.buffer.index(b"stream-open"):]
            self.buffer = b""
            self.opened.set_result(True)
        text = self.tail + data
        for token in TOKEN.findall(text):
            self.streams.arrivals.setdefault(token.decode(), []).append(now)
        self.tail = text[-200:]  # a token cut between two reads is found the next time
        if TOKEN.search(self.tail):
            self.tail = b""

    def connection_lost(self, exc: Exception | None) -> None:
        """Count a stream closed (before stream-open: it failed)."""
        if not self.opened.done():
            self.opened.set_exception(ConnectionError("closed before stream-open"))
        else:
            self.streams.closed += 1


async def hold(port: int, path: str, streams: Streams, gate: asyncio.Semaphore,
               ready: asyncio.Event, total: int) -> None:
    """One stream: open it and wait for stream-open (its protocol notes the events after)."""
    loop = asyncio.get_running_loop()
    try:
        async with gate:
            opened = loop.create_future()
            await loop.create_connection(lambda: Stream(path, streams, opened),
                                         "127.0.0.1", port)
            await opened
    except (OSError, ConnectionError):
        streams.failed += 1
    else:
        streams.opened += 1
    if streams.opened + streams.failed >= total:
        ready.set()


async def main(port: int, path: str, count: int, seconds: float) -> None:
    """Open the streams, say READY, listen until the time is up or stdin closes."""
    started = time.monotonic()
    streams, gate, ready = Streams(), asyncio.Semaphore(IN_FLIGHT), asyncio.Event()
    tasks = [asyncio.create_task(hold(port, path, streams, gate, ready, count))
             for _ in range(count)]
    try:
        await asyncio.wait_for(ready.wait(), timeout=seconds)
    except TimeoutError:
        pass
    print(f"READY {streams.opened} {streams.failed}", flush=True)
    loop = asyncio.get_running_loop()
    stdin_closed = loop.run_in_executor(None, sys.stdin.read)
    left = max(seconds - (time.monotonic() - started), 0.1)
    await asyncio.wait([stdin_closed], timeout=left)
    for task in tasks:
        task.cancel()
    print(json.dumps({"arrivals": streams.arrivals, "open": streams.opened,
                      "closed": streams.closed}), flush=True)


if __name__ == "__main__":
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # `ulimit -n` as high as allowed
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])))
