"""The broker down when a deal ends a party: the desk's answer is 201, the beat's webhook sweep
sends later."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from config.celery import app as celery_app
from scoring.models import Party, WebhookDelivery
from scoring.tasks import sweep_webhooks
from tests.conftest import DEAD_BROKER

pytestmark = pytest.mark.django_db(transaction=True)


def test_deals_answer_with_the_broker_down_and_the_sweep_delivers_in_order(
    subscription, receiver, party, referee_user, broker_at
):
    api = APIClient()
    api.force_authenticate(referee_user)
    broker_at(DEAD_BROKER)
    codes = []
    while Party.objects.get(pk=party.pk).status != Party.Status.FINISHED and len(codes) < 20:
        body = {"outcome": "domino", "side": "a", "points": {"a": 60, "b": 0}}
        codes.append(api.post(f"/api/v1/parties/{party.pk}/deal/", body, format="json")
                     .status_code)
    assert codes and set(codes) == {201}
    pending = WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING)
    assert pending.filter(event="party.finished").exists()
    waiting = pending.count()
    assert receiver.wait_for(1, timeout=0.5) == []  # nothing could be queued

    broker_at(None)
    celery_app.conf.task_always_eager = True  # the worker: here, in-process
    assert sweep_webhooks() == [subscription.pk]
    assert sweep_webhooks() == []  # all sent: nothing is due any more
    sent = receiver.wait_for(waiting)
    assert len(sent) == waiting
    assert [r.json["event"] for r in sent][-1] == "party.finished"
    assert [r.json["sequence"] for r in sent] == sorted(r.json["sequence"] for r in sent)
    assert not WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING).exists()
