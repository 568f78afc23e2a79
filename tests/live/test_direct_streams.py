"""Streams served by the site's ASGI application (``config.asgi``): opened as any request, then
held with nothing of the request kept, each event written to the server as it comes
(``config.live_stream.DirectListener``); a client too slow to read gets what came meanwhile
when it catches up, and a refresh-all past what is kept for it."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.core.signals import request_finished
from django_eventstream.event import Event

from config import live_stream
from config.asgi import application
from scoring import live, live_fanout
from scoring.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _scope(query: str) -> dict:
    """A GET of ``/live/?<query>`` as uvicorn hands it to the application."""
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": "GET", "scheme": "http", "path": "/live/", "raw_path": b"/live/",
            "query_string": query.encode(), "root_path": "",
            "headers": [(b"host", b"testserver"), (b"accept", b"text/event-stream")],
            "client": ("127.0.0.1", 1), "server": ("testserver", 80)}


def _listeners(channel: str) -> int:
    """How many listeners this process has on ``channel``."""
    manager = live_stream.manager()
    with manager.lock:
        return len(manager.listeners_by_channel.get(channel, ()))


def test_a_stream_is_held_without_its_request_and_written_as_events_come(tournament):
    channel = live.tournament_channel(tournament.pk)
    finished: list[int] = []

    def note(**_kwargs: object) -> None:
        finished.append(_listeners(channel))

    async def hear() -> tuple[dict, bytes, bytes, list[int], int]:
        talk = ApplicationCommunicator(application, _scope(f"channel={channel}"))
        await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
        head = await talk.receive_output(10)
        opening = (await talk.receive_output(10))["body"]
        ended = list(finished)  # Django's request is over once the stream is open
        sender = threading.Thread(target=live.send, args=([channel], {
            "kind": "deal", "party": 7, "token": "p7.2"}))  # as a request's commit
        sender.start()
        event = await talk.receive_output(10)
        sender.join()
        held = _listeners(channel)
        await talk.send_input({"type": "http.disconnect"})
        await talk.wait(10)
        return head, opening, event["body"], ended, held

    subscriber = live_fanout.ensure_subscriber()  # with a Redis: listening before the send
    assert subscriber is None or subscriber.subscribed.wait(5)
    request_finished.connect(note, dispatch_uid="direct-stream")
    try:
        head, opening, event, ended, held = async_to_sync(hear)()
    finally:
        request_finished.disconnect(dispatch_uid="direct-stream")
    headers = dict(head["headers"])
    assert head["status"] == 200
    assert headers[b"Content-Type"].startswith(b"text/event-stream")
    assert headers[b"Cache-Control"] == b"no-cache" and headers[b"X-Accel-Buffering"] == b"no"
    assert b"event: stream-open" in opening
    assert ended == [0]  # finished before the stream listened: nothing of it waits on Django
    assert event.startswith(b"event: message\ndata: ") and b'"token": "p7.2"' in event
    assert f'"channel": "{channel}"'.encode() in event
    assert held == 1 and _listeners(channel) == 0  # gone with its client


def test_a_refused_stream_is_answered_as_any_request(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(public=False)

    async def status(query: str) -> int:
        talk = ApplicationCommunicator(application, _scope(query))
        await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
        head = await talk.receive_output(10)
        while (await talk.receive_output(10)).get("more_body"):
            pass
        return head["status"]

    assert async_to_sync(status)(f"channel={live.tournament_channel(tournament.pk)}") == 403
    assert async_to_sync(status)("") == 400


class SlowClient:
    """A server's ``send`` whose client stops reading while ``paused`` (the write waits, as
    uvicorn's flow control makes it), with what it wrote."""

    def __init__(self) -> None:
        self.paused = False
        self.resumed = asyncio.Event()
        self.written: list[bytes] = []

    async def send(self, message: dict) -> None:
        if self.paused:
            await self.resumed.wait()
        self.written.append(message["body"])


def test_a_slow_client_gets_what_came_meanwhile_then_a_refresh_past_what_is_kept():
    async def run() -> tuple[list[bytes], list[bytes], list[bytes]]:
        client = SlowClient()
        listener = live_stream.DirectListener({"tournament-1"}, asyncio.get_running_loop(),
                                              client.send)
        listener.push(b"first")
        at_once = list(client.written)  # written in the call: no task, no wait
        client.paused = True
        for n in range(2 + live_stream.MAX_PENDING):
            listener.push(b"e%d" % n)
        client.paused = False
        client.resumed.set()
        for _ in range(50):
            await asyncio.sleep(0)
        caught_up = list(client.written)
        listener.push(b"after")
        return at_once, caught_up, client.written

    at_once, caught_up, written = async_to_sync(run)()
    assert at_once == [b"first"]
    kept = b"".join(b"e%d" % n for n in range(1, 1 + live_stream.MAX_PENDING))
    assert caught_up == [b"first", b"e0", kept + live_fanout.OVERFLOW]
    assert written == [*caught_up, b"after"]


def test_refresh_all_reaches_every_stream_of_the_process(monkeypatch):
    """After a Redis gap every stream, written straight or queued, is told to refresh."""
    monkeypatch.setattr(live_stream, "_tickers", {})

    async def run() -> tuple[int, list[bytes], bytes]:
        loop = asyncio.get_running_loop()
        client = SlowClient()
        direct = live_stream.DirectListener({"tournament-1"}, loop, client.send)
        queued = live_stream.QueuedListener({"party-2"}, loop)
        manager = live_stream.manager()
        for listener in (direct, queued):
            manager.add_listener(listener)
        try:
            told = await asyncio.to_thread(live_fanout.refresh_all)  # the subscriber's thread
            heard = await asyncio.wait_for(queued.next_write(), 5)
        finally:
            for listener in (direct, queued):
                manager.remove_listener(listener)
        return told, client.written, heard

    told, written, heard = async_to_sync(run)()
    assert told == 2
    assert written == [live_fanout.OVERFLOW] and heard == live_fanout.OVERFLOW


def test_every_stream_of_the_loop_gets_the_tickers_keep_alive():
    async def run() -> tuple[list[bytes], list[bytes], list[bytes]]:
        loop = asyncio.get_running_loop()
        quiet, busy = SlowClient(), SlowClient()
        listeners = [live_stream.DirectListener({"tournament-1"}, loop, quiet.send),
                     live_stream.DirectListener({"tournament-2"}, loop, busy.send),
                     live_stream.QueuedListener({"tournament-2"}, loop)]
        manager = live_stream.manager()
        for listener in listeners:
            manager.add_listener(listener)
        try:
            manager.keep_alive(loop)
            manager.add_to_queues("tournament-2", Event("tournament-2", "message", "{}"))
            manager.keep_alive(loop)
            queued = await asyncio.wait_for(listeners[2].next_write(), 5)
        finally:
            for listener in listeners:
                manager.remove_listener(listener)
        return quiet.written, busy.written, [queued]

    quiet, busy, queued = async_to_sync(run)()
    event = b"event: message\ndata: {}\n\n"
    assert quiet == [live_stream.KEEP_ALIVE] * 2
    assert busy == [live_stream.KEEP_ALIVE, event, live_stream.KEEP_ALIVE]
    assert queued == [live_stream.KEEP_ALIVE + event + live_stream.KEEP_ALIVE]
