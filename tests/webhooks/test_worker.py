"""With a real Celery worker: retries wait out their backoff and the order holds."""

from __future__ import annotations

import pytest

from scoring.models import WebhookDelivery
from scoring.webhooks.services import emit

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_real_worker_retries_with_growing_pauses_in_order(
    real_worker, subscription, receiver, tournament
):
    receiver.codes = [500, 502]
    emit(tournament.pk, "round.published", lambda: {"n": 1})
    emit(tournament.pk, "round.closed", lambda: {"n": 2})
    got = receiver.wait_for(4, timeout=30)
    assert [r.json["sequence"] for r in got] == [1, 1, 1, 2]
    pauses = [got[1].arrived - got[0].arrived, got[2].arrived - got[1].arrived]
    assert pauses[0] >= 0.9 and pauses[1] >= 1.9  # 1 s, then 2 s
    first = WebhookDelivery.objects.get(sequence=1)
    assert first.status == "delivered" and first.attempts == 3
    assert [e["retry_in"] for e in first.log] == [1.0, 2.0, None]
