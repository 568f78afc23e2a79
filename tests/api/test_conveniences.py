"""Conveniences of the API (issue 18, item 4): slugs from names, singles sides in one call,
the regulations of the tournament's own game, and a round's scheduled start."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Tournament
from tournaments.services import create_tournament, derive_slug

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(organizer) -> APIClient:
    """An API client of the organizer."""
    client = APIClient()
    client.force_authenticate(organizer)
    return client


# 1. A tournament's slug from its name


def test_slug_is_derived_from_a_cyrillic_name(api):
    response = api.post("/api/tournaments/", {"name": "Кубок Москвы 2026"}, format="json")
    assert response.status_code == 201, response.data
    assert response.data["slug"] == "kubok-moskvy-2026"
    again = api.post("/api/tournaments/", {"name": "Кубок Москвы 2026", "slug": ""},
                     format="json")
    assert again.status_code == 201, again.data
    assert again.data["slug"] == "kubok-moskvy-2026-2"
    assert derive_slug("Кубок Москвы 2026") == "kubok-moskvy-2026-3"


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Щучье Озеро: Ёлка & Жуков!", "shchuche-ozero-elka-zhukov"),
        ("Open de Genève", "open-de-geneve"),
        ("!!!", "tournament"),
        ("Я" * 200, "ya" * 35),
    ],
)
def test_derived_slugs_are_ascii_and_short(name, slug):
    assert derive_slug(name) == slug


@pytest.mark.parametrize(
    ("slug", "fragment"),
    [("taken-cup", "already exists"), ("not a slug!", "valid")],
)
def test_a_given_slug_is_still_validated(api, organizer, slug, fragment):
    create_tournament(name="Первый", slug="taken-cup", organizer=organizer)
    response = api.post("/api/tournaments/", {"name": "Второй", "slug": slug}, format="json")
    assert response.status_code == 400
    assert list(response.data) == ["slug"]
    assert fragment in str(response.data["slug"][0])
    assert not Tournament.objects.filter(name="Второй").exists()


def test_the_create_page_derives_the_slug_when_left_empty(client, organizer):
    client.force_login(organizer)
    response = client.post(reverse("tournaments:create"), {
        "name": "Кубок Москвы 2026", "slug": "", "format": "pairs", "rule_set": "sport",
        "status": "registration", "start_date": "2026-12-01", "time_zone": "Europe/Moscow",
        "language": "ru",
    })
    assert response.status_code == 302, response.context["form"].errors
    assert Tournament.objects.get(name="Кубок Москвы 2026").slug == "kubok-moskvy-2026"
    page = client.get(reverse("tournaments:create"))
    assert "Leave empty to make it from the name" in page.content.decode()


def test_the_edit_page_still_needs_a_slug(client, organizer):
    tournament = create_tournament(name="Кубок", slug="edit-cup", organizer=organizer)
    client.force_login(organizer)
    url = reverse("tournaments:edit", args=[tournament.slug])
    data = {k: v for k, v in client.get(url).context["form"].initial.items()
            if v not in (None, False)}
    response = client.post(url, {**data, "start_date": "2026-12-01", "slug": ""})
    assert response.status_code == 200
    assert "slug" in response.context["form"].errors
