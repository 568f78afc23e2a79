"""Fixtures for the webhook tests: a local HTTP receiver and an organizer's subscription."""

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

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Received]:
        """Wait until ``count`` requests arrived; return them."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.requests) >= count:
                    return list(self.requests)
            time.sleep(0.01)
        return list(self.requests)


def start_receiver() -> tuple[Receiver, ThreadingHTTPServer]:
    """Serve a receiver on 127.0.0.1 (a free port) in a daemon thread."""
    receiver = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with receiver.lock:
                receiver.requests.append(Received(dict(self.headers), body, time.time()))
                code = receiver.codes.pop(0) if receiver.codes else 200
            answer = b"ok" if code < 300 else b"receiver is down " * 200
            self.send_response(code)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hooks/domino"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return receiver, server


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
