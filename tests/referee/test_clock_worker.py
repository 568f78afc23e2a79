"""Party clocks through Celery: a real worker marks the time as run out."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from referee.tasks import expire_party_clock, sweep_party_clocks
from scoring.models import Party


def _start_long_ago(party, minutes: int) -> None:
    Party.objects.filter(pk=party.pk).update(
        status=Party.Status.IN_PROGRESS, started_at=timezone.now() - timedelta(minutes=minutes)
    )


@pytest.mark.django_db
def test_expiry_task_is_idempotent(make_party):
    party = make_party()
    _start_long_ago(party, 50)
    assert expire_party_clock.delay(party.pk).get() is True
    party.refresh_from_db()
    first = party.time_expired_at
    assert first is not None
    assert expire_party_clock.delay(party.pk).get() is True
    party.refresh_from_db()
    assert party.time_expired_at == first
    assert party.events.filter(kind="time_expired").count() == 1


@pytest.mark.django_db
def test_expiry_task_leaves_running_party_alone(make_party):
    party = make_party()
    _start_long_ago(party, 10)
    assert expire_party_clock.delay(party.pk).get() is False
    party.refresh_from_db()
    assert party.time_expired_at is None


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_marks_expired_parties(make_party, real_worker):
    late, running = make_party(table_number=1), make_party(table_number=2, round_number=1)
    _start_long_ago(late, 45)
    _start_long_ago(running, 5)
    result = sweep_party_clocks.delay()
    assert result.get(timeout=60) == [late.pk]
    late.refresh_from_db()
    running.refresh_from_db()
    assert late.time_expired_at is not None
    assert running.time_expired_at is None
    assert late.events.filter(kind="time_expired").exists()


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_runs_task_queued_after_commit(make_party, referee_user, real_worker):
    from referee.services import start_party

    party = make_party()
    start_party(party.pk, actor=referee_user)
    _start_long_ago(party, 41)
    with transaction.atomic():
        expire_party_clock.delay_on_commit(party.pk)  # sent only when this transaction commits
        time.sleep(0.5)
        party.refresh_from_db()
        assert party.time_expired_at is None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        party.refresh_from_db()
        if party.time_expired_at:
            break
        time.sleep(0.2)
    assert party.time_expired_at is not None
