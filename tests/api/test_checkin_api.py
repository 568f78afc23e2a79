"""The check-in API (#37): the organizer's windows (open, move, close: the webhook once), a
player checking in only himself (a repeat answers the first record), the organizer anyone of
his tournament, and what each may list."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from scoring.models import CheckIn, CheckInWindow, WebhookDelivery, WebhookSubscription

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _later(minutes: int) -> str:
    return (timezone.now() + timedelta(minutes=minutes)).isoformat()


@pytest.fixture
def window(tournament, organizer):
    answer = _client(organizer).post("/api/v1/checkin-windows/", {
        "tournament": tournament.pk, "closes_at": _later(30)}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["is_open"] and answer.json()["round_number"] == 1
    return CheckInWindow.objects.get(pk=answer.json()["id"])


def test_a_player_checks_in_only_himself(tournament, window, make_user):
    pairs = list(tournament.pairs.order_by("pk"))
    player = pairs[0].player1
    player.user = make_user("ivan")
    player.save()
    client = _client(player.user)
    other = client.post("/api/v1/checkins/", {"window": window.pk, "pair": pairs[1].pk},
                        format="json")
    assert other.status_code == 403 and not CheckIn.objects.exists()
    first = client.post("/api/v1/checkins/", {"window": window.pk}, format="json")
    assert first.status_code == 201
    assert (first.json()["pair"], first.json()["how"]) == (pairs[0].pk, "phone")
    again = client.post("/api/v1/checkins/", {"window": window.pk}, format="json")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    assert CheckIn.objects.count() == 1
    listed = client.get("/api/v1/checkins/").json()["results"]
    assert [row["pair"] for row in listed] == [pairs[0].pk]


def test_the_organizer_checks_in_anyone_and_closes(tournament, window, organizer):
    WebhookSubscription.objects.create(tournament=tournament, url="http://93.184.215.14/hook",
                                       events=["checkin.closed"], created_by=organizer)
    client = _client(organizer)
    pairs = list(tournament.pairs.order_by("pk"))
    for pair in pairs[:3]:
        answer = client.post("/api/v1/checkins/", {"window": window.pk, "pair": pair.pk},
                             format="json")
        assert answer.status_code == 201 and answer.json()["how"] == "organizer"
    assert len(client.get("/api/v1/checkins/", {"window": window.pk}).json()["results"]) == 3
    closed = client.post(f"/api/v1/checkin-windows/{window.pk}/close/")
    assert closed.status_code == 200 and closed.json()["closed"]
    assert closed.json()["checked_in"] == 3
    client.post(f"/api/v1/checkin-windows/{window.pk}/close/")
    delivery = WebhookDelivery.objects.get(event="checkin.closed")
    assert delivery.payload["counts"]["missing"] == 5
    late = client.post("/api/v1/checkins/", {"window": window.pk, "pair": pairs[5].pk},
                       format="json")
    assert late.status_code == 400 and "window" in late.json()


def test_window_refusals_name_the_field(tournament, window, organizer):
    client = _client(organizer)
    twice = client.post("/api/v1/checkin-windows/", {
        "tournament": tournament.pk, "closes_at": _later(30)}, format="json")
    assert twice.status_code == 400 and "round_number" in twice.json()
    backwards = client.patch(f"/api/v1/checkin-windows/{window.pk}/",
                             {"closes_at": _later(-60)}, format="json")
    assert backwards.status_code == 400 and "closes_at" in backwards.json()


def test_another_organizer_cannot_touch_the_window(tournament, window, make_user):
    stranger = _client(make_user("other-org", organizer=True))
    assert stranger.get("/api/v1/checkin-windows/").json()["results"] == []
    assert stranger.post(f"/api/v1/checkin-windows/{window.pk}/close/").status_code == 403
    answer = stranger.post("/api/v1/checkins/", {
        "window": window.pk, "pair": tournament.pairs.first().pk}, format="json")
    assert answer.status_code == 403 and not CheckIn.objects.exists()
