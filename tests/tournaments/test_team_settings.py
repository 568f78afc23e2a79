"""A team tournament's settings: offered by the create/edit form only for the team format
(the tie-breaks as numbered selects of their names), read and written by the API, refused
with the field named and nothing saved."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Player, Tournament
from tournaments.registration.services import register_pair
from tournaments.registration.teams import register_team
from tournaments.setup.services import create_tournament

pytestmark = pytest.mark.django_db

FORM = {"name": "Командный кубок", "slug": "team-cup", "rule_set": "sport",
        "start_date": "2026-12-01", "time_zone": "Europe/Moscow", "language": "ru",
        "public": "on"}


def _places(**keys: str) -> dict:
    return {f"team_tie_breaks_{i}": key for i, key in enumerate(keys.values())}


def test_the_form_creates_a_team_tournament_with_its_settings(client, organizer):
    client.force_login(organizer)
    response = client.post(reverse("tournaments:create"), {
        **FORM, "format": "teams", "team_squad_pairs": "3", "team_halves": "on",
        "team_scoring": "points", **_places(a="buchholz", b="party_wins")})
    assert response.status_code == 302, response.content.decode()[-3000:]
    cup = Tournament.objects.get(slug="team-cup")
    assert (cup.format, cup.team_squad_pairs, cup.team_halves, cup.team_lineup_changes,
            cup.team_scoring) == ("teams", 3, True, False, "points")
    assert cup.team_tie_breaks == ["buchholz", "party_wins"]
    html = client.get(reverse("tournaments:edit", args=[cup.slug])).content.decode()
    fieldset = re.search(r'<fieldset[^>]*id="team-settings"[^>]*>', html).group(0)
    assert "hidden" not in fieldset
    assert re.search(r'name="team_tie_breaks_0"[^>]*>.*?<option value="buchholz" selected',
                     html, re.S)


def test_a_pairs_tournament_hides_the_team_settings_and_keeps_their_defaults(
        client, organizer, tournament):
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    html = client.get(reverse("tournaments:create")).content.decode()
    fieldset = re.search(r'<fieldset[^>]*id="team-settings"[^>]*>', html).group(0)
    assert "hidden" in fieldset and 'data-shown-for-format="teams"' in fieldset
    assert '<option value="teams">Командный турнир</option>' in html
    assert "Личные встречи" in html  # a tie-break by its Russian name
    response = client.post(reverse("tournaments:create"), {**FORM, "format": "pairs"})
    assert response.status_code == 302
    pairs = Tournament.objects.get(slug="team-cup")
    assert (pairs.team_squad_pairs, pairs.team_scoring) == (2, "match_points")
    assert pairs.team_tie_breaks == ["party_wins", "point_difference", "head_to_head",
                                     "buchholz"]


@pytest.mark.parametrize(("more", "error"), [
    (_places(a="buchholz", b="buchholz"), "Buchholz is chosen twice."),
    ({"team_squad_pairs": "7"}, "Ensure this value is less than or equal to 6."),
    ({"team_squad_pairs": "1"}, "Ensure this value is greater than or equal to 2."),
    ({"team_scoring": "goals"}, "Select a valid choice."),
])
def test_refused_settings_save_nothing(client, organizer, more, error):
    client.force_login(organizer)
    response = client.post(reverse("tournaments:create"), {**FORM, "format": "teams", **more})
    assert response.status_code == 200
    assert error in response.content.decode()
    assert not Tournament.objects.filter(slug="team-cup").exists()


def test_a_team_tournament_needs_sides_of_two(organizer):
    from scoring.core.errors import ServiceError

    with pytest.raises(ServiceError) as err:
        create_tournament(name="Козёл", slug="k", organizer=organizer, rule_set="kozel",
                          format="teams")
    assert err.value.field == "format" and "needs sides of two players" in err.value.message


def _team_cup(organizer) -> Tournament:
    cup = create_tournament(name="Кубок команд", slug="cup", organizer=organizer,
                            format="teams", team_squad_pairs=3)
    made = []
    for k in range(3):
        first = Player.objects.create(tournament=cup, name=f"А{k}")
        second = Player.objects.create(tournament=cup, name=f"Б{k}")
        made.append(register_pair(cup, first, second))
    register_team(cup, name="Тройка", pairs=made)
    return cup


def test_the_squad_cannot_shrink_below_a_registered_team_nor_the_format_change(
        client, organizer):
    cup = _team_cup(organizer)
    api = APIClient()
    api.force_authenticate(organizer)
    url = f"/api/v1/tournaments/{cup.pk}/"
    response = api.patch(url, {"team_squad_pairs": 2}, format="json")
    assert response.status_code == 400
    assert "The team Тройка has 3 pairs already." in response.json()["team_squad_pairs"][0]
    response = api.patch(url, {"format": "pairs"}, format="json")
    assert response.status_code == 400 and "format" in response.json()
    cup.refresh_from_db()
    assert (cup.format, cup.team_squad_pairs) == ("teams", 3)


def test_the_api_reads_and_writes_the_team_settings(organizer):
    api = APIClient()
    api.force_authenticate(organizer)
    response = api.post("/api/v1/tournaments/", {
        "name": "Кубок клубов", "format": "teams", "team_squad_pairs": 4, "team_halves": True,
        "team_scoring": "parties", "team_tie_breaks": ["head_to_head", "party_wins"]},
        format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["format"], body["team_squad_pairs"], body["team_halves"],
            body["team_lineup_changes"], body["team_scoring"], body["team_tie_breaks"]) == (
        "teams", 4, True, False, "parties", ["head_to_head", "party_wins"])
    url = f"/api/v1/tournaments/{body['id']}/"
    assert api.patch(url, {"team_tie_breaks": []}, format="json").json()["team_tie_breaks"] == [
        "party_wins", "point_difference", "head_to_head", "buchholz"]


@pytest.mark.parametrize(("body", "field"), [
    ({"team_tie_breaks": ["goals"]}, "team_tie_breaks"),
    ({"team_tie_breaks": ["buchholz", "buchholz"]}, "team_tie_breaks"),
    ({"team_tie_breaks": "buchholz"}, "team_tie_breaks"),
    ({"team_squad_pairs": 9}, "team_squad_pairs"),
    ({"team_scoring": "goals"}, "team_scoring"),
    ({"team_halves": "maybe"}, "team_halves"),
])
def test_the_api_refuses_bad_team_settings_naming_the_field(organizer, body, field):
    api = APIClient()
    api.force_authenticate(organizer)
    response = api.post("/api/v1/tournaments/", {"name": "Кубок", "format": "teams", **body},
                        format="json")
    assert response.status_code == 400
    assert list(response.json()) == [field]
    assert not Tournament.objects.filter(name="Кубок").exists()
