"""API v1 of teams: list, register, change, withdraw and delete the teams of a team tournament
with their pairs; refusals are 400 naming the field and write nothing; only the tournament's
organizers write."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import Pair, Player, Team
from tournaments.registration.services import register_pair
from tournaments.setup.services import create_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(organizer):
    """A public team tournament with three registered pairs."""
    cup = create_tournament(name="Кубок клубов", slug="club-cup", organizer=organizer,
                            format="teams", team_squad_pairs=3, public=True)
    for k, rating in enumerate((1500, 1300, 1100)):
        register_pair(cup, Player.objects.create(tournament=cup, name=f"Игрок {k}А",
                                                 rating=rating),
                      Player.objects.create(tournament=cup, name=f"Игрок {k}Б", rating=rating))
    return cup


@pytest.fixture
def api(organizer):
    client = APIClient()
    client.force_authenticate(organizer)
    return client


def registered(cup) -> list[Pair]:
    return list(Pair.objects.filter(tournament=cup).order_by("id"))


def state(cup) -> tuple:
    return (list(Team.objects.filter(tournament=cup).values_list("name", "captain", "rating")),
            cup.players.count(), Pair.objects.filter(tournament=cup).count(),
            sorted(Pair.objects.filter(tournament=cup).values_list("id", "team")))


def test_register_list_change_withdraw_and_delete(api, cup):
    p1, p2, p3 = registered(cup)
    response = api.post("/api/v1/teams/", {
        "tournament": cup.pk, "name": "Дубль", "club": "Дубль-шесть", "country": "Россия",
        "pairs": [{"pair": p1.pk}, {"players": [{"name": "Анна Белова", "rating": 1500},
                                                {"name": "Вера Котова", "rating": 1301}],
                                    "name": "Дамы"}],
        "captain_name": "Вера Котова"}, format="json", HTTP_IDEMPOTENCY_KEY="team-1")
    assert response.status_code == 201, response.json()
    body = response.json()
    vera = Player.objects.get(name="Вера Котова")
    assert (body["name"], body["club"], body["country"], body["captain"], body["rating"]) == (
        "Дубль", "Дубль-шесть", "Россия", vera.pk, 1450)
    assert [p["display_name"] for p in body["pairs"]] == ["Игрок 0А / Игрок 0Б", "Дамы"]
    assert vera.club == "Дубль-шесть"
    # the same request retried: the stored answer, no second team
    again = api.post("/api/v1/teams/", {
        "tournament": cup.pk, "name": "Дубль", "club": "Дубль-шесть", "country": "Россия",
        "pairs": [{"pair": p1.pk}, {"players": [{"name": "Анна Белова", "rating": 1500},
                                                {"name": "Вера Котова", "rating": 1301}],
                                    "name": "Дамы"}],
        "captain_name": "Вера Котова"}, format="json", HTTP_IDEMPOTENCY_KEY="team-1")
    assert again.status_code == 201 and again.json()["id"] == body["id"]
    assert Team.objects.count() == 1
    listing = APIClient().get(f"/api/v1/teams/?tournament={cup.pk}").json()
    rows = listing["results"] if isinstance(listing, dict) else listing
    assert [row["name"] for row in rows] == ["Дубль"]
    url = f"/api/v1/teams/{body['id']}/"
    response = api.patch(url, {"pairs": [{"pair": p1.pk}, {"pair": p2.pk}, {"pair": p3.pk}],
                               "captain": p3.player1_id}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["rating"] == 1300 and response.json()["captain"] == p3.player1_id
    assert Pair.objects.get(name="Дамы").team is None  # left the team, still registered
    response = api.post(url + "withdraw/", {"withdrawn": True}, format="json")
    assert response.status_code == 200 and response.json()["withdrawn"] is True
    assert api.delete(url).status_code == 204
    assert not Team.objects.exists() and Pair.objects.filter(tournament=cup).count() == 4


@pytest.mark.parametrize(("body", "field"), [
    ({"name": ""}, "name"),
    ({"pairs": [{"pair": "first"}]}, "pairs"),
    ({"pairs": [{"pair": "first"}, {"pair": "first"}]}, "pairs"),
    ({"pairs": [{"pair": "first"}, {"pair": 999999}]}, "pairs"),
    ({"pairs": [{"pair": "first"}, {"players": [{"name": "Один"}]}]}, "pairs"),
    ({"pairs": [{"pair": "first"}, {"players": [{"name": "Один"}, {"name": ""}]}]}, "pairs"),
    ({"pairs": [{"pair": "first"}, {"pair": "second"}, {"pair": "third"},
                {"players": [{"name": "Н1"}, {"name": "Н2"}]}]}, "pairs"),
    ({"captain": 999999}, "captain"),
    ({"captain_name": "Никто"}, "captain"),
    ({"tournament": 999999}, "tournament"),
])
def test_refusals_are_400_naming_the_field_and_write_nothing(api, cup, body, field):
    p1, p2, p3 = registered(cup)
    ids = {"first": p1.pk, "second": p2.pk, "third": p3.pk}
    for item in body.get("pairs", []):
        if isinstance(item.get("pair"), str):
            item["pair"] = ids[item["pair"]]
    before = state(cup)
    response = api.post("/api/v1/teams/", {
        "tournament": cup.pk, "name": "Команда",
        "pairs": [{"pair": p1.pk}, {"pair": p2.pk}], **body}, format="json")
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert state(cup) == before


def test_a_pair_of_another_team_and_a_taken_name_are_refused(api, cup):
    p1, p2, p3 = registered(cup)
    first = api.post("/api/v1/teams/", {"tournament": cup.pk, "name": "Первые",
                                        "pairs": [{"pair": p1.pk}, {"pair": p2.pk}]},
                     format="json")
    assert first.status_code == 201
    before = state(cup)
    response = api.post("/api/v1/teams/", {"tournament": cup.pk, "name": "Вторые",
                                           "pairs": [{"pair": p3.pk}, {"pair": p2.pk}]},
                        format="json")
    assert response.status_code == 400
    assert "already plays for the team Первые" in response.json()["pairs"][0]
    response = api.post("/api/v1/teams/", {"tournament": cup.pk, "name": "первые",
                                           "pairs": [{"pair": p3.pk}, {"players": [
                                               {"name": "Н1"}, {"name": "Н2"}]}]},
                        format="json")
    assert response.status_code == 400 and "name" in response.json()
    assert state(cup) == before


def test_a_pairs_tournament_has_no_teams(api, tournament):
    pairs = list(tournament.pairs.all()[:2])
    response = api.post("/api/v1/teams/", {"tournament": tournament.pk, "name": "Команда",
                                           "pairs": [{"pair": p.pk} for p in pairs]},
                        format="json")
    assert response.status_code == 400 and "tournament" in response.json()
    assert not Team.objects.exists()


def test_only_the_organizer_writes(cup, make_user):
    p1, p2, _p3 = registered(cup)
    stranger = APIClient()
    stranger.force_authenticate(make_user("stranger", organizer=True))
    response = stranger.post("/api/v1/teams/", {"tournament": cup.pk, "name": "Чужие",
                                                "pairs": [{"pair": p1.pk}, {"pair": p2.pk}]},
                             format="json")
    assert response.status_code == 403
    assert not Team.objects.exists()


def test_unknown_query_parameters_are_refused(api, cup):
    response = api.get("/api/v1/teams/?team_name=x")
    assert response.status_code == 400 and "team_name" in response.json()
