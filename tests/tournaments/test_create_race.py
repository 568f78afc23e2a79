"""Tournaments created at once under one name: a slug taken meanwhile is no 500.

Without a slug the next free one is taken; a given slug taken meanwhile is a 400 naming
``slug``. SQLite cannot race two requests, so another request's insert is simulated: the
existence check misses it, or it lands between the validation and the insert. On PostgreSQL
(DATABASE_URL) two real requests race.
"""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.db import connection
from rest_framework.test import APIClient

from scoring.models import Tournament, TournamentRole
from tests.factories import TournamentFactory
from tournaments.setup import services

NAME = "Кубок Москвы 2026"
SLUG = "kubok-moskvy-2026"


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def missed_by_the_check(monkeypatch, *slugs: str) -> None:
    """The existence check misses ``slugs`` once each: another request inserts them after."""
    real, stale = services.slug_taken, set(slugs)

    def check(slug: str) -> bool:
        if slug in stale:
            stale.discard(slug)
            return False
        return real(slug)

    monkeypatch.setattr(services, "slug_taken", check)


def taken_before_the_insert(monkeypatch) -> None:
    """Another request inserts the new tournament's slug after it was validated."""
    real = services._check_format

    def check_format(tournament, regulations, field):
        real(tournament, regulations, field)
        Tournament.objects.create(name="Соседний турнир", slug=tournament.slug)

    monkeypatch.setattr(services, "_check_format", check_format)


@pytest.mark.django_db
def test_a_derived_slug_taken_meanwhile_moves_on_to_the_next_free_one(organizer, monkeypatch):
    first = api(organizer).post("/api/v1/tournaments/", {"name": NAME}, format="json")
    assert first.status_code == 201 and first.data["slug"] == SLUG
    missed_by_the_check(monkeypatch, SLUG, f"{SLUG}-2")
    TournamentFactory(name=NAME, slug=f"{SLUG}-2")
    second = api(organizer).post("/api/v1/tournaments/", {"name": NAME}, format="json")
    assert second.status_code == 201, second.data
    assert second.data["slug"] == f"{SLUG}-3"
    created = Tournament.objects.get(slug=f"{SLUG}-3")
    assert created.regulations.pk is not None
    assert TournamentRole.objects.filter(tournament=created, user=organizer,
                                         role="organizer").exists()


@pytest.mark.django_db
def test_a_derived_slug_taken_at_the_insert_moves_on(organizer, monkeypatch):
    taken_before_the_insert(monkeypatch)
    response = api(organizer).post("/api/v1/tournaments/", {"name": NAME}, format="json")
    assert response.status_code == 201, response.data
    assert response.data["slug"] == f"{SLUG}-2"


@pytest.mark.django_db
def test_a_given_slug_taken_meanwhile_is_a_400_naming_slug(organizer, monkeypatch):
    taken_before_the_insert(monkeypatch)
    response = api(organizer).post("/api/v1/tournaments/", {"name": NAME, "slug": "spring-cup"},
                                   format="json")
    assert response.status_code == 400
    assert list(response.data) == ["slug"] and "already exists" in response.data["slug"][0]
    assert not Tournament.objects.filter(name=NAME).exists()


@pytest.mark.django_db
def test_after_a_few_slugs_taken_meanwhile_the_refusal_names_slug(organizer, monkeypatch):
    monkeypatch.setattr(services, "SLUG_ATTEMPTS", 2)
    missed_by_the_check(monkeypatch, SLUG, f"{SLUG}-2")
    TournamentFactory(name=NAME, slug=SLUG)
    TournamentFactory(name=NAME, slug=f"{SLUG}-2")
    with pytest.raises(services.ServiceError) as err:
        services.create_tournament(name=NAME, organizer=organizer)
    assert err.value.field == "slug"
    assert Tournament.objects.filter(name=NAME).count() == 2


@pytest.mark.postgres
@pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                    reason="needs PostgreSQL (DATABASE_URL); CI sets it")
@pytest.mark.django_db(transaction=True)
def test_two_requests_of_one_name_at_once_both_get_a_tournament(organizer, monkeypatch):
    """Both requests check the slug before either inserts; the second waits and moves on."""
    barrier = threading.Barrier(2)
    real = services.slug_taken

    def check_then_wait(slug: str) -> bool:
        taken = real(slug)
        if not getattr(local, "waited", False):
            local.waited = True
            barrier.wait(timeout=30)  # both have found the name free
        return taken

    local = threading.local()
    monkeypatch.setattr(services, "slug_taken", check_then_wait)
    answers: list = []

    def request() -> None:
        try:
            answers.append(api(organizer).post("/api/v1/tournaments/", {"name": NAME},
                                               format="json"))
        finally:
            connection.close()

    threads = [threading.Thread(target=request) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(a.status_code for a in answers) == [201, 201], [a.data for a in answers]
    assert sorted(a.data["slug"] for a in answers) == [SLUG, f"{SLUG}-2"]
