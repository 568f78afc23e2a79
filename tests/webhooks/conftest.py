"""Fixtures for the webhook tests: a local HTTP receiver, an organizer's subscription, and the
outbox sent in the test's own thread (``send_due``)."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


@dataclass
class Received:
    """One request the receiver got: headers, raw body, parsed body and arrival time."""

    headers: dict[str, str]
    body: bytes
    arrived: float

    @property
    def json(self) -> dict:
        return json.loads(self.body)


@dataclass
class Receiver:
    """A local HTTP server that records every POST and answers the scripted status codes."""

    url: str
    requests: list[Received] = field(default_factory=list)
    codes: list[int] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    delay: float = 0.0  # seconds it takes to answer

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Received]:
        """Wait until ``count`` requests arrived; return them."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.requests) >= count:
                    return list(self.requests)
            time.sleep(0.01)
        return list(self.requests)


def send_due(timeout: float = 15.0, *, until_empty: bool = True):
    """Send the outbox here, as a sender does: sweep, sleep until the next retry is due, sweep
    again, until nothing is pending (or ``timeout``); what was done."""
    from scoring.webhooks import outbox

    deadline = time.monotonic() + timeout
    total = outbox.Sweep()
    while True:
        done = outbox.sweep()
        total.outcomes.extend(done.outcomes)
        left = deadline - time.monotonic()
        if not until_empty or done.next_in is None or outbox.pending_count() == 0 or left <= 0:
            return total
        time.sleep(max(0.01, min(done.next_in, left)))


def start_receiver(*, listening: bool = True) -> tuple[Receiver, ThreadingHTTPServer]:
    """Serve a receiver on 127.0.0.1 (a free port) in a daemon thread.

    ``listening=False``: the port is bound but nobody listens (a receiver that is down: every
    connection is refused) until ``open_receiver`` is called.
    """
    receiver = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with receiver.lock:
                receiver.requests.append(Received(dict(self.headers), body, time.time()))
                code = receiver.codes.pop(0) if receiver.codes else 200
            time.sleep(receiver.delay)
            answer = b"ok" if code < 300 else b"receiver is down " * 200
            self.send_response(code)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler, bind_and_activate=False)
    server.server_bind()
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hooks/domino"
    if listening:
        open_receiver(server)
    return receiver, server


def open_receiver(server: ThreadingHTTPServer) -> None:
    """Start listening and answering (the receiver is back)."""
    server.server_activate()
    threading.Thread(target=server.serve_forever, daemon=True).start()


@pytest.fixture
def receiver():
    """A local receiver; stopped after the test."""
    rec, server = start_receiver()
    yield rec
    server.shutdown()
    server.server_close()


@pytest.fixture
def allow_loopback(settings):
    """The tests' receivers listen on 127.0.0.1."""
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    settings.WEBHOOK_RETRY_BASE_SECONDS = 1.0
    return settings


@pytest.fixture
def subscription(allow_loopback, tournament, organizer, receiver):
    """The organizer's subscription to every event of ``tournament``."""
    from scoring.models import WEBHOOK_EVENTS
    from scoring.webhooks.services import create_subscription

    return create_subscription(tournament, url=receiver.url,
                               events=[name for name, _ in WEBHOOK_EVENTS], actor=organizer)
