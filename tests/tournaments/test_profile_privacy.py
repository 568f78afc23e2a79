"""Who sees a person: profiles and player pages only through tournaments the visitor may see;
birth year and federation id only for staff and the organizers of a tournament where he plays."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Profile
from scoring.people.profiles import new_profile
from tests.factories import TournamentFactory
from tournaments.registration.services import register_player

pytestmark = pytest.mark.django_db


@dataclass
class People:
    """A public player, a player entered only in a hidden tournament, and the users."""

    public: Profile
    secret: Profile
    users: dict[str, Any]


@pytest.fixture
def people(tournament, organizer, make_user) -> People:
    """Иван plays in our public tournament; Тайный only in a hidden one of its own organizer
    (with a login of his own); a stranger organizes an unrelated hidden tournament."""
    public = register_player(tournament, name="Иван Открытый", club="Рыба",
                             birth_year=1980, federation_id="RU-1").profile
    owner = make_user("owner", organizer=True)
    hidden = TournamentFactory(name="Закрытый турнир", slug="closed", organizer=owner,
                               public=False)
    login = make_user("secret-player")
    secret = register_player(hidden, name="Тайный Игрок", club="Тень", city="Мурманск",
                             birth_year=1975, federation_id="RU-9", user=login).profile
    Profile.objects.filter(pk=secret.pk).update(user=login)
    stranger = make_user("stranger", organizer=True)
    TournamentFactory(name="Своё", slug="own-closed", organizer=stranger, public=False)
    return People(public, secret, {
        "anonymous": None, "stranger": stranger, "organizer": organizer, "owner": owner,
        "himself": login, "staff": make_user("staff", is_staff=True),
    })


def _api(people: People, role: str) -> APIClient:
    client = APIClient()
    if people.users[role] is not None:
        client.force_authenticate(people.users[role])
    return client


def _page(people: People, role: str) -> Client:
    client = Client()
    if people.users[role] is not None:
        client.force_login(people.users[role])
    return client


SEES_SECRET = {"owner", "himself", "staff"}
DETAILS_OF_SECRET = {"owner", "staff"}
DETAILS_OF_PUBLIC = {"organizer", "staff"}
ROLES = ("anonymous", "stranger", "organizer", "owner", "himself", "staff")


@pytest.mark.parametrize("role", ROLES)
def test_the_profiles_api_shows_a_person_through_visible_tournaments_only(people, role):
    api = _api(people, role)
    listed = {p["name"]: p for p in api.get("/api/v1/profiles/").json()["results"]}
    assert ("Тайный Игрок" in listed) == (role in SEES_SECRET)
    assert "Иван Открытый" in listed
    assert ("birth_year" in listed["Иван Открытый"]) == (role in DETAILS_OF_PUBLIC)
    assert ("federation_id" in listed["Иван Открытый"]) == (role in DETAILS_OF_PUBLIC)
    secret = api.get(f"/api/v1/profiles/{people.secret.pk}/")
    assert secret.status_code == (200 if role in SEES_SECRET else 404)
    if role in SEES_SECRET:
        body = secret.json()
        shown = role in DETAILS_OF_SECRET
        assert (body.get("birth_year"), body.get("federation_id")) == (
            (1975, "RU-9") if shown else (None, None))
    found = api.get("/api/v1/profiles/", {"search": "тайный"}).json()["count"]
    assert found == (1 if role in SEES_SECRET else 0)
    record = api.get(f"/api/v1/profiles/{people.secret.pk}/record/")
    assert record.status_code == (200 if role in SEES_SECRET else 404)
    one = api.get(f"/api/v1/profiles/{people.public.pk}/").json()
    assert (one.get("birth_year") == 1980) == (role in DETAILS_OF_PUBLIC)


@pytest.mark.parametrize("role", ROLES)
def test_the_player_page_of_a_hidden_only_person_is_404_to_others(people, role):
    client = _page(people, role)
    answer = client.get(reverse("tournaments:profile", args=[people.secret.pk]))
    assert answer.status_code == (200 if role in SEES_SECRET else 404)
    assert ("Мурманск" in answer.content.decode()) == (role in SEES_SECRET)
    assert client.get(reverse("tournaments:profile", args=[people.public.pk])).status_code == 200


def test_a_merged_address_does_not_lead_strangers_to_a_hidden_person(people):
    old = Profile.objects.create(name="Т. Игрок", merged_into=people.secret)
    assert APIClient().get(f"/api/v1/profiles/{old.pk}/").status_code == 404
    assert Client().get(reverse("tournaments:profile", args=[old.pk])).status_code == 404
    owner = _api(people, "owner").get(f"/api/v1/profiles/{old.pk}/")
    assert owner.status_code == 301


def test_an_organizer_finds_and_links_only_people_he_may_see(people, tournament):
    """The profile search of the forms and the API's profile field: another organizer's hidden
    player is neither offered nor linkable (linking would show his details)."""
    search = reverse("tournaments:profile_search")
    query = {"for": "player", "player_find": "тайный"}
    assert "Тайный" not in _page(people, "stranger").get(search, query).content.decode()
    mine = _page(people, "owner").get(search, query).content.decode()
    assert "Тайный Игрок — Тень, Мурманск, born 1975, id RU-9" in mine
    public = _page(people, "owner").get(
        search, {"for": "player", "player_find": "иван"}).content.decode()
    assert "Иван Открытый — Рыба" in public and "1980" not in public
    made = _api(people, "organizer").post("/api/v1/players/", {
        "tournament": tournament.pk, "name": "Тайный Игрок", "profile": people.secret.pk},
        format="json")
    assert made.status_code == 400 and list(made.json()) == ["profile"]
    page = _page(people, "organizer").post(
        reverse("tournaments:player_create", args=[tournament.slug]),
        {"name": "Тайный Игрок", "rating": 0, "player_profile": str(people.secret.pk)})
    assert page.status_code == 200 and not tournament.players.filter(
        profile=people.secret).exists()


def test_an_organizer_reads_the_details_of_his_own_players_only(people, tournament):
    """The organizer of a tournament where the person plays reads his birth year; once the
    person plays in one of his tournaments, so does another organizer."""
    assert "birth_year" not in _api(people, "owner").get(
        f"/api/v1/profiles/{people.public.pk}/").json()
    hidden = TournamentFactory(name="Ещё", slug="more", organizer=people.users["owner"],
                               public=False)
    register_player(hidden, name="Иван Открытый", profile=people.public)
    assert _api(people, "owner").get(
        f"/api/v1/profiles/{people.public.pk}/").json()["birth_year"] == 1980


def test_a_profile_playing_nowhere_is_for_staff_only(people):
    orphan = new_profile(name="Никто Нигде")
    for role in ("anonymous", "stranger", "organizer"):
        assert _api(people, role).get(f"/api/v1/profiles/{orphan.pk}/").status_code == 404
    assert _api(people, "staff").get(f"/api/v1/profiles/{orphan.pk}/").status_code == 200
