"""The live bench's load generator: N event streams held open on loopback (a process of its own).

    python bench/live_clients.py PORT PATH COUNT SECONDS

Opens COUNT connections to 127.0.0.1:PORT, each ``GET PATH`` (the stream of a channel), at
most ``IN_FLIGHT`` being opened at once, and prints ``READY <open> <failed>`` once each has its
``stream-open`` (or failed). Then it notes, per stream, when each event's token arrived
(wall clock), until SECONDS have passed since the start or stdin is closed, and prints one
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


async def hold(port: int, path: str, streams: Streams, gate: asyncio.Semaphore,
               ready: asyncio.Event, total: int) -> None:
    """One stream: open it, wait for stream-open, then note each event's token as it comes."""
    try:
        async with gate:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         "Accept: text/event-stream\r\n\r\n".encode())
            buffer = b""
            while b"stream-open" not in buffer:
                chunk = await reader.read(65536)
                if not chunk:
                    raise ConnectionError("closed before stream-open")
                buffer += chunk
    except (OSError, ConnectionError):
        streams.failed += 1
        if streams.opened + streams.failed >= total:
            ready.set()
        return
    streams.opened += 1
    if streams.opened + streams.failed >= total:
        ready.set()
    tail = b""
    try:
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                break
            now = time.time()
            text = tail + chunk
            for token in TOKEN.findall(text):
                streams.arrivals.setdefault(token.decode(), []).append(now)
            tail = text[-200:]  # a token cut between two reads is found the next time
            if TOKEN.search(tail):
                tail = b""
    except OSError:
        pass
    streams.closed += 1
    writer.close()


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
