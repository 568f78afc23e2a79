"""Background work of the referee desk: no-show candidates, clock expiry, stored keys."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from referee import tasks
from referee.services import check_in, pause_clock, resume_clock
from scoring.models import Party, PartyDesk, PartyEvent


@pytest.mark.parametrize(
    "task", [tasks.flag_no_show, tasks.sweep_no_shows, tasks.purge_idempotency_keys,
             tasks.expire_party_clock, tasks.sweep_party_clocks],
)
def test_tasks_survive_a_worker_restart(task):
    assert task.acks_late is True
    assert task.autoretry_for and task.max_retries >= 3
    assert settings.CELERY_TASK_REJECT_ON_WORKER_LOST is True


def test_beat_runs_the_sweeps():
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"referee.tasks.sweep_no_shows", "referee.tasks.sweep_party_clocks",
            "referee.tasks.purge_idempotency_keys"} <= scheduled


@pytest.mark.django_db
def test_no_show_task_is_idempotent(party):
    Party.objects.filter(pk=party.pk).update(started_at=timezone.now() - timedelta(minutes=7))
    assert tasks.flag_no_show.delay(party.pk).get() is True
    assert tasks.flag_no_show.delay(party.pk).get() is False
    assert tasks.sweep_no_shows.delay().get() == []
    assert PartyEvent.objects.filter(party=party, kind="no_show_candidate").count() == 1


@pytest.mark.django_db
def test_no_show_alert_goes_when_the_pair_arrives(party):
    from referee.state import party_queryset, party_state

    Party.objects.filter(pk=party.pk).update(started_at=timezone.now() - timedelta(minutes=7))
    tasks.flag_no_show(party.pk)
    check_in(party.pk, side="a")
    check_in(party.pk, side="b")
    state = party_state(party_queryset().get(pk=party.pk))
    assert state["alerts"] == []
    assert PartyDesk.objects.get(party=party).absent_sides == ""


@pytest.mark.django_db
def test_finished_party_raises_no_candidate(party):
    from referee.services import forfeit_party

    forfeit_party(party.pk, absent_side="b")
    Party.objects.filter(pk=party.pk).update(started_at=timezone.now() - timedelta(minutes=7))
    assert tasks.flag_no_show(party.pk) is False


@pytest.mark.django_db(transaction=True)
def test_the_sweep_marks_a_resumed_clock_only_when_its_time_is_over(party, referee_user):
    """The beat's sweep is the one mechanism: a pause moves the moment the time runs out."""
    Party.objects.filter(pk=party.pk).update(started_at=timezone.now() - timedelta(minutes=39))
    pause_clock(party.pk, reason="dispute", actor=referee_user)
    Party.objects.filter(pk=party.pk).update(paused_at=timezone.now() - timedelta(minutes=5))
    resume_clock(party.pk, actor=referee_user)
    assert tasks.sweep_party_clocks() == []  # one minute left, plus the five of the pause
    party.refresh_from_db()
    assert party.time_expired_at is None and 300 < party.seconds_left() <= 361
    Party.objects.filter(pk=party.pk).update(started_at=party.started_at - timedelta(minutes=7))
    assert tasks.sweep_party_clocks() == [party.pk]
    assert tasks.sweep_party_clocks() == []  # marked once


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_raises_no_show_candidates(make_party, real_worker):
    party = make_party()
    Party.objects.filter(pk=party.pk).update(started_at=timezone.now() - timedelta(minutes=6))
    tasks.sweep_no_shows.delay()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not PartyDesk.objects.filter(party=party).exists():
        time.sleep(0.2)
    desk = PartyDesk.objects.get(party=party)
    assert desk.no_show_sides == "ab" and desk.no_show_raised_at is not None
    tasks.flag_no_show.delay(party.pk)  # raised once: a second run changes nothing
    time.sleep(1)
    assert PartyEvent.objects.filter(party=party, kind="no_show_candidate").count() == 1


def test_every_task_is_a_record_task():
    """One base: queued on commit, retried on a lost database, acknowledged late."""
    from config.celery import app
    from scoring.core.background import RecordTask

    app.loader.import_default_modules()  # every app's tasks module, as a worker loads them

    ours = {name: task for name, task in app.tasks.items()
            if name.split(".")[0] in {"scoring", "referee", "tournaments"}}
    assert len(ours) >= 8
    assert all(isinstance(task, RecordTask) for task in ours.values()), sorted(ours)
