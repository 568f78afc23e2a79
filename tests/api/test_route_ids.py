"""Ids are validated by the routes: a number where the id is a number, else a slug.

A path whose id is not a number is a 404 before any view runs (it was a 500 on print jobs and
referee roles); a query parameter that must be a number is a 400 naming it (the referee
overview's page and API, the standings API).
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter, SlugConverter, StringConverter
from rest_framework.test import APIClient

ID_NAMES = {"pk", "id", "public_id", "round_id", "number"}
"""Route parameters that address a record."""


def _routes(patterns=None, prefix=""):
    """(route, pattern) of every URL of the site but the admin's."""
    for item in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(item, URLResolver):
            if str(item.pattern) != "admin/":
                yield from _routes(item.url_patterns, prefix + str(item.pattern))
        elif isinstance(item, URLPattern):
            yield prefix + str(item.pattern), item


def test_every_id_of_a_route_is_a_number_or_a_slug():
    loose = []
    for route, pattern in _routes():
        converters = getattr(pattern.pattern, "converters", {})
        regex_ids = ID_NAMES & set(pattern.pattern.regex.groupindex) - set(converters)
        if regex_ids:
            loose.append((route, sorted(regex_ids)))
        for name, converter in converters.items():
            if name not in ID_NAMES:
                continue
            # a protocol's public id is a token: any string is looked up, none fails
            allowed = (SlugConverter, StringConverter) if name == "public_id" else (IntConverter,)
            if type(converter) not in allowed:
                loose.append((route, name))
    assert loose == []


@pytest.mark.django_db
@pytest.mark.parametrize("method,url", [
    ("get", "/api/v1/print-jobs/abc/"),
    ("get", "/api/v1/print-jobs/abc/pdf/"),
    ("delete", "/api/v1/referee/roles/abc/"),
    ("get", "/api/v1/tournaments/abc/"),
    ("patch", "/api/v1/players/abc/"),
    ("post", "/api/v1/rounds/abc/publish/"),
    ("delete", "/api/v1/webhooks/abc/"),
    ("post", "/api/v1/webhook-deliveries/abc/replay/"),
    ("get", "/api/v1/protocols/a.b/"),
    ("get", "/api/v1/tournaments/1/standings.json"),  # no format suffixes (an action's: 500)
    ("post", "/api/v1/parties/1/deal.json"),
])
def test_an_id_that_is_not_a_number_is_a_404(method, url, organizer, field):
    client = APIClient()
    client.force_authenticate(organizer)
    response = getattr(client, method)(url)
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


@pytest.mark.django_db
def test_the_overview_refuses_a_round_that_is_not_a_number(field, referee_user):
    client = APIClient()
    client.force_authenticate(referee_user)
    url = f"/api/v1/referee/tournaments/{field.tournament.pk}/overview/"
    response = client.get(url, {"round_number": "abc"})
    assert response.status_code == 400
    assert list(response.json()) == ["round_number"]
    assert client.get(url, {"round_number": "1"}).json()["round_number"] == 1
    page = Client()
    page.force_login(referee_user)
    response = page.get(f"/referee/t/{field.tournament.slug}/", {"round": "abc"})
    assert response.status_code == 400
    assert "round: A round" in response.content.decode()
    assert page.get(f"/referee/t/{field.tournament.slug}/", {"round": "1"}).status_code == 200


@pytest.mark.django_db
def test_the_standings_refuse_a_round_that_is_not_a_number(field):
    url = f"/api/v1/tournaments/{field.tournament.pk}/standings/"
    response = APIClient().get(url, {"after_round": "1x"})
    assert response.status_code == 400
    assert list(response.json()) == ["after_round"]
    assert APIClient().get(url, {"after_round": "1"}).status_code == 200
