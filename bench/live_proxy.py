"""A proxy that buffers every whole response (the live bench's "buffering proxy"), in a thread.

Each request is sent upstream with ``Connection: close``; the answer is passed on only once
the upstream has closed the connection, all of it at once. A page comes through whole; an
event stream, which never ends, never comes through at all: what a proxy with buffering on
does to server-sent events at worst.
"""

from __future__ import annotations

import asyncio
import threading


class BufferingProxy:
    """``start()`` returns the port it listens on (loopback); ``stop()`` ends it."""

    def __init__(self, host: str, upstream_port: int) -> None:
        self.host = host
        self.upstream_port = upstream_port
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server: asyncio.base_events.Server | None = None

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One client connection: one request, its whole answer, then close."""
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.split(b"\r\n")
            kept = [line for line in lines[1:] if line and not line.lower().startswith(
                (b"connection:", b"keep-alive:"))]
            length = next((int(line.split(b":", 1)[1]) for line in kept
                           if line.lower().startswith(b"content-length:")), 0)
            body = await reader.readexactly(length) if length else b""
            upstream_reader, upstream_writer = await asyncio.open_connection(
                self.host, self.upstream_port)
            upstream_writer.write(b"\r\n".join([lines[0], *kept, b"Connection: close"])
                                  + b"\r\n\r\n" + body)
            await upstream_writer.drain()
            answer = await upstream_reader.read()  # all of it: until the upstream closes
            upstream_writer.close()
            writer.write(answer)
            await writer.drain()
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    def start(self) -> int:
        """Listen on a free loopback port; the port."""
        self.thread.start()
        future = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._handle, self.host, 0), self.loop)
        self.server = future.result(timeout=10)
        return self.server.sockets[0].getsockname()[1]

    async def _close(self) -> None:
        """Stop listening and drop the connections still held (the streams)."""
        if self.server is not None:
            self.server.close()
        held = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in held:
            task.cancel()
        await asyncio.gather(*held, return_exceptions=True)

    def stop(self) -> None:
        """Stop listening and end the thread (held streams are dropped)."""
        asyncio.run_coroutine_threadsafe(self._close(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
