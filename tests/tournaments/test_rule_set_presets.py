"""Presets for organizers: a new tournament's regulations come from its rule set (pages and
API), a format that contradicts the rule set is refused naming the field, and the
regulations show and validate the game settings of the tournament's rule set."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.core.errors import ServiceError
from scoring.models import GAME_SETTINGS, Pair, Player, Regulations, Round, Tournament
from scoring.rules import RULE_SETS, get_rule_set
from tournaments.setup.services import create_tournament, update_regulations, update_tournament

pytestmark = pytest.mark.django_db

# The format each rule set's preset needs: Kozel's four single players need the
# individual draw; every other preset plays in fixed sides (pairs, or one player each).
PRESET_FORMAT = {code: "pairs" for code in RULE_SETS} | {"kozel": "individual"}
SINGLES = {"udl", "allfives", "draw", "block", "classic", "kozel"}


def _form(**extra: str) -> dict[str, str]:
    data = {
        "name": "Кубок", "slug": "cup", "format": "pairs", "rule_set": "sport",
        "status": "registration", "start_date": "2026-12-01", "time_zone": "Europe/Moscow",
        "language": "ru", "public": "on",
    }
    data.update(extra)
    return data


@pytest.fixture
def api(organizer):
    client = APIClient()
    client.force_authenticate(organizer)
    return client


def _assert_preset(regulations: Regulations, code: str) -> None:
    """Every value the rule set's preset names is in the regulations; the rest are defaults."""
    preset = dict(get_rule_set(code).preset)
    assert preset or code == "sport"
    for name, value in preset.items():
        assert getattr(regulations, name) == value, (code, name)
    for name in GAME_SETTINGS:
        if name not in preset:
            assert getattr(regulations, name) == getattr(Regulations(), name), (code, name)


@pytest.mark.parametrize("code", list(RULE_SETS))
def test_creating_on_the_page_gives_the_rule_sets_preset(client, organizer, code):
    client.force_login(organizer)
    response = client.post(
        reverse("tournaments:create"),
        _form(slug=f"cup-{code}", rule_set=code, format=PRESET_FORMAT[code]),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(slug=f"cup-{code}")
    assert response.url == reverse("tournaments:regulations", args=[tournament.slug])
    _assert_preset(tournament.regulations, code)
    assert tournament.singles is (code in SINGLES)


@pytest.mark.parametrize("code", list(RULE_SETS))
def test_creating_through_the_api_gives_the_rule_sets_preset(api, code):
    response = api.post(
        "/api/v1/tournaments/",
        {"name": code, "slug": f"api-{code}", "rule_set": code, "format": PRESET_FORMAT[code]},
        format="json",
    )
    assert response.status_code == 201, response.data
    assert response.data["singles"] is (code in SINGLES)
    regulations = api.get(f"/api/v1/tournaments/{response.data['id']}/regulations/").data
    engine = get_rule_set(code)
    for name, value in engine.preset.items():
        if name in regulations:
            assert regulations[name] == value, (code, name)
    assert set(GAME_SETTINGS) & set(regulations) == set(engine.setting_names)  # its game's only


def test_udl_through_the_api_gets_udl_regulations(api):
    response = api.post(
        "/api/v1/tournaments/", {"name": "UDL Open", "slug": "udl-open", "rule_set": "udl"},
        format="json",
    )
    assert response.status_code == 201, response.data
    regulations = Tournament.objects.get(slug="udl-open").regulations
    assert (regulations.target, regulations.games_to_win, regulations.game_minutes) == (150, 3, 15)
    assert (regulations.party_minutes, regulations.fine_mode) == (45, "award")


def test_each_preset_keeps_every_value_editable(organizer):
    tournament = create_tournament(name="UDL", slug="udl-edit", organizer=organizer,
                                   rule_set="udl")
    regulations = update_regulations(tournament.pk, target=250, games_to_win=2,
                                     udl_slow_play_points=25)
    regulations.refresh_from_db()
    assert (regulations.target, regulations.games_to_win, regulations.udl_slow_play_points) == (
        250, 2, 25
    )


def test_kozel_of_four_single_players_in_pairs_format_refused_on_the_page(client, organizer):
    client.force_login(organizer)
    response = client.post(reverse("tournaments:create"),
                           _form(slug="goat", rule_set="kozel", format="pairs"))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == ["format"]
    assert "individual format" in errors["format"][0]
    assert not Tournament.objects.filter(slug="goat").exists()
    assert not Regulations.objects.filter(tournament__slug="goat").exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"rule_set": "kozel", "format": "pairs"}, "format"),
        ({"rule_set": "udl", "format": "individual"}, "format"),
        ({"rule_set": "allfives", "format": "individual"}, "format"),
        ({"rule_set": "draw", "format": "pairs", "players": 3}, "format"),
        ({"rule_set": "classic", "format": "individual", "players": 2}, "format"),
        ({"rule_set": "sport", "players": 3}, "players"),
        ({"rule_set": "udl", "players": 4}, "players"),
        ({"rule_set": "sport", "kozel_pairs": True}, "kozel_pairs"),
        ({"rule_set": "kozel", "format": "pairs", "players": 3, "kozel_pairs": True},
         "kozel_pairs"),
        ({"rule_set": "kozel", "players": 5, "format": "individual"}, "players"),
    ],
)
def test_contradictory_rule_set_and_format_refused_by_the_api(api, body, field):
    response = api.post("/api/v1/tournaments/", {"name": "X", "slug": "x", **body}, format="json")
    assert response.status_code == 400
    assert field in response.data, response.data
    assert not Tournament.objects.filter(slug="x").exists()


@pytest.mark.parametrize(
    ("body", "singles", "players"),
    [
        ({"rule_set": "kozel", "format": "pairs", "players": 2}, True, 2),
        ({"rule_set": "kozel", "format": "pairs", "kozel_pairs": True}, False, 4),
        ({"rule_set": "kozel", "format": "individual", "kozel_pairs": True}, False, 4),
        ({"rule_set": "kozel", "format": "individual", "players": 3}, True, 3),
        ({"rule_set": "draw", "format": "individual", "players": 4}, True, 4),
        ({"rule_set": "latin", "format": "individual"}, False, 4),
    ],
)
def test_consistent_combinations_are_created(api, body, singles, players):
    response = api.post("/api/v1/tournaments/", {"name": "X", "slug": "x", **body}, format="json")
    assert response.status_code == 201, response.data
    tournament = Tournament.objects.get(slug="x")
    assert tournament.singles is singles
    assert tournament.regulations.players == players


def test_create_page_explains_every_rule_set(client, organizer):
    client.force_login(organizer)
    page = client.get(reverse("tournaments:create")).content.decode()
    for code in RULE_SETS:
        assert f'id="rule-set-{code}"' in page
    assert "whoever first reaches 101 is the Goat and loses" in page
    assert "Each player for himself (a side is one player)" in page
    assert "Pairs of two players" in page


def _field_names(page: str) -> set[str]:
    return {name for name in GAME_SETTINGS if f'name="{name}"' in page}


@pytest.mark.parametrize(
    ("code", "fmt", "shown"),
    [
        ("sport", "pairs", set()),
        ("latin", "pairs", {"players", "latin_individual"}),
        ("udl", "pairs", {"tiles_per_hand", "game_minutes", "games_to_win", "match_format",
                          "udl_slow_play_points"}),
        ("allfives", "pairs", {"tiles_per_hand", "game_minutes", "games_to_win"}),
        ("classic", "pairs", {"players", "tiles_per_hand", "lone_zero_zero_in_fish"}),
        ("kozel", "individual", {"players", "tiles_per_hand", "fish_variant", "zero_zero_value",
                                 "six_six_value", "goat_at", "memorize_limit", "kozel_pairs"}),
    ],
)
def test_regulations_page_shows_the_rule_sets_game_settings(client, organizer, code, fmt, shown):
    tournament = create_tournament(name=code, slug=f"regs-{code}", organizer=organizer,
                                   rule_set=code, format=fmt)
    client.force_login(organizer)
    page = client.get(reverse("tournaments:regulations", args=[tournament.slug]))
    assert _field_names(page.content.decode()) == shown


def test_regulations_page_saves_and_refuses_game_settings(client, organizer):
    tournament = create_tournament(name="Козёл", slug="kozel-regs", organizer=organizer,
                                   rule_set="kozel", format="individual")
    client.force_login(organizer)
    url = reverse("tournaments:regulations", args=[tournament.slug])
    data = {k: v for k, v in client.get(url).context["form"].initial.items() if v is not None}
    data["standings_order"] = ""
    data = {k: v for k, v in data.items() if v is not False}
    response = client.post(url, {**data, "goat_at": 151, "fish_variant": "for_one"})
    assert response.status_code == 302
    tournament.regulations.refresh_from_db()
    assert (tournament.regulations.goat_at, tournament.regulations.fish_variant) == (
        151, "for_one"
    )
    # four players with eight tiles each would need 32 tiles of a set of 28
    response = client.post(url, {**data, "tiles_per_hand": 8})
    assert response.status_code == 200
    assert "tiles_per_hand" in response.context["form"].errors
    # two players are sides of one player: they contradict the individual format
    response = client.post(url, {**data, "players": 2})
    assert response.status_code == 200
    assert "pairs format" in response.context["form"].errors["players"][0]
    tournament.regulations.refresh_from_db()
    assert (tournament.regulations.players, tournament.regulations.tiles_per_hand) == (4, 7)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"goat_at": 0}, "goat_at"),
        ({"players": 5}, "players"),
        ({"tiles_per_hand": 8}, "tiles_per_hand"),
        ({"players": 3, "kozel_pairs": True}, "kozel_pairs"),
        ({"players": 2}, "players"),
        ({"fish_variant": "for_nobody"}, "fish_variant"),
    ],
)
def test_regulations_api_validates_game_settings(api, organizer, body, field):
    tournament = create_tournament(name="Козёл", slug="kozel-api", organizer=organizer,
                                   rule_set="kozel", format="individual")
    before = api.get(f"/api/v1/tournaments/{tournament.pk}/regulations/").data
    response = api.patch(f"/api/v1/tournaments/{tournament.pk}/regulations/", body, format="json")
    assert response.status_code == 400
    assert field in response.data, response.data
    assert api.get(f"/api/v1/tournaments/{tournament.pk}/regulations/").data == before


def test_regulations_api_changes_game_settings(api, organizer):
    tournament = create_tournament(name="Козёл", slug="kozel-ok", organizer=organizer,
                                   rule_set="kozel", format="individual")
    response = api.patch(f"/api/v1/tournaments/{tournament.pk}/regulations/",
                         {"players": 3, "zero_zero_value": 25}, format="json")
    assert response.status_code == 200, response.data
    assert (response.data["players"], response.data["zero_zero_value"]) == (3, 25)


def test_new_rule_set_on_the_edit_page_brings_its_preset(client, organizer):
    tournament = create_tournament(name="Кубок", slug="switch", organizer=organizer)
    client.force_login(organizer)
    url = reverse("tournaments:edit", args=[tournament.slug])
    data = {k: v for k, v in client.get(url).context["form"].initial.items()
            if v not in (None, False)}
    data["start_date"] = "2026-12-01"
    response = client.post(url, {**data, "rule_set": "udl"})
    assert response.status_code == 302
    regulations = Regulations.objects.get(tournament=tournament)
    assert (regulations.target, regulations.games_to_win, regulations.players) == (150, 3, 2)
    # and back: sport's regulations, not UDL's left-overs
    response = client.post(url, {**data, "rule_set": "sport"})
    assert response.status_code == 302
    regulations.refresh_from_db()
    assert (regulations.target, regulations.games_to_win, regulations.players) == (200, 1, 4)


def test_format_and_players_change_together_on_the_edit_page(organizer):
    tournament = create_tournament(name="Козёл", slug="goat-2", organizer=organizer,
                                   rule_set="kozel", format="individual")
    with pytest.raises(ServiceError) as err:
        update_tournament(tournament.pk, format="pairs")
    assert err.value.field == "format"
    update_tournament(tournament.pk, format="pairs", players=2)
    tournament.refresh_from_db()
    assert (tournament.format, tournament.regulations.players, tournament.singles) == (
        "pairs", 2, True
    )


def test_rule_set_cannot_change_once_a_round_exists(tournament):
    Round.objects.create(tournament=tournament, number=1)
    with pytest.raises(ServiceError) as err:
        update_tournament(tournament.pk, rule_set="latin")
    assert err.value.field == "rule_set"
    tournament.refresh_from_db()
    assert tournament.rule_set == "sport"


def test_rule_set_of_single_players_refused_while_pairs_are_registered(tournament):
    with pytest.raises(ServiceError) as err:
        update_tournament(tournament.pk, rule_set="udl")
    assert err.value.field == "rule_set"
    assert "remove the pairs first" in err.value.message
    assert Tournament.objects.get(pk=tournament.pk).rule_set == "sport"
    assert Regulations.objects.get(tournament=tournament).target == 200


def test_sport_form_still_registers_pairs_of_two(client, organizer):
    tournament = create_tournament(name="Кубок", slug="two", organizer=organizer)
    first, second = (Player.objects.create(tournament=tournament, name=n) for n in "AB")
    client.force_login(organizer)
    response = client.post(reverse("tournaments:pair_create", args=[tournament.slug]),
                           {"player1": first.pk, "rating": 0})
    assert response.status_code == 200
    assert "player2_name" in response.context["form"].errors  # the second player is missing
    assert not Pair.objects.filter(tournament=tournament).exists()


def test_individual_format_refused_while_pairs_are_registered(client, organizer, tournament):
    client.force_login(organizer)
    url = reverse("tournaments:edit", args=[tournament.slug])
    data = {k: v for k, v in client.get(url).context["form"].initial.items()
            if v not in (None, False)}
    data["start_date"] = "2026-12-01"
    response = client.post(url, {**data, "format": "individual"})
    assert response.status_code == 200
    assert "remove the registered pairs first" in response.context["form"].errors["format"][0]
    assert Tournament.objects.get(pk=tournament.pk).format == "pairs"
