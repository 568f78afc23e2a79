"""The seasons API's writes: an organizer creates a season of his tournaments, changes and
deletes it; the season service's refusals answer 400 naming the field."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import Profile, Season, TournamentPlacing
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def two(organizer):
    """Two tournaments of the organizer; Anna wins the first, Boris the second."""
    events = [TournamentFactory(organizer=organizer, name=f"Вечер {n}", slug=f"vecher-{n}",
                                start_date=f"2026-0{n}-01") for n in (1, 2)]
    anna = Profile.objects.create(name="Анна Иванова", club="Динамо")
    boris = Profile.objects.create(name="Борис Сидоров", club="Спартак")
    for event, winner, second in ((events[0], anna, boris), (events[1], boris, anna)):
        TournamentPlacing.objects.create(tournament=event, profile=winner, place=1, score=8)
        TournamentPlacing.objects.create(tournament=event, profile=second, place=2, score=4)
    return events


def api(user=None) -> APIClient:
    """An API client, logged in as ``user`` if given."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def body(events, **extra):
    """A season of the given tournaments, points by place."""
    data = {"name": "Зимний сезон", "slug": "zima", "scoring": "place_points",
            "place_points": [10, 6], "tie_breaks": ["wins", "best"],
            "tournaments": [t.pk for t in events]}
    data.update(extra)
    return data


def test_an_organizer_creates_a_season_and_the_public_reads_its_table(organizer, two):
    response = api(organizer).post("/api/v1/seasons/", body(two[:1]), format="json")
    assert response.status_code == 201, response.content
    assert response.json()["tournaments"] == [two[0].pk]
    season = Season.objects.get(slug="zima")
    assert season.created_by == organizer and season.tie_breaks == ["wins", "best"]
    table = api().get("/api/v1/seasons/zima/").json()
    assert [(line["name"], line["total"]) for line in table["lines"]] == [
        ("Анна Иванова", 10), ("Борис Сидоров", 6)]


def test_a_season_of_another_organizers_tournament_is_refused_on_tournaments(
    organizer, make_user, two
):
    other = TournamentFactory(organizer=make_user(organizer=True), slug="chuzhoi")
    response = api(organizer).post("/api/v1/seasons/", body([two[0], other]), format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["tournaments"]
    assert not Season.objects.exists()


def test_an_unknown_tie_break_is_refused_naming_the_field(organizer, two):
    client = api(organizer)
    response = client.post("/api/v1/seasons/", body(two, tie_breaks=["luck"]), format="json")
    assert response.status_code == 400 and list(response.json()) == ["tie_breaks"]
    response = client.post("/api/v1/seasons/", body(two, scoring="best_n", best_n=0),
                           format="json")
    assert response.status_code == 400 and list(response.json()) == ["best_n"]
    assert not Season.objects.exists()


def test_a_player_may_not_create_a_season(make_user, two):
    response = api(make_user("igrok")).post("/api/v1/seasons/", body(two), format="json")
    assert response.status_code == 403 and not Season.objects.exists()


def test_the_organizer_changes_his_season_and_nobody_else(organizer, make_user, two):
    client = api(organizer)
    assert client.post("/api/v1/seasons/", body(two[:1]), format="json").status_code == 201
    rival = api(make_user("rival", organizer=True))
    assert rival.patch("/api/v1/seasons/zima/", {"name": "Чужой"},
                       format="json").status_code == 403
    response = client.patch("/api/v1/seasons/zima/",
                            {"name": "Сезон 2026", "tournaments": [t.pk for t in two]},
                            format="json")
    assert response.status_code == 200, response.content
    season = Season.objects.get(slug="zima")
    assert season.name == "Сезон 2026"
    assert sorted(season.tournaments.values_list("pk", flat=True)) == [t.pk for t in two]
    response = client.put("/api/v1/seasons/zima/", body(two, scoring="best_n", best_n=1,
                                                         place_points=[]), format="json")
    assert response.status_code == 200, response.content
    season.refresh_from_db()
    assert (season.scoring, season.best_n, season.name) == ("best_n", 1, "Зимний сезон")
    response = client.patch("/api/v1/seasons/zima/", {"tie_breaks": ["wins", "wins"]},
                            format="json")
    assert response.status_code == 400 and list(response.json()) == ["tie_breaks"]
    season.refresh_from_db()
    assert season.tie_breaks == ["wins", "best"]


def test_the_organizer_deletes_his_season_and_the_tournaments_stay(organizer, make_user, two):
    client = api(organizer)
    assert client.post("/api/v1/seasons/", body(two), format="json").status_code == 201
    rival = api(make_user("rival", organizer=True))
    assert rival.delete("/api/v1/seasons/zima/").status_code == 403
    assert client.delete("/api/v1/seasons/zima/").status_code == 204
    assert not Season.objects.exists()
    assert api().get("/api/v1/seasons/zima/").status_code == 404
    assert TournamentPlacing.objects.filter(tournament__in=two).count() == 4


def test_a_repeated_create_with_the_same_idempotency_key_makes_one_season(organizer, two):
    client = api(organizer)
    first = client.post("/api/v1/seasons/", body(two), format="json",
                        HTTP_IDEMPOTENCY_KEY="season-1")
    again = client.post("/api/v1/seasons/", body(two), format="json",
                        HTTP_IDEMPOTENCY_KEY="season-1")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json() and Season.objects.count() == 1
