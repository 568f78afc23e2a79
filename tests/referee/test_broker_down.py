"""The broker down or hanging: the desk's and the organizer's requests answer, the sweep catches up.

A send after commit (``scoring.core.background.RecordTask``) gives up within about two seconds and
is logged; the change is committed and the beat's sweep finds the work from the record.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from referee.tasks import expire_party_clock, sweep_party_clocks
from scoring.models import Party, Round
from tests.conftest import DEAD_BROKER
from tests.tournaments.play import play_round


def _api(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def _timed_post(api: APIClient, url: str) -> tuple[int, float]:
    started = time.monotonic()
    response = api.post(url, {}, format="json")
    return response.status_code, time.monotonic() - started


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_broker_down_start_and_resume_answer_200_and_the_sweep_expires_each_clock_once(
    make_party, referee_user, organizer, real_worker, broker_at
):
    started, resumed = make_party(table_number=1), make_party(table_number=2, round_number=1)
    by_round = make_party(table_number=1)  # a round of its own, started by the organizer
    referee, chief = _api(referee_user), _api(organizer)
    broker_at(DEAD_BROKER)
    assert expire_party_clock.send_quietly((started.pk,)) is False  # the broker is down
    answers = [
        _timed_post(referee, f"/api/v1/parties/{started.pk}/start/"),
        _timed_post(referee, f"/api/v1/parties/{resumed.pk}/start/"),
        _timed_post(referee, f"/api/v1/parties/{resumed.pk}/pause/"),
        _timed_post(referee, f"/api/v1/parties/{resumed.pk}/resume/"),
        _timed_post(chief, f"/api/v1/rounds/{by_round.round_id}/start/"),
    ]
    assert [code for code, _took in answers] == [200] * 5
    assert max(took for _code, took in answers) < 5.0  # no 20 s of reconnecting
    parties = (started, resumed, by_round)
    assert all(Party.objects.get(pk=p.pk).status == Party.Status.IN_PROGRESS for p in parties)
    Party.objects.filter(pk__in=[p.pk for p in parties]).update(
        started_at=timezone.now() - timedelta(minutes=45))

    broker_at(None)  # the broker is back: the beat's next sweeps run on the worker
    assert sorted(sweep_party_clocks.delay().get(timeout=60)) == sorted(p.pk for p in parties)
    assert sweep_party_clocks.delay().get(timeout=60) == []
    for party in parties:
        party.refresh_from_db()
        assert party.time_expired_at is not None
        assert party.events.filter(kind="time_expired").count() == 1


@pytest.mark.django_db(transaction=True)
def test_broker_down_a_round_closes_and_the_lost_send_is_logged(
    tournament, organizer, broker_at, caplog
):
    from tests.tournaments.test_rounds import _drawn
    from tournaments.rounds import services as rounds

    rnd = _drawn(tournament)
    rounds.publish_round(rnd.pk)
    rounds.start_round(rnd.pk)
    play_round(rnd.pk)
    broker_at(DEAD_BROKER)  # closing queues the standings' warm-up after commit
    with caplog.at_level(logging.ERROR, logger="scoring.core.background"):
        code, _took = _timed_post(_api(organizer), f"/api/v1/rounds/{rnd.pk}/close/")
    assert code == 200
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.FINISHED
    assert "tournaments.tasks.warm_standings" in caplog.text
    assert "not sent" in caplog.text


@pytest.mark.parametrize(("broker", "seconds"), [("down", 1.5), ("hanging", 3.5)])
def test_a_send_to_a_broker_down_or_hanging_gives_up_in_seconds(
    broker, seconds, broker_at, hanging_port
):
    broker_at(DEAD_BROKER if broker == "down" else f"redis://127.0.0.1:{hanging_port}/0")
    started = time.monotonic()
    assert expire_party_clock.send_quietly((1,)) is False
    assert time.monotonic() - started < seconds  # refused at once; one 2 s socket timeout
