"""The outbox: nothing sent in the request, a receiver's outage waited out, one sender per
delivery, the web process's sender thread and ``manage.py send_webhooks``."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from scoring.models import WEBHOOK_EVENTS, WebhookDelivery
from scoring.webhooks import outbox
from scoring.webhooks.delivery import Attempt
from scoring.webhooks.sender import SENDER, start_with_server
from scoring.webhooks.services import create_subscription, emit
from tests.webhooks.conftest import open_receiver, send_due, start_receiver
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db(transaction=True)

EVERY_EVENT = [name for name, _label in WEBHOOK_EVENTS]


def sequences_once_in_order(requests) -> list[int]:
    """The sequence numbers received; each delivery (X-Domino-Delivery) came exactly once."""
    ids = [r.headers["X-Domino-Delivery"] for r in requests]
    assert len(ids) == len(set(ids)), f"a delivery came twice: {ids}"
    return [r.json["sequence"] for r in requests]


def test_receiver_down_publish_answers_at_once_and_every_event_arrives_once_in_order_after(
    allow_loopback, tournament, organizer
):
    allow_loopback.WEBHOOK_RETRY_BASE_SECONDS = 0.1
    receiver, server = start_receiver(listening=False)  # down: connections are refused
    create_subscription(tournament, url=receiver.url, events=EVERY_EVENT, actor=organizer)
    rnd = rounds.create_round(tournament.pk)
    draw_services.generate_draw(rnd.pk, seed=7)
    api = APIClient()
    api.force_authenticate(organizer)
    assert api.get(f"/api/v1/rounds/{rnd.pk}/").status_code == 200  # the URLs and views loaded

    started = time.perf_counter()
    answer = api.post(f"/api/v1/rounds/{rnd.pk}/publish/")
    took = time.perf_counter() - started
    assert answer.status_code == 200 and took < 1.0
    assert WebhookDelivery.objects.get().attempts == 0  # written, not tried in the request
    for number in (2, 3):
        emit(tournament.pk, "standings.changed", lambda n=number: {"n": n})

    outage = 1.0
    threading.Timer(outage, open_receiver, [server]).start()
    back_at = time.time() + outage
    try:
        send_due(timeout=20)
        got = receiver.wait_for(3)
    finally:
        server.shutdown()
        server.server_close()
    assert sequences_once_in_order(got) == [1, 2, 3]
    assert [r.json["event"] for r in got] == [
        "round.published", "standings.changed", "standings.changed"]
    assert all(r.arrived >= back_at - 0.05 for r in got)
    first = WebhookDelivery.objects.get(sequence=1)
    assert first.status == "delivered" and first.attempts >= 3
    assert all("ConnectionRefused" in entry["error"] for entry in first.log[:-1])
    tried = [datetime.fromisoformat(entry["at"]) for entry in first.log]
    for entry, before, after in zip(first.log, tried, tried[1:], strict=False):
        assert (after - before).total_seconds() >= entry["retry_in"] - 0.01  # waited out
    assert set(WebhookDelivery.objects.values_list("status", flat=True)) == {"delivered"}


def test_a_claimed_delivery_is_not_sent_by_another_sender_nor_the_ones_after_it(
    subscription, receiver, tournament
):
    emit(tournament.pk, "round.published", lambda: {"n": 1})
    emit(tournament.pk, "round.closed", lambda: {"n": 2})
    held = outbox.claim_head(subscription.pk)  # a sender is attempting the first one
    assert held is not None and held.sequence == 1
    assert outbox.claim_head(subscription.pk) is None  # nobody else takes it
    assert outbox.sweep().attempted == 0  # nor the second: it waits for the first
    assert receiver.wait_for(1, timeout=0.2) == []
    outbox.finish(held, Attempt(code=204))
    assert outbox.sweep().attempted == 1
    assert sequences_once_in_order(receiver.wait_for(1)) == [2]


def test_a_lapsed_claim_is_taken_again_and_the_late_outcome_is_dropped(
    subscription, receiver, tournament
):
    emit(tournament.pk, "round.published", lambda: {"n": 1})
    stalled = outbox.claim_head(subscription.pk)
    WebhookDelivery.objects.filter(pk=stalled.pk).update(
        claimed_until=timezone.now() - timedelta(seconds=1))  # its sender died mid-attempt
    assert outbox.sweep().delivered == 1
    outbox.finish(stalled, Attempt(code=500))  # the stalled sender wakes up: ignored
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.claim) == ("delivered", 1, "")


def test_the_sender_thread_sends_what_was_left_and_what_a_commit_wakes_it_for(
    subscription, receiver, tournament, settings
):
    settings.WEBHOOK_SENDER_THREAD = True
    settings.WEBHOOK_SWEEP_SECONDS = 30.0  # no polling: the commit's wake is what counts
    settings.WEBHOOK_RETRY_BASE_SECONDS = 0.2
    receiver.codes = [503]
    emit(tournament.pk, "round.published", lambda: {"n": 1})  # before the server started
    assert receiver.wait_for(1, timeout=0.3) == []
    start_with_server()  # the web process's first request
    try:
        assert SENDER.running
        got = receiver.wait_for(2, timeout=10)
        assert [r.json["sequence"] for r in got] == [1, 1]
        assert got[1].arrived - got[0].arrived >= 0.19  # its retry waited
        started = time.time()
        emit(tournament.pk, "round.closed", lambda: {"n": 2})
        got = receiver.wait_for(3, timeout=10)
        assert [r.json["sequence"] for r in got] == [1, 1, 2]
        assert got[2].arrived - started < 5  # woken by the commit, not the 30 s poll
    finally:
        SENDER.stop()
    assert not SENDER.running
    assert set(WebhookDelivery.objects.values_list("status", flat=True)) == {"delivered"}


def test_without_the_setting_no_request_starts_a_sender_thread(settings):
    settings.WEBHOOK_SENDER_THREAD = False
    start_with_server()
    assert not SENDER.running


def test_the_command_sends_once_or_until_nothing_is_pending(
    subscription, receiver, tournament, settings
):
    settings.WEBHOOK_RETRY_BASE_SECONDS = 0.2
    receiver.codes = [500]
    emit(tournament.pk, "round.published", lambda: {"n": 1})
    emit(tournament.pk, "round.closed", lambda: {"n": 2})
    out = StringIO()
    call_command("send_webhooks", stdout=out)  # once: the first fails, the second waits
    assert out.getvalue().strip() == "attempted 1, delivered 0, pending 2"
    out = StringIO()
    call_command("send_webhooks", "--drain", "--timeout", "10", stdout=out)
    assert out.getvalue().strip() == "attempted 2, delivered 2, pending 0"
    assert [r.json["sequence"] for r in receiver.wait_for(3)] == [1, 1, 2]  # a retry, then on
