"""A party held by a stuck transaction: a change answers 503 "try again" after the lock timeout.

Runs only against PostgreSQL (DATABASE_URL), as CI does: a second connection holds the
party's row (SELECT … FOR UPDATE in an open transaction) while the desk, its queue and the API
ask for it.
"""

from __future__ import annotations

import time

import pytest
from rest_framework.test import APIClient

from scoring.models import Party
from tests.pg import ONLY_ON_POSTGRES, other_connection

pytestmark = [*ONLY_ON_POSTGRES, pytest.mark.django_db(transaction=True)]

BUSY = "Another change of this party is still being saved. Try again in a moment."


@pytest.fixture
def held_party(party, settings):
    """The started party, its row locked by another connection's open transaction.

    ``held_party.release()`` ends that transaction.
    """
    settings.PARTY_LOCK_TIMEOUT_SECONDS = 0.5
    other = other_connection()
    other.execute(f"SELECT 1 FROM {Party._meta.db_table} WHERE id = %s FOR UPDATE", [party.pk])
    party.release = other.rollback
    yield party
    other.rollback()
    other.close()


def _timed(call):
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def test_the_api_answers_503_with_a_message_instead_of_waiting(held_party, referee_user):
    api = APIClient()
    api.force_authenticate(referee_user)
    url = f"/api/v1/parties/{held_party.pk}/pause/"
    response, took = _timed(lambda: api.post(url, {}, format="json"))
    assert response.status_code == 503
    assert response.json() == {"party": [BUSY]}
    assert response["Retry-After"] == "2"
    assert 0.4 < took < 5.0  # the 0.5 s lock timeout, not the stuck transaction's length
    party = Party.objects.get(pk=held_party.pk)
    assert party.paused_at is None and party.version == held_party.version
    translated = api.post(url, {}, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert translated.status_code == 503
    assert translated.json()["party"][0] != BUSY and "Повторите" in translated.json()["party"][0]
    held_party.release()  # the stuck change ends: the same request goes through
    assert api.post(url, {}, format="json").status_code == 200
    assert Party.objects.get(pk=held_party.pk).paused_at is not None


def test_the_desk_shows_it_and_its_queue_retries_later(held_party, referee_user, client):
    client.force_login(referee_user)
    url = f"/referee/party/{held_party.pk}/pause/"
    page = client.post(url, {"version": held_party.version})
    assert page.status_code == 503
    assert BUSY in page.content.decode()
    queued = client.post(url, {"version": held_party.version}, HTTP_ACCEPT="application/json",
                         HTTP_IDEMPOTENCY_KEY="pause-1")
    answer = queued.json()
    assert queued.status_code == 503 and answer["ok"] is False and answer["error"] == BUSY
    # not stored under its key: the queue sends it again once the row is free
    assert Party.objects.get(pk=held_party.pk).paused_at is None
