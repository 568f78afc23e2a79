"""Live updates across processes: Redis pub/sub (``LIVE_REDIS``), one subscriber per process.

``publish`` sends an event to Redis when the site has one (``config.env.live_redis``), else
straight to this process's streams; a publish that fails (Redis down) reaches this process's
streams only, and is logged. Each web process that serves streams runs one subscriber thread
(``ensure_subscriber``, called when a stream opens) that hands what Redis delivers to the
library's listener manager, which wakes the streams in their event loops. The subscriber
does not depend on any event loop, reconnects for ever (a lost connection, a silent one:
pinged when quiet, dropped when it does not answer), and after a reconnection tells every
stream of the process to refresh: the events published meanwhile were lost.

django-eventstream's own Redis support is not used: it starts its subscriber once per process
as a task of the first stream's event loop (gone with that loop; never restarted after a lost
connection), and its pub/sub channel is shared by every database of the Redis server.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from typing import Any

from django.conf import settings

LOG = logging.getLogger(__name__)
QUIET_SECONDS = 5.0
"""The subscriber pings Redis after this long without a word from it."""
SILENT_SECONDS = 15.0
"""...and reconnects after this long without an answer."""
RETRY_SECONDS = (0.1, 0.5, 1.0, 2.0, 5.0)
"""The waits between attempts to reconnect (the last one repeated)."""
OVERFLOW = b'event: message\ndata: {"channel": "", "token": "overflow"}\n\n'
"""What a stream is told when events were lost for it (too many waiting for it, a Redis gap):
refresh everything."""


def options() -> dict | None:
    """The Redis connection of the fan-out (``LIVE_REDIS``), None: in this process only."""
    return getattr(settings, "LIVE_REDIS", None) or None


def pubsub_channel(redis_options: dict) -> str:
    """The Redis channel of the events: one per database number, as the site's data is."""
    return f"domino-live:{int(redis_options.get('db') or 0)}"


def deliver(channel: str, event_type: str, data: str) -> None:
    """Hand an event (``data``: its JSON) to this process's streams of ``channel``."""
    from django_eventstream.event import Event
    from django_eventstream.views import get_listener_manager

    get_listener_manager().add_to_queues(channel, Event(channel, event_type, data))


def refresh_all() -> int:
    """Tell every stream of this process to refresh all its parts (events may be lost);
    how many streams were told."""
    from django_eventstream.views import get_listener_manager

    push_all = getattr(get_listener_manager(), "push_all", None)  # config.live_stream's
    return push_all(OVERFLOW) if push_all is not None else 0  # none: no stream served here


_publishers: dict[tuple, Any] = {}
_publishers_lock = threading.Lock()


def publisher(redis_options: dict) -> Any:
    """This process's client that publishes (a read times out as a connection does)."""
    import redis

    key = tuple(sorted(redis_options.items()))
    with _publishers_lock:
        client = _publishers.get(key)
        if client is None:
            timeout = redis_options.get("socket_connect_timeout") or 1.0
            client = redis.Redis(**{**redis_options, "socket_timeout": timeout})
            _publishers[key] = client
    return client


_down_until = 0.0
"""After a failed publish, until when (monotonic) the others skip Redis (``DOWN_SECONDS``)."""
DOWN_SECONDS = 2.0


def publish(channel: str, event_type: str, data: str) -> None:
    """Send an event (``data``: its JSON) to the streams of ``channel`` in every process (with
    Redis down: this process's only, without waiting for Redis again for ``DOWN_SECONDS``)."""
    global _down_until
    redis_options = options()
    if redis_options is not None and time.monotonic() >= _down_until:
        import redis

        message = json.dumps({"channel": channel, "event_type": event_type, "data": data})
        try:
            publisher(redis_options).publish(pubsub_channel(redis_options), message)
            return
        except redis.RedisError:
            _down_until = time.monotonic() + DOWN_SECONDS
            LOG.warning("live updates: Redis unreachable, event for %s sent here only",
                        channel, exc_info=True)
    deliver(channel, event_type, data)


class Subscriber:
    """The process's subscription: a thread listening to the Redis channel, reconnecting."""

    def __init__(self, redis_options: dict) -> None:
        self.options = redis_options
        self.pid = os.getpid()
        self.stopped = threading.Event()
        self.subscribed = threading.Event()
        self.subscriptions = 0
        """How many times it subscribed (more than once: it reconnected)."""
        self.name = f"domino-live-{self.pid}-{id(self)}"
        """Its connection's client name in Redis (CLIENT LIST)."""
        self.thread = threading.Thread(target=self.run, name="live-subscriber", daemon=True)

    def run(self) -> None:
        """Listen until stopped, reconnecting after each lost connection."""
        attempt = 0
        while not self.stopped.is_set():
            before = self.subscriptions
            try:
                self._listen()
            except Exception:
                LOG.warning("live updates: Redis subscription lost, reconnecting", exc_info=True)
            self.subscribed.clear()
            attempt = 0 if self.subscriptions > before else attempt + 1
            self.stopped.wait(RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)])

    def _listen(self) -> None:
        """One connection: subscribe, then hand on each message; raise when it is lost."""
        import redis

        client = redis.Redis(**{**self.options, "client_name": self.name,
                                "socket_timeout": QUIET_SECONDS})
        pubsub = client.pubsub()
        try:
            pubsub.subscribe(pubsub_channel(self.options))
            heard = pinged = time.monotonic()
            while not self.stopped.is_set():
                message = pubsub.get_message(timeout=1.0)
                now = time.monotonic()
                if message is not None:
                    heard = now
                    self._handle(message)
                elif now - heard > SILENT_SECONDS:
                    raise redis.ConnectionError("Redis did not answer the subscriber's ping")
                elif now - max(heard, pinged) > QUIET_SECONDS:
                    pubsub.ping()
                    pinged = now
        finally:
            pubsub.close()
            client.close()

    def _handle(self, message: dict) -> None:
        """A subscription's confirmation (after a reconnection: refresh all) or an event."""
        if message["type"] == "subscribe":
            self.subscriptions += 1
            self.subscribed.set()
            if self.subscriptions > 1:
                refresh_all()
        elif message["type"] == "message":
            try:
                event = json.loads(message["data"])
                deliver(event["channel"], event["event_type"], event["data"])
            except (ValueError, KeyError, TypeError):
                LOG.warning("live updates: an odd message on Redis ignored", exc_info=True)


_subscriber: Subscriber | None = None
_subscriber_lock = threading.Lock()


def ensure_subscriber() -> Subscriber | None:
    """This process's running subscriber (started now if none, or after a fork, or for other
    ``LIVE_REDIS``); None without a Redis."""
    global _subscriber
    redis_options = options()
    with _subscriber_lock:
        current = _subscriber
        if redis_options is None:
            if current is not None:
                current.stopped.set()
                _subscriber = None
            return None
        if (current is not None and current.pid == os.getpid()
                and current.options == redis_options and current.thread.is_alive()):
            return current
        if current is not None:
            current.stopped.set()
        _subscriber = Subscriber(redis_options)
        _subscriber.thread.start()
        return _subscriber
