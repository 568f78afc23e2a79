"""Profiles: one person across tournaments — registration links, matching, merging, resolving,
who may merge, the merge page and the API."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.access import profiles as access
from scoring.core.errors import ServiceError
from scoring.models import Player, Profile, RatingEntry, RatingList
from scoring.people.merges import merge_profiles
from scoring.people.profiles import match_profiles, new_profile, resolve_profile
from tournaments.registration.services import register_player
from tournaments.setup.services import create_tournament
from tournaments.transfer import exports

pytestmark = pytest.mark.django_db


def standings(tournament) -> list[tuple]:
    sheet = exports.export_sheet(tournament, "standings")
    return [tuple(row) for row in sheet.rows]


@pytest.fixture
def two_events(make_field):
    """Two played tournaments of 4 pairs; every player with a profile of his own."""
    first, second = make_field(4, slug="first-event"), make_field(4, slug="second-event")
    for player in Player.objects.filter(tournament__in=[first, second]):
        player.profile = new_profile(name=player.name, club=f"Клуб {player.tournament_id}")
        player.save(update_fields=["profile"])
    return first, second


def test_a_registered_player_gets_a_new_profile_or_the_one_given(tournament):
    made = register_player(tournament, name="Ёлкин  Щукин", club="Азов")
    assert (made.profile.name, made.profile.club, made.profile.name_key) == (
        "Ёлкин Щукин", "Азов", "елкин щукин")
    other = create_tournament(name="Второй", slug="second-one", organizer=None)
    again = register_player(other, name="Ёлкин Щукин", profile=made.profile)
    assert again.profile == made.profile
    with pytest.raises(ServiceError) as err:
        register_player(other, name="Ёлкин Щ.", profile=made.profile)
    assert err.value.field == "profile"


def test_matching_rule(tournament):
    one = new_profile(name="Пётр Виноградов", club="Рыба", birth_year=1970)
    found = match_profiles([
        {"name": "петр виноградов", "club": "РЫБА", "birth_year": 1970},
        {"name": "Пётр Виноградов", "club": "Рыба", "birth_year": 1971},
        {"name": "Пётр Виноградов"},
        {"name": "Кто-то Новый", "club": "Рыба", "birth_year": 1970},
    ], viewer=None)
    assert found[0].profile == one and not found[0].doubtful
    assert found[1].doubtful and found[1].candidates == [one]
    assert found[2].doubtful and found[2].reason == "name_only"
    assert found[3].profile is None and not found[3].doubtful


def test_merge_moves_entries_and_rating_rows_and_keeps_every_result(two_events):
    first, second = two_events
    keep = first.players.get(name="Игрок 000").profile
    other = second.players.get(name="Игрок 000").profile
    partner = second.players.get(name="Игрок 001").profile
    other.birth_year, other.federation_id = 1981, "RU-77"
    other.save()
    ratings = RatingList.objects.create(name="Рейтинг", slug="reyting")
    row = RatingEntry.objects.create(rating_list=ratings, profile=other, partner=partner,
                                     tournament=second, sequence=1, subject="a", rating=1500)
    row2 = RatingEntry.objects.create(rating_list=ratings, profile=partner, partner=other,
                                      tournament=second, sequence=1, subject="b", rating=1500)
    before = standings(first), standings(second)
    entries = sorted(Player.objects.values_list("pk", "tournament_id", "name"))

    merge_profiles(keep, other)

    assert (standings(first), standings(second)) == before
    assert sorted(Player.objects.values_list("pk", "tournament_id", "name")) == entries
    assert set(keep.entries.values_list("tournament_id", flat=True)) == {first.pk, second.pk}
    keep.refresh_from_db()
    other.refresh_from_db()
    assert (keep.birth_year, keep.federation_id) == (1981, "RU-77")
    assert other.merged_into == keep and other.federation_id == ""
    row.refresh_from_db()
    row2.refresh_from_db()
    assert row.profile == keep and row2.partner == keep
    assert resolve_profile(other.pk) == keep


def test_merge_follows_earlier_merges_and_refuses_two_people(two_events):
    first, second = two_events
    a = first.players.get(name="Игрок 002").profile
    b = second.players.get(name="Игрок 002").profile
    c = new_profile(name="Игрок 002", city="Тверь")
    merge_profiles(b, c)
    merge_profiles(a, b)
    assert resolve_profile(c.pk) == a  # c → b → a, re-pointed straight at a
    assert Profile.objects.get(pk=c.pk).merged_into_id == a.pk
    with pytest.raises(ServiceError):
        merge_profiles(a, a)
    same_event = first.players.get(name="Игрок 003").profile
    with pytest.raises(ServiceError, match="same tournament"):
        merge_profiles(a, same_event)
    x, y = new_profile(name="X", federation_id="1"), new_profile(name="X", federation_id="2")
    with pytest.raises(ServiceError, match="federation ids"):
        merge_profiles(x, y)


def test_who_may_merge(two_events, organizer, make_user):
    """Staff merge any two profiles; an organizer two that both play only in tournaments he
    organizes; a profile playing nowhere, or also in another organizer's tournament, is
    staff's."""
    from tests.factories import PlayerFactory, TournamentFactory

    first, second = two_events
    mine = first.players.first().profile
    also_mine = second.players.first().profile
    nowhere = new_profile(name="Никто")
    theirs = TournamentFactory(name="Чужой", slug="theirs", public=False)
    elsewhere = PlayerFactory(tournament=theirs, name="Чужой",
                              profile=new_profile(name="Чужой")).profile
    both = second.players.last().profile
    PlayerFactory(tournament=theirs, name=both.name, profile=both)
    stranger = make_user("stranger", organizer=True)
    staff = make_user("staff", is_staff=True)
    assert access.can_merge_profiles(organizer, mine, also_mine)
    assert not access.can_merge_profiles(organizer, mine, nowhere)
    assert not access.can_merge_profiles(organizer, mine, elsewhere)
    assert not access.can_merge_profiles(organizer, mine, both)
    assert not access.can_merge_profiles(stranger, mine, also_mine)
    assert not access.can_merge_profiles(theirs.roles.get().user, elsewhere, mine)
    assert access.can_merge_profiles(staff, nowhere, elsewhere)


def test_merge_page_merges_for_the_organizer(client, two_events, organizer):
    first, second = two_events
    keep = first.players.get(name="Игрок 004").profile
    other = second.players.get(name="Игрок 004").profile
    client.force_login(organizer)
    url = reverse("tournaments:profile_merge")
    page = client.get(url, {"keep": keep.pk, "other": other.pk})
    assert page.status_code == 200 and "Игрок 004" in page.content.decode()
    done = client.post(url, {"keep_profile": keep.pk, "other_profile": other.pk})
    assert done.status_code == 302
    assert Profile.objects.get(pk=other.pk).merged_into == keep
    refused = client.post(url, {"keep_profile": keep.pk, "other_profile": keep.pk})
    assert refused.status_code == 400


def test_search_fragment_shows_namesakes_apart(client, tournament, organizer, make_user):
    for club, city, year in (("Дубль", "Москва", 1979), ("Рыба", "Тверь", None)):
        register_player(tournament, name="Иван Петров", club=club, city=city,
                        profile=new_profile(name="Иван Петров", club=club, city=city,
                                            birth_year=year))
    client.force_login(organizer)
    url = reverse("tournaments:profile_search")
    html = client.get(url, {"for": "player1", "player1_find": "иван пет"}).content.decode()
    assert "Иван Петров — Дубль, Москва, born 1979" in html
    assert "Иван Петров — Рыба, Тверь" in html
    assert 'name="player1_profile"' in html and 'value="new"' in html
    client.force_login(make_user("nobody"))
    assert client.get(url, {"for": "player1", "player1_find": "иван"}).status_code == 403


def _played_elsewhere(**details) -> Profile:
    """A profile of a player of another (public) tournament."""
    other = create_tournament(name="Прошлый", slug=f"past-{details['name'][:3]}",
                              organizer=None)
    return register_player(other, **details).profile


def test_pair_form_links_a_chosen_profile(client, tournament, organizer):
    known = _played_elsewhere(name="Ольга Морозова", club="Рыба", city="Тверь",
                              birth_year=1990)
    client.force_login(organizer)
    response = client.post(reverse("tournaments:pair_create", args=[tournament.slug]), {
        "player1_find": "ольга", "player1_profile": str(known.pk), "player1_rating": 1400,
        "player2_name": "Зоя Тихонова", "player2_profile": "new", "player2_rating": 1300,
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    olga = tournament.players.get(profile=known)
    assert (olga.name, olga.club, olga.city) == ("Ольга Морозова", "Рыба", "Тверь")
    maria = tournament.players.get(name="Зоя Тихонова")
    assert maria.profile is not None and maria.profile != known


def test_player_form_links_a_chosen_profile(client, tournament, organizer):
    known = _played_elsewhere(name="Фёдор Голубев")
    client.force_login(organizer)
    url = reverse("tournaments:player_create", args=[tournament.slug])
    assert client.post(url, {"name": "Фёдор Голубев", "rating": 0, "player_find": "фед",
                             "player_profile": str(known.pk)}).status_code == 302
    assert tournament.players.get(name="Фёдор Голубев").profile == known
    again = client.post(url, {"name": "Фёдор Голубев 2", "rating": 0,
                              "player_profile": str(known.pk)})
    assert again.status_code == 200 and "already registered" in again.content.decode()


def test_a_nul_character_in_a_search_is_refused_naming_the_field(client, organizer):
    """PostgreSQL refuses the character in a query: the API answers 400 naming ``search``, and
    the organizer's search field 400 naming it too, instead of a server error."""
    _played_elsewhere(name="Иван Петров")
    answer = APIClient().get("/api/v1/profiles/", {"search": "Ив\x00ан"})
    assert answer.status_code == 400 and list(answer.json()) == ["search"]
    assert APIClient().get("/api/v1/profiles/", {"search": "иван"}).json()["count"] == 1
    client.force_login(organizer)
    url = reverse("tournaments:profile_search")
    answer = client.get(url, {"for": "player1", "player1_find": "Ив\x00ан"})
    assert answer.status_code == 400
    assert answer.content.decode() == "The parameter player1_find holds a control character."


def test_api_lists_searches_and_hides_the_birth_year_publicly(two_events, organizer):
    first, second = two_events
    profile = first.players.get(name="Игрок 005").profile
    profile.birth_year = 1985
    profile.save()
    public = APIClient().get("/api/v1/profiles/", {"search": "ИГРОК 005"}).json()
    assert [p["name"] for p in public["results"]] == ["Игрок 005", "Игрок 005"]
    assert "birth_year" not in public["results"][0] and "user" not in public["results"][0]
    client = APIClient()
    client.force_authenticate(organizer)
    detail = client.get(f"/api/v1/profiles/{profile.pk}/").json()
    assert detail["birth_year"] == 1985


def test_api_merge_and_a_merged_profile_redirects(two_events, organizer):
    first, second = two_events
    keep = first.players.get(name="Игрок 006").profile
    other = second.players.get(name="Игрок 006").profile
    client = APIClient()
    client.force_authenticate(organizer)
    answer = client.post(f"/api/v1/profiles/{keep.pk}/merge/", {"other": other.pk},
                         format="json")
    assert answer.status_code == 200 and answer.json()["id"] == keep.pk
    moved = APIClient().get(f"/api/v1/profiles/{other.pk}/")
    assert moved.status_code == 301 and moved["Location"].endswith(f"/profiles/{keep.pk}/")
    assert client.post(f"/api/v1/profiles/{keep.pk}/merge/", {"other": keep.pk},
                       format="json").status_code == 400


def test_api_registers_a_player_with_a_profile(tournament, organizer):
    known = _played_elsewhere(name="Luis Martínez")
    client = APIClient()
    client.force_authenticate(organizer)
    made = client.post("/api/v1/players/", {"tournament": tournament.pk, "name": "Luis Martínez",
                                            "profile": known.pk}, format="json")
    assert made.status_code == 201 and made.json()["profile"] == known.pk
    plain = client.post("/api/v1/players/", {"tournament": tournament.pk, "name": "Новый"},
                        format="json").json()
    assert plain["profile"] not in (None, known.pk)
