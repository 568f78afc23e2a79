"""The live updates' fan-out through Redis (``scoring.live_fanout``): an event sent by another
process reaches a stream served under ASGI (uvicorn) with only Redis between them, and the
subscriber comes back after its connection is killed, telling the streams to refresh."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.conf import settings

from scoring import live, live_fanout
from tests.e2e.asgi_server import asgi_live_server  # noqa: F401 - the fixture

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not getattr(settings, "LIVE_REDIS", None),
                       reason="needs REDIS_URL (or a redis:// broker); .ci/run sets it"),
]

SEND = """
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.conf import settings
from scoring import live
assert settings.LIVE_REDIS["db"] == int(sys.argv[2]), settings.LIVE_REDIS
live.send([sys.argv[1]], {"kind": "deal", "party": 7, "token": "p7.3"})
"""


def _open(base: str, channel: str) -> http.client.HTTPResponse:
    """A stream of the channel, read past its opening."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    connection.request("GET", f"/live/?channel={channel}")
    response = connection.getresponse()
    assert response.status == 200
    _read_until(response, b"event: stream-open")
    return response


def _read_until(response: http.client.HTTPResponse, needle: bytes, seconds: float = 8) -> bytes:
    """What the stream says until ``needle`` (fails after ``seconds``)."""
    said, deadline = b"", time.monotonic() + seconds
    while needle not in said:
        assert time.monotonic() < deadline, f"not heard: {needle!r} in {said[-300:]!r}"
        said += response.fp.readline()
    return said


def _subscribed() -> live_fanout.Subscriber:
    """This process's subscriber, once it listens."""
    subscriber = live_fanout.ensure_subscriber()
    assert subscriber is not None and subscriber.subscribed.wait(5)
    return subscriber


def test_an_event_sent_by_another_process_reaches_the_stream(asgi_live_server, tournament):  # noqa: F811
    channel = live.tournament_channel(tournament.pk)
    stream = _open(asgi_live_server, channel)
    _subscribed()
    db = str(settings.LIVE_REDIS["db"])
    subprocess.run([sys.executable, "-c", SEND, channel, db], cwd=ROOT, env=os.environ.copy(),
                   check=True, timeout=60)
    said = _read_until(stream, b'"token": "p7.3"')
    assert f'"channel": "{channel}"'.encode() in said and b'"party": 7' in said
    stream.close()


def test_the_subscriber_reconnects_when_its_connection_is_killed(asgi_live_server, tournament):  # noqa: F811
    """Killing the subscriber's Redis connection (not the shared server): it subscribes again,
    the stream is told to refresh everything (events meanwhile are lost), and events flow."""
    channel = live.tournament_channel(tournament.pk)
    stream = _open(asgi_live_server, channel)
    subscriber = _subscribed()
    before = subscriber.subscriptions
    admin = redis.Redis(**settings.LIVE_REDIS)
    ours = [client["id"] for client in admin.client_list() if client["name"] == subscriber.name]
    assert len(ours) == 1
    admin.client_kill_filter(_id=ours[0])
    _read_until(stream, b'"token": "overflow"')  # refresh all: told after the reconnection
    assert subscriber.subscriptions == before + 1 and subscriber.subscribed.is_set()
    live.send([channel], {"kind": "deal", "party": 8, "token": "p8.1"})
    _read_until(stream, b'"token": "p8.1"')
    stream.close()
    admin.close()
