"""The recorder: API calls in-process, one request and response kept per operation id.

Every call goes through DRF's ``APIClient`` to the real views. Time is a fake clock that moves
only when a call is made (30 s each) or the scenario says, and a draw's parties are created
in a seeded order, so ids, clocks and timestamps come out the same on every run; values that
are random by design (tokens, secrets, protocol ids, hashes of signed files) are replaced by
stable stand-ins of the same shape when written.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from unittest import mock

from rest_framework.test import APIClient

HOST = "domino.example.org"
"""The host name the recorded calls are made to (absolute links in bodies carry it)."""
HOOK_URL = "https://hooks.example.org/domino"
"""What the local webhook receiver's address is written as."""
STARTED = datetime(2026, 5, 16, 7, 0, tzinfo=UTC)
"""The fake clock's start: 10:00 in Moscow on the tournament's first day."""
SEED = 20260516
"""The seed of everything random by design that ids or answers depend on."""
STEP = timedelta(seconds=30)
"""How far the clock moves with each call."""

RANDOM_KEYS = ("token", "secret", "public_id", "short_code", "sha256", "fingerprint", "prefix")
"""Keys whose values are random by design: written as stable stand-ins of the same shape."""
MEASURED_KEYS = {"ms": 42.0}
"""Keys whose values are measured durations: written as a fixed value."""


class ExampleError(AssertionError):
    """A call of the scenario did not answer as the scenario expects."""


class Clock:
    """A fake ``timezone.now``: moves only when told."""

    def __init__(self, start: datetime = STARTED) -> None:
        """Start at ``start``."""
        self.now = start

    def __call__(self) -> datetime:
        """The current fake time."""
        return self.now

    def advance(self, **delta: float) -> None:
        """Move the clock forward (``minutes=16``)."""
        self.now += timedelta(**delta)


@dataclass
class Operation:
    """An operation of the schema: its method, path pattern and id."""

    method: str
    pattern: re.Pattern[str]
    operation_id: str
    has_body: bool


def schema_operations(schema: dict[str, Any]) -> list[Operation]:
    """Every operation of an OpenAPI document, with a regex of its path; the paths with fewer
    parameters first (``stages/qualifiers/`` before ``stages/{id}/``)."""
    found = []
    for path, item in sorted(schema["paths"].items(), key=lambda kv: kv[0].count("{")):
        regex = re.escape(path)
        regex = re.sub(r"\\\{[^}]+\\\}", "[^/]+", regex)
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                found.append(Operation(method.upper(), re.compile(f"^{regex}$"),
                                       operation["operationId"], "requestBody" in operation))
    return found


@dataclass
class Recorder:
    """Makes API calls as a user and keeps one example per operation id."""

    operations: list[Operation]
    clock: Clock = field(default_factory=Clock)
    examples: dict[str, dict[str, Any]] = field(default_factory=dict)
    receiver_url: str = ""

    def client(self, user: Any = None) -> APIClient:
        """An API client, logged in as ``user`` (anonymous without one)."""
        client = APIClient(HTTP_HOST=HOST)
        if user is not None:
            client.force_authenticate(user)
        return client

    def operation_id(self, method: str, path: str) -> str:
        """The id of the schema's operation a call goes to."""
        for operation in self.operations:
            if operation.method == method and operation.pattern.match(path):
                return operation.operation_id
        raise ExampleError(f"{method} {path} is no operation of the schema")

    def call(self, client: APIClient, method: str, path: str, body: Any = None, *,
             query: dict[str, Any] | None = None, expect: int | None = None,
             multipart: dict[str, Any] | None = None, keep: bool = False,
             error: bool = False) -> Any:
        """Make a call; keep it as its operation's example; answer its parsed body.

        ``expect`` is the status the scenario expects (any 2xx without it). The first answer
        of an operation is kept unless a later call says ``keep``; ``error`` keeps a refusal
        among the operation's error examples instead.
        """
        self.clock.advance(seconds=STEP.total_seconds())
        operation_id = self.operation_id(method.upper(), path)
        kwargs: dict[str, Any] = {"data": query} if query else {}
        if multipart is not None:
            kwargs = {"data": multipart, "format": "multipart"}
        elif body is not None:
            kwargs = {"data": body, "format": "json"}
        if query and method != "get":
            raise ExampleError("a query string only with GET")
        response = getattr(client, method)(path, **kwargs)
        content_type = response.get("Content-Type", "").split(";")[0]
        parsed = _parsed(response, content_type)
        wanted = expect if expect is not None else response.status_code
        if response.status_code != wanted or (expect is None and response.status_code >= 300):
            raise ExampleError(f"{method.upper()} {path}: {response.status_code} {parsed!r}")
        entry = {
            "method": method.upper(),
            "path": path,
            **({"query": {k: str(v) for k, v in query.items()}} if query else {}),
        }
        if body is not None or multipart is not None:
            entry["request"] = {
                "content_type": "multipart/form-data" if multipart is not None
                else "application/json",
                "body": body,
            }
        entry["response"] = {"status": response.status_code, "content_type": content_type,
                             "body": parsed}
        kept = self.examples.setdefault(operation_id, {})
        if error:
            kept.setdefault("errors", []).append(entry)
        elif keep or "response" not in kept:
            kept.update(entry)
        return parsed

    def written(self) -> dict[str, Any]:
        """The examples by operation id, random values replaced by stand-ins."""
        examples = {key: self.examples[key] for key in sorted(self.examples)}
        missing = [key for key, value in examples.items() if "response" not in value]
        if missing:
            raise ExampleError(f"only refusals were recorded for {missing}")
        text = json.dumps(examples, ensure_ascii=False)
        if self.receiver_url:
            text = text.replace(self.receiver_url, HOOK_URL)
        # the longest first: a value that starts another (a token's prefix) must not cut it
        for value, stand_in in sorted(_stand_ins(examples).items(), key=lambda v: -len(v[0])):
            text = text.replace(json.dumps(value)[1:-1], json.dumps(stand_in)[1:-1])
        return _measured(json.loads(text))


def _parsed(response: Any, content_type: str) -> Any:
    """A response body as data: JSON parsed, a PDF as its first line, nothing as None."""
    if not response.content:
        return None
    if content_type == "application/json":
        return response.json()
    if content_type == "application/pdf":
        return response.content.split(b"\n", 1)[0].decode("latin-1")
    return response.content.decode("utf-8", "replace")


def _walk(node: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) of a JSON document, depth first, in document order."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield key, value
            yield from _walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item)


def _stand_in(value: str, key: str, number: int) -> str:
    """A stable value of the same shape as ``value`` (hex stays hex, letters stay letters)."""
    seed = hashlib.sha256(f"{key}-{number}".encode()).hexdigest() * 4
    alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
    out = []
    for index, char in enumerate(value):
        digit = int(seed[index], 16)
        if char in "0123456789abcdef" and re.fullmatch(r"[0-9a-f]+", value):
            out.append(seed[index])
        elif char.isalnum():
            out.append(alphabet[digit % len(alphabet)])
        else:
            out.append(char)
    return "".join(out)


def _stand_ins(examples: dict[str, Any]) -> dict[str, str]:
    """Stand-ins for the random values, numbered by key in order of first appearance."""
    found: dict[str, str] = {}
    counts: dict[str, int] = {}
    for key, value in _walk(examples):
        if key in RANDOM_KEYS and isinstance(value, str) and value and value not in found:
            counts[key] = counts.get(key, 0) + 1
            found[value] = _stand_in(value, key, counts[key])
    return found


def _measured(node: Any) -> Any:
    """The document with measured durations replaced by a fixed value."""
    if isinstance(node, dict):
        return {key: MEASURED_KEYS[key] if key in MEASURED_KEYS and isinstance(value, float)
                else _measured(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_measured(item) for item in node]
    return node


@contextmanager
def repeatable(clock: Clock) -> Iterator[Clock]:
    """The same run every time: ``timezone.now`` is the fake clock, draws shuffle by a seed.

    A draw's parties are created in random order (their ids do not give the draw away);
    here the order comes from a fixed seed.
    """
    with mock.patch("django.utils.timezone.now", clock), mock.patch(
        "tournaments.rounds.draws._shuffle", random.Random(SEED).shuffle
    ):
        yield clock


@contextmanager
def webhook_receiver() -> Iterator[str]:
    """A local HTTP receiver answering 200 to every webhook delivery; yields its URL."""

    class Handler(BaseHTTPRequestHandler):
        """Answers every POST with 200 "ok"."""

        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            """Read the delivery, answer 200."""
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: object) -> None:
            """Log nothing."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hooks/domino"
    finally:
        server.shutdown()
        server.server_close()
