"""Two webhook senders at once on PostgreSQL (row claims under ``FOR UPDATE SKIP LOCKED``):
each delivery is sent by one of them, once, in its subscription's order."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connections

from scoring.models import WEBHOOK_EVENTS, WebhookDelivery
from scoring.webhooks.sender import run_sweeps
from scoring.webhooks.services import create_subscription, emit
from tests.pg import ONLY_ON_POSTGRES
from tests.webhooks.conftest import start_receiver
from tests.webhooks.test_outbox import sequences_once_in_order

pytestmark = [*ONLY_ON_POSTGRES, pytest.mark.django_db(transaction=True)]

EVERY_EVENT = [name for name, _label in WEBHOOK_EVENTS]


def test_two_sweepers_at_once_deliver_each_delivery_once_in_order(
    allow_loopback, tournament, organizer
):
    """Two senders sweep the same outbox at the same moment (threads with connections of their
    own, as two processes): every delivery is POSTed once, each subscription's in order."""
    receivers = []
    for _ in range(3):
        receiver, server = start_receiver()
        receiver.delay = 0.02
        receivers.append((receiver, server))
        create_subscription(tournament, url=receiver.url, events=EVERY_EVENT, actor=organizer)
    for number in range(10):
        emit(tournament.pk, "standings.changed", lambda n=number: {"n": n})
    total = WebhookDelivery.objects.count()
    assert total == 30
    senders = 2
    gate = threading.Barrier(senders)
    attempted: list[int] = []

    def sender() -> None:
        try:
            gate.wait()
            done = run_sweeps(time.sleep, until_empty=True, deadline=time.monotonic() + 30)
            attempted.append(done.attempted)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=sender) for _ in range(senders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    try:
        for receiver, _server in receivers:
            assert sequences_once_in_order(receiver.wait_for(10)) == list(range(1, 11))
    finally:
        for _receiver, server in receivers:
            server.shutdown()
            server.server_close()
    assert sum(attempted) == total and len(attempted) == senders
    assert all(count > 0 for count in attempted), attempted  # both sent, at the same time
    assert WebhookDelivery.objects.filter(status="delivered", attempts=1).count() == total
