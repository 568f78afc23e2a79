"""Issue #32, item 1: ``entered_at`` through the API and the desk's queue (the same rule).

A deal entered before the time ran out counts as played in time, however late it arrives;
an impossible moment is a 400 naming ``entered_at``; every other action takes the field.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.models import Deal, Penalty
from tests.factories import clock_started_ago

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def url(party, name):
    return f"/api/v1/parties/{party.pk}/{name}/"


def iso(moment):
    return moment.isoformat()


@pytest.fixture
def clocked(party):
    """A 1-minute party started 2 minutes ago: its time ran out a minute ago."""
    return clock_started_ago(party, 120)


def test_the_api_counts_a_deal_entered_in_time_as_played_in_time(api, clocked):
    body = {"outcome": "domino", "side": "a", "points": {"a": 25, "b": 0},
            "entered_at": iso(clocked.expiry - timedelta(seconds=55))}
    response = api.post(url(clocked, "deal"), body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["party"]["status"] == "in_progress"
    body = {"outcome": "domino", "side": "b", "points": {"a": 0, "b": 20},
            "entered_at": iso(clocked.expiry + timedelta(seconds=5))}
    response = api.post(url(clocked, "deal"), body, format="json")
    assert response.status_code == 201, response.json()
    party = response.json()["party"]
    assert (party["status"], party["totals"]["points"]) == ("finished", {"a": 25, "b": 20})


@pytest.mark.parametrize("moment", ["future", "before start"])
def test_the_api_refuses_an_impossible_entered_at_naming_it(api, clocked, moment):
    at = timezone.now() + timedelta(minutes=5) if moment == "future" else (
        clocked.started_at - timedelta(minutes=1))
    body = {"outcome": "domino", "side": "a", "points": {"a": 25, "b": 0}, "entered_at": iso(at)}
    response = api.post(url(clocked, "deal"), body, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["entered_at"]
    assert not Deal.objects.filter(party=clocked).exists()


def test_an_entered_at_that_is_no_moment_is_refused_naming_it(api, clocked):
    body = {"outcome": "domino", "side": "a", "points": {"a": 25, "b": 0}, "entered_at": "soon"}
    response = api.post(url(clocked, "deal"), body, format="json")
    assert response.status_code == 400 and "entered_at" in response.json()


def test_other_actions_take_entered_at_and_are_not_refused_for_it(api, party):
    now = iso(timezone.now())
    response = api.post(url(party, "warning"), {"side": "a", "category": "talking",
                                                 "entered_at": now}, format="json")
    assert response.status_code == 201, response.json()
    response = api.post(url(party, "pause"), {"entered_at": now}, format="json")
    assert response.status_code == 200, response.json()
    assert Penalty.objects.filter(party=party, kind="warning").count() == 1


def test_the_schema_documents_entered_at(api):
    schema = api.get("/api/v1/schema/?format=json").json()
    deal = schema["components"]["schemas"]["DealInputRequest"]["properties"]["entered_at"]
    assert deal["format"] == "date-time" and "ISO 8601" in deal["description"]


def desk_deal(party, winner, points, number, version, entered_at=None):
    body = {"outcome": "domino", "winner": winner, "points": points, "number": number,
            "version": version, "client_id": f"deal-{number}-{winner}"}
    if entered_at is not None:
        body["entered_at"] = iso(entered_at)
    return body


def test_the_desk_queue_sends_a_deal_entered_before_time_up_after_it(client, referee_user,
                                                                      clocked):
    """The issue's blocker: deal 2 entered offline before time-up, deal 3 (the deal in play at
    time-up) after; both arrive after it. The truth is 25 : 20."""
    client.force_login(referee_user)
    action = f"/referee/party/{clocked.pk}/deal/"
    first = client.post(action, desk_deal(clocked, "a", 25, 1, clocked.version,
                                          clocked.expiry - timedelta(seconds=55)),
                        HTTP_IDEMPOTENCY_KEY="k1", **JSON).json()
    assert first["ok"] is True, first
    second = client.post(action, desk_deal(clocked, "b", 20, 2, first["rebase"]["version"],
                                           clocked.expiry + timedelta(seconds=20)),
                         HTTP_IDEMPOTENCY_KEY="k2", **JSON).json()
    assert second["ok"] is True, second
    clocked.refresh_from_db()
    assert (clocked.status, clocked.winner, clocked.end_reason) == ("finished", "a", "time")
    assert list(Deal.objects.filter(party=clocked).values_list("points_a", "points_b")) == [
        (25, 0), (0, 20)]


def test_the_desk_queue_is_told_which_field_is_wrong(client, referee_user, clocked):
    client.force_login(referee_user)
    body = desk_deal(clocked, "a", 25, 1, clocked.version, timezone.now() + timedelta(hours=1))
    answer = client.post(f"/referee/party/{clocked.pk}/deal/", body,
                         HTTP_IDEMPOTENCY_KEY="k1", **JSON)
    assert answer.status_code == 400
    data = answer.json()
    assert data["ok"] is False and data["conflict"] is False
    assert "entered_at" in data["errors"] and "entered_at" in data["error"]
