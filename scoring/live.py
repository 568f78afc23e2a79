"""Live updates: what changed, pushed to the open pages as server-sent events after commit.

The one place that publishes (docs/architecture.md, "Live updates"): the party's event log
(``scoring.party.event_log.append_event``, which every change of a party goes through) calls
``party_changed``; the round services call ``round_changed``; ``entrants_moved`` follows
``scoring.roster`` (a name, a withdrawal, a table changed). Each event is sent when the
caller's transaction commits, never on a rollback, to the tournament's channel (and the
party's, for the desk). It names what changed (ids, the party's version, the round's state)
and a ``token``; the page fetches its fragment with its usual conditional GET, sending the
token as ``Live-Version`` so that the cached ETag of the moment before is not answered.

Fan-out (``scoring.live_fanout``): to this process's streams (django-eventstream's listener
manager); across web nodes through Redis pub/sub when ``LIVE_REDIS`` is set
(``config.settings``: from ``REDIS_URL``).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction

from scoring import live_fanout

EVENT_TYPE = "message"
TOKEN_HEADER = "Live-Version"
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9.:_-]{1,64}")
Event = Callable[[], dict[str, Any]]
"""An event's data, built when it is sent (the versions the transaction left)."""
_CHANNEL = re.compile(r"(tournament|party)-([0-9]{1,18})")


def tournament_channel(tournament_id: int) -> str:
    """The channel of a tournament's pages: every change of its parties and rounds."""
    return f"tournament-{tournament_id}"


def party_channel(party_id: int) -> str:
    """The channel of one party (the desk's "another device changed this party")."""
    return f"party-{party_id}"


def parse_channel(channel: str) -> tuple[str, int] | None:
    """``("tournament", 12)`` or ``("party", 5)`` for a channel's name, None for another."""
    match = _CHANNEL.fullmatch(channel)
    return (match.group(1), int(match.group(2))) if match else None


def request_token(headers: Any) -> str:
    """The ``Live-Version`` a page sent with its fetch after an event ("" when none or odd)."""
    token = headers.get(TOKEN_HEADER, "")
    return token if TOKEN_PATTERN.fullmatch(token) else ""


def send(channels: list[str], data: dict[str, Any]) -> None:
    """Send one event to the channels now (the services: after commit, through ``_publish``)."""
    for channel in channels:
        live_fanout.publish(channel, EVENT_TYPE,
                            json.dumps({**data, "channel": channel}, cls=DjangoJSONEncoder))


class _Batch:
    """The events of one transaction, one per channel (the last change of each), sent once
    when it commits: a round started at 500 tables tells its tournament's pages once."""

    def __init__(self, marker: object) -> None:
        self.marker = marker  # the connection's list of commit callbacks this batch is in
        self.events: dict[str, Event] = {}
        self.counts: dict[str, int] = {}
        self.sent = False

    def add(self, channel: str, event: Event) -> None:
        """Keep ``event`` (built at commit) as the channel's latest change."""
        self.counts[channel] = self.counts.get(channel, 0) + 1
        self.events[channel] = event

    def flush(self) -> None:
        """Send each channel's latest event, with how many changes it stands for."""
        self.sent = True
        for channel, event in self.events.items():
            send([channel], {**event(), "changes": self.counts[channel]})


_local = threading.local()


def forget_batch() -> None:
    """Drop this thread's batch as if its transaction were over (the tests' fixtures change
    records in a transaction that never commits)."""
    _local.batch = None


def _publish(channels: list[str], event: Event) -> None:
    """Send ``event`` to the channels when the transaction commits (now, outside one).

    One batch per transaction: it belongs to the connection's current list of commit
    callbacks, which Django replaces when a transaction commits or rolls back, so a
    rolled-back batch is dropped with its callback and never reused.
    """
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        for channel in channels:
            send([channel], {**event(), "changes": 1})
        return
    marker = getattr(connection, "run_on_commit", None)
    batch: _Batch | None = getattr(_local, "batch", None)
    if batch is None or batch.sent or marker is None or batch.marker is not marker:
        batch = _Batch(marker)
        _local.batch = batch
        transaction.on_commit(batch.flush, robust=True)
    for channel in channels:
        batch.add(channel, event)


def party_changed(party: Any, kind: str) -> None:
    """A party's record changed (``kind``: the event log's kind, e.g. ``deal``, ``finished``).

    The party's version is read when the transaction commits: the version the service left.
    """
    tournament_id = party.round.tournament_id

    def event() -> dict[str, Any]:
        return {"kind": kind, "tournament": tournament_id, "round": party.round_id,
                "party": party.pk, "version": party.version,
                "token": f"p{party.pk}.{party.version}"}

    _publish([tournament_channel(tournament_id), party_channel(party.pk)], event)


def entrants_moved(sender: Any, tournament_ids: list[int], **kwargs: Any) -> None:
    """The players, pairs, teams or tables of these tournaments changed (``scoring.roster``'s
    signal, sent after the commit): their pages fetch again."""
    stamp = time.time_ns() // 1_000_000
    for pk in tournament_ids:
        send([tournament_channel(pk)],
             {"kind": "entrants", "tournament": pk, "token": f"e{pk}.{stamp}"})


def round_changed(rnd: Any, kind: str) -> None:
    """A round was drawn (again), published or closed (``kind``): its tournament's pages."""
    tournament_id = rnd.tournament_id

    def event() -> dict[str, Any]:
        return {"kind": kind, "tournament": tournament_id, "round": rnd.pk,
                "number": rnd.number, "status": rnd.status,
                "token": f"r{rnd.pk}.{rnd.status}.{time.time_ns() // 1_000_000}"}

    _publish([tournament_channel(tournament_id)], event)
