"""Conveniences of the API (issue 18, item 4): slugs from names, singles sides in one call,
the regulations of the tournament's own game, and a round's scheduled start."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from referee import tasks
from scoring.models import GAME_SETTINGS, Pair, Party, PartyDesk, Player, Round, Tournament
from tournaments.setup.services import create_tournament, derive_slug, update_regulations

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(organizer) -> APIClient:
    """An API client of the organizer."""
    client = APIClient()
    client.force_authenticate(organizer)
    return client


# 1. A tournament's slug from its name


def test_slug_is_derived_from_a_cyrillic_name(api):
    response = api.post("/api/v1/tournaments/", {"name": "Кубок Москвы 2026"}, format="json")
    assert response.status_code == 201, response.data
    assert response.data["slug"] == "kubok-moskvy-2026"
    again = api.post("/api/v1/tournaments/", {"name": "Кубок Москвы 2026", "slug": ""},
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
    response = api.post("/api/v1/tournaments/", {"name": "Второй", "slug": slug}, format="json")
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


# 2. A singles player with his side in one call


@pytest.fixture
def singles(organizer) -> Tournament:
    """A UDL singles tournament (a side is one player, pairs format)."""
    return create_tournament(name="UDL", slug="udl-cup", organizer=organizer, rule_set="udl")


def test_a_singles_player_is_registered_with_his_side(api, singles):
    response = api.post("/api/v1/players/", {"tournament": singles.pk, "name": "Иван Петров"},
                        format="json")
    assert response.status_code == 201, response.data
    side = Pair.objects.get(pk=response.data["side"])
    assert (side.player1_id, side.player2_id) == (response.data["id"], None)
    assert "register_side" not in response.data
    listed = api.get("/api/v1/players/", {"tournament": singles.pk}).data
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [row["side"] for row in rows] == [side.pk]
    assert api.get(f"/api/v1/players/{response.data['id']}/").data["side"] == side.pk


def test_a_singles_player_alone_when_asked(api, singles):
    response = api.post("/api/v1/players/", {"tournament": singles.pk, "name": "Запасной",
                                          "register_side": False}, format="json")
    assert response.status_code == 201, response.data
    assert response.data["side"] is None
    assert not Pair.objects.filter(tournament=singles).exists()


def test_a_failing_side_leaves_no_player(api, singles, monkeypatch):
    from tournaments.registration import services

    def broken(*args, **kwargs):
        raise services.ServiceError("player1", "broken")

    monkeypatch.setattr(services, "register_pair", broken)
    response = api.post("/api/v1/players/", {"tournament": singles.pk, "name": "Никто"},
                        format="json")
    assert response.status_code == 400
    assert not Player.objects.filter(tournament=singles).exists()


def test_pairs_tournaments_register_the_player_alone(api, tournament):
    response = api.post("/api/v1/players/", {"tournament": tournament.pk, "name": "Новичок"},
                        format="json")
    assert response.status_code == 201, response.data
    assert response.data["side"] is None
    refused = api.post("/api/v1/players/", {"tournament": tournament.pk, "name": "Ещё один",
                                         "register_side": True}, format="json")
    assert refused.status_code == 400
    assert list(refused.data) == ["register_side"]
    assert not Player.objects.filter(name="Ещё один").exists()


def test_a_second_player_of_a_singles_side_is_refused(api, singles):
    one, two = (
        api.post("/api/v1/players/", {"tournament": singles.pk, "name": name,
                                   "register_side": False}, format="json").data["id"]
        for name in ("Первый", "Второй")
    )
    response = api.post("/api/v1/pairs/", {"tournament": singles.pk, "player1": one,
                                        "player2": two}, format="json")
    assert response.status_code == 400
    assert list(response.data) == ["player2"]
    assert "one player" in str(response.data["player2"][0])
    assert not Pair.objects.filter(tournament=singles).exists()


def test_the_schema_documents_the_side():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    assert "register_side" in components["PlayerRequest"]["properties"]  # what is sent
    assert "side" in components["Player"]["properties"]  # what is answered
    assert "one transaction" in schema["paths"]["/api/v1/players/"]["post"]["description"]


# 3. The regulations of the tournament's own game


def test_regulations_show_only_the_games_settings(api, organizer, singles):
    sport = create_tournament(name="Спорт", slug="sport-regs", organizer=organizer)
    shown = api.get(f"/api/v1/tournaments/{sport.pk}/regulations/").data
    assert not set(GAME_SETTINGS) & set(shown)
    assert {"target", "party_minutes", "no_show_minutes"} <= set(shown)
    udl = api.get(f"/api/v1/tournaments/{singles.pk}/regulations/").data
    assert set(GAME_SETTINGS) & set(udl) == set(singles.engine.setting_names)


def test_a_setting_of_another_game_is_refused(api, singles):
    before = api.get(f"/api/v1/tournaments/{singles.pk}/regulations/").data
    response = api.patch(f"/api/v1/tournaments/{singles.pk}/regulations/",
                         {"target": 200, "goat_at": 120, "games_to_win": 2}, format="json")
    assert response.status_code == 400
    assert list(response.data) == ["goat_at"]
    assert str(response.data["goat_at"][0]) == "Not a setting of UDL singles (All Fives)."
    assert api.get(f"/api/v1/tournaments/{singles.pk}/regulations/").data == before
    ok = api.patch(f"/api/v1/tournaments/{singles.pk}/regulations/", {"games_to_win": 2},
                   format="json")
    assert ok.status_code == 200, ok.data
    assert ok.data["games_to_win"] == 2


def test_the_service_refuses_a_setting_of_another_game(singles):
    from scoring.core.errors import ServiceError

    with pytest.raises(ServiceError) as refused:
        update_regulations(singles.pk, kozel_pairs=True)
    assert refused.value.field == "kozel_pairs"


def test_the_schema_documents_every_games_settings_as_optional():
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    component = schema["components"]["schemas"]["Regulations"]
    assert set(GAME_SETTINGS) <= set(component["properties"])
    assert not set(GAME_SETTINGS) & set(component.get("required", []))


# 4. A round's scheduled start drives the no-show clock


def test_a_scheduled_start_in_the_past_waits_for_the_actual_start(api, make_party):
    party = make_party()
    start = (timezone.now() - timedelta(minutes=10)).replace(microsecond=0)
    response = api.patch(f"/api/v1/rounds/{party.round_id}/",
                         {"starts_at": start.isoformat()}, format="json")
    assert response.status_code == 200, response.data
    assert Round.objects.get(pk=party.round_id).scheduled_start == start
    assert response.data["starts_at"] is not None
    assert tasks.sweep_no_shows() == []  # the round is late: no party has started
    Party.objects.filter(pk=party.pk).update(started_at=timezone.now() - timedelta(minutes=6))
    assert tasks.sweep_no_shows() == [party.pk]
    desk = PartyDesk.objects.get(party=party)
    assert desk.no_show_sides == "ab" and desk.no_show_raised_at is not None


def test_a_scheduled_start_ahead_raises_nothing_yet(api, make_party):
    party = make_party()
    start = timezone.now() + timedelta(minutes=30)
    response = api.patch(f"/api/v1/rounds/{party.round_id}/",
                         {"starts_at": start.isoformat()}, format="json")
    assert response.status_code == 200, response.data
    assert tasks.sweep_no_shows() == []


@pytest.mark.parametrize("value", ["2026-05-01T10:00:00", "tomorrow"])
def test_a_scheduled_start_needs_a_time_zone(api, make_party, value):
    party = make_party()
    response = api.patch(f"/api/v1/rounds/{party.round_id}/", {"starts_at": value},
                         format="json")
    assert response.status_code == 400
    assert list(response.data) == ["starts_at"]
    assert Round.objects.get(pk=party.round_id).scheduled_start is None


def test_a_started_round_keeps_its_scheduled_start(api, party):
    response = api.patch(f"/api/v1/rounds/{party.round_id}/",
                         {"starts_at": "2026-05-01T10:00:00+03:00"}, format="json")
    assert response.status_code == 400
    assert list(response.data) == ["starts_at"]
    assert "has started" in str(response.data["starts_at"][0])
    assert Round.objects.get(pk=party.round_id).scheduled_start is None


def test_only_organizers_schedule_a_round(make_party, referee_user):
    party = make_party()
    client = APIClient()
    client.force_authenticate(referee_user)
    response = client.patch(f"/api/v1/rounds/{party.round_id}/",
                            {"starts_at": "2026-05-01T10:00:00+03:00"}, format="json")
    assert response.status_code == 403
    assert client.put(f"/api/v1/rounds/{party.round_id}/", {}, format="json").status_code in (
        403, 405
    )


def test_the_schema_documents_the_scheduled_start():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operation = schema["paths"]["/api/v1/rounds/{id}/"]["patch"]
    assert {"400", "403", "404"} <= set(operation["responses"])
    assert "RoundSchedule" in str(operation["requestBody"])
