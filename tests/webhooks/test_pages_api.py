"""The organizer's webhooks page and API: organizers only, the URL guard, replay."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import TournamentRole, WebhookDelivery, WebhookSubscription
from scoring.webhooks.services import emit
from tests.conftest import DEAD_PORT

pytestmark = pytest.mark.django_db

RECEIVER = f"http://127.0.0.1:{DEAD_PORT}/in"
"""A receiver's address where nothing listens (nothing is sent in these tests anyway)."""


@pytest.fixture
def quiet(settings):
    """Deliveries are written but not sent (no receiver in these tests)."""
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    return settings


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_the_page_registers_lists_and_deletes(client, tournament, organizer, quiet):
    client.force_login(organizer)
    url = reverse("tournaments:webhooks", args=[tournament.slug])
    page = client.get(url)
    assert page.status_code == 200 and b"Register a URL" in page.content
    answer = client.post(url, {"url": RECEIVER, "events": ["round.closed"]},
                         follow=True)
    sub = WebhookSubscription.objects.get()
    assert sub.secret.encode() in answer.content and sub.events == ["round.closed"]
    detail = client.get(tournament.get_absolute_url())
    assert url.encode() in detail.content
    client.post(reverse("tournaments:webhook_delete", args=[tournament.slug, sub.pk]))
    assert not WebhookSubscription.objects.exists()


def test_the_page_refuses_a_private_url_on_the_field(client, tournament, organizer):
    client.force_login(organizer)
    page = client.post(reverse("tournaments:webhooks", args=[tournament.slug]),
                       {"url": "http://169.254.169.254/", "events": ["round.closed"]})
    assert page.status_code == 200
    assert page.context["form"].errors["url"]
    assert not WebhookSubscription.objects.exists()


def test_the_page_replays_a_delivery(client, tournament, organizer, quiet):
    sub = WebhookSubscription.objects.create(tournament=tournament, url=RECEIVER,
                                             events=["round.closed"], created_by=organizer)
    emit(tournament.pk, "round.closed", lambda: {"n": 1})
    first = WebhookDelivery.objects.get()
    client.force_login(organizer)
    page = client.get(reverse("tournaments:webhooks", args=[tournament.slug]))
    assert b"round.closed" in page.content
    client.post(reverse("tournaments:webhook_replay", args=[tournament.slug, first.pk]))
    replay = WebhookDelivery.objects.exclude(pk=first.pk).get()
    assert (replay.replay_of_id, replay.sequence, replay.payload) == (first.pk, 2, {"n": 1})
    assert sub.deliveries.count() == 2


def test_non_organizers_get_no_page(client, tournament, make_user, referee_user):
    url = reverse("tournaments:webhooks", args=[tournament.slug])
    client.force_login(referee_user)
    assert client.get(url).status_code == 403
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 403  # a public tournament: visible, not managed
    tournament.public = False
    tournament.save(update_fields=["public"])
    assert client.get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # to the login


def test_the_api_creates_for_organizers_only(tournament, organizer, referee_user, quiet):
    answer = api(organizer).post("/api/v1/webhooks/", {
        "tournament": tournament.pk, "url": RECEIVER,
        "events": ["party.finished", "round.closed"]}, format="json")
    assert answer.status_code == 201, answer.content
    assert len(answer.data["secret"]) == 64
    assert api(referee_user).post("/api/v1/webhooks/", {
        "tournament": tournament.pk, "url": RECEIVER,
        "events": ["round.closed"]}, format="json").status_code == 403
    listing = api(referee_user).get("/api/v1/webhooks/").data
    assert (listing["results"] if isinstance(listing, dict) else listing) == []
    pk = answer.data["id"]
    assert api(referee_user).get(f"/api/v1/webhooks/{pk}/").status_code == 403
    assert api(referee_user).delete(f"/api/v1/webhooks/{pk}/").status_code == 403
    assert api().get("/api/v1/webhooks/").status_code in (401, 403)
    assert api(organizer).patch(f"/api/v1/webhooks/{pk}/", {"active": False},
                                format="json").status_code == 200
    assert WebhookSubscription.objects.get().active is False


def test_the_api_refuses_a_private_url(tournament, organizer, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = False
    answer = api(organizer).post("/api/v1/webhooks/", {
        "tournament": tournament.pk, "url": "http://10.0.0.1/in",
        "events": ["round.closed"]}, format="json")
    assert answer.status_code == 400 and "url" in answer.data


def test_the_api_lists_and_replays_deliveries_of_organizers_only(
    tournament, organizer, referee_user, make_user, quiet
):
    WebhookSubscription.objects.create(tournament=tournament, url=RECEIVER,
                                       events=["round.closed"], created_by=organizer)
    emit(tournament.pk, "round.closed", lambda: {"n": 1})
    delivery = WebhookDelivery.objects.get()
    listing = api(organizer).get("/api/v1/webhook-deliveries/")
    assert listing.status_code == 200 and str(delivery.pk).encode() in listing.content
    replay = api(organizer).post(f"/api/v1/webhook-deliveries/{delivery.pk}/replay/")
    assert replay.status_code == 201 and replay.data["replay_of"] == delivery.pk
    stranger = make_user("stranger")
    for user in (referee_user, stranger):
        assert api(user).get(f"/api/v1/webhook-deliveries/{delivery.pk}/").status_code == 403
        assert api(user).post(
            f"/api/v1/webhook-deliveries/{delivery.pk}/replay/").status_code == 403
        listing = api(user).get("/api/v1/webhook-deliveries/").data
        assert (listing["results"] if isinstance(listing, dict) else listing) == []
    tournament.public = False
    tournament.save(update_fields=["public"])
    assert api(stranger).get(f"/api/v1/webhook-deliveries/{delivery.pk}/").status_code == 404
    assert api(referee_user).get(f"/api/v1/webhook-deliveries/{delivery.pk}/").status_code == 403
    # a second organizer of the tournament sees them too; a removed one does not
    co = make_user("co-org")
    role = TournamentRole.objects.create(tournament=tournament, user=co, role="organizer")
    assert api(co).get(f"/api/v1/webhook-deliveries/{delivery.pk}/").status_code == 200
    role.delete()
    assert api(co).get(f"/api/v1/webhook-deliveries/{delivery.pk}/").status_code == 404  # hidden


def test_the_api_answers_the_secret_only_at_registration_and_renewal(
    tournament, organizer, referee_user, quiet
):
    client = api(organizer)
    created = client.post("/api/v1/webhooks/", {
        "tournament": tournament.pk, "url": RECEIVER, "events": ["round.closed"]},
        format="json").json()
    secret = WebhookSubscription.objects.get().secret
    assert created["secret"] == secret
    pk = created["id"]
    reads = [client.get("/api/v1/webhooks/").json()["results"][0],
             client.get(f"/api/v1/webhooks/{pk}/").json(),
             client.patch(f"/api/v1/webhooks/{pk}/", {"active": False}, format="json").json()]
    for read in reads:
        assert "secret" not in read and read["id"] == pk
    assert secret not in client.get("/api/v1/webhooks/").content.decode()

    assert api(referee_user).post(f"/api/v1/webhooks/{pk}/renew-secret/").status_code == 403
    assert WebhookSubscription.objects.get().secret == secret
    renewed = client.post(f"/api/v1/webhooks/{pk}/renew-secret/")
    assert renewed.status_code == 200
    new = WebhookSubscription.objects.get().secret
    assert renewed.json()["secret"] == new != secret and len(new) == 64
    assert "secret" not in client.get(f"/api/v1/webhooks/{pk}/").json()


def test_the_page_shows_a_secret_once_and_renews_it_when_confirmed(
    client, tournament, organizer, quiet
):
    client.force_login(organizer)
    url = reverse("tournaments:webhooks", args=[tournament.slug])
    shown = client.post(url, {"url": RECEIVER, "events": ["round.closed"]}, follow=True)
    sub = WebhookSubscription.objects.get()
    assert sub.secret in shown.content.decode()  # once, in the message after registering
    assert sub.secret not in client.get(url).content.decode()

    renew = reverse("tournaments:webhook_renew_secret", args=[tournament.slug, sub.pk])
    asked = client.post(renew)
    assert asked.status_code == 200 and "Give " + RECEIVER in asked.content.decode()
    assert WebhookSubscription.objects.get().secret == sub.secret  # asked, nothing done
    answer = client.post(renew, {"confirmed": "1"}, follow=True)
    new = WebhookSubscription.objects.get().secret
    assert new != sub.secret and new in answer.content.decode()
    assert new not in client.get(url).content.decode()
