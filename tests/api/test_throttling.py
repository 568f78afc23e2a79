"""The API's request throttles: past the anonymous rate (per address) or the user's rate (per
user, every address together) a request is 429 with ``Retry-After`` and a message naming the
seconds, nothing done, and the same ``Idempotency-Key`` works once the wait is over. The rest of
the suite runs without them (tests/conftest.py); these set low rates."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from scoring.models import Tournament

pytestmark = pytest.mark.django_db

LIST = "/api/v1/tournaments/"
NEW = {"name": "Кубок Москвы 2026", "rule_set": "sport", "format": "pairs",
       "start_date": "2026-05-16", "end_date": "2026-05-17", "time_zone": "Europe/Moscow"}


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


def assert_throttled(response, within: int = 60) -> None:
    """429, Retry-After in whole seconds, and the message naming them."""
    assert response.status_code == 429
    seconds = int(response["Retry-After"])
    assert 1 <= seconds <= within
    unit = "second" if seconds == 1 else "seconds"
    assert response.json() == {"detail": f"Too many requests: try again in {seconds} {unit}."}


def test_anonymous_requests_are_throttled_per_address(settings):
    settings.API_THROTTLE_ANON_RATE = "3/minute"
    here = APIClient(REMOTE_ADDR="10.1.0.1")
    assert [here.get(LIST).status_code for _request in range(3)] == [200, 200, 200]
    assert_throttled(here.get(LIST))
    assert APIClient(REMOTE_ADDR="10.1.0.2").get(LIST).status_code == 200  # another address
    russian = here.get(LIST, HTTP_ACCEPT_LANGUAGE="ru")
    assert russian.status_code == 429
    assert russian.json()["detail"].startswith("Слишком много запросов: попробуйте снова через")


def test_behind_a_proxy_the_forwarded_address_is_counted(settings):
    settings.API_THROTTLE_ANON_RATE = "1/minute"
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = APIClient(REMOTE_ADDR="10.1.0.9")
    assert proxy.get(LIST, HTTP_X_FORWARDED_FOR="203.0.113.1").status_code == 200
    assert proxy.get(LIST, HTTP_X_FORWARDED_FOR="203.0.113.2").status_code == 200
    assert_throttled(proxy.get(LIST, HTTP_X_FORWARDED_FOR="203.0.113.1"))


def test_a_users_requests_are_throttled_across_addresses_and_retried_with_the_same_key(
        settings, organizer, make_user):
    settings.API_THROTTLE_ANON_RATE = "1/minute"
    settings.API_THROTTLE_USER_RATE = "3/minute"
    first, second = APIClient(REMOTE_ADDR="10.1.0.1"), APIClient(REMOTE_ADDR="10.1.0.2")
    for client in (first, second):
        client.force_authenticate(organizer)
    # a user is counted at his own rate, not the anonymous one of his address
    assert [first.get(LIST).status_code for _request in range(2)] == [200, 200]
    assert second.get(LIST).status_code == 200  # his third, from another address
    refused = first.post(LIST, NEW, format="json", HTTP_IDEMPOTENCY_KEY="new-cup-1")
    assert_throttled(refused)
    assert not Tournament.objects.filter(name=NEW["name"]).exists()  # nothing was done
    other = APIClient(REMOTE_ADDR="10.1.0.1")
    other.force_authenticate(make_user("someone-else"))
    assert other.get(LIST).status_code == 200  # another user's own count
    cache.clear()  # the minute is over
    created = first.post(LIST, NEW, format="json", HTTP_IDEMPOTENCY_KEY="new-cup-1")
    assert created.status_code == 201 and "Idempotent-Replayed" not in created
    assert Tournament.objects.filter(name=NEW["name"]).count() == 1


def test_the_token_endpoint_is_throttled_too(settings):
    settings.API_THROTTLE_ANON_RATE = "2/minute"
    client = APIClient(REMOTE_ADDR="10.1.0.3")
    for _request in range(2):
        assert client.post("/api/v1/auth/token/", {"username": "x", "password": "y"},
                           format="json").status_code == 400
    assert_throttled(client.post("/api/v1/auth/token/", {"username": "x", "password": "y"},
                                 format="json"))


def test_the_schema_documents_the_429(settings):
    schema = APIClient().get("/api/v1/schema/?format=json").json()
    answers = schema["paths"]["/api/v1/tournaments/"]["get"]["responses"]
    assert "API_THROTTLE_ANON_RATE" in answers["429"]["description"]
