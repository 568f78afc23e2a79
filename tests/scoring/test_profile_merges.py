"""Merging two profiles of one person and undoing it: who may, what the log keeps, and an
unmerge that puts back every entry, login, detail, placing, rating row and standing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.core.errors import ServiceError
from scoring.models import (
    Player,
    Profile,
    ProfileMerge,
    RatingEntry,
    RatingList,
    Season,
    TournamentPlacing,
)
from scoring.people.merges import merge_profiles, unmerge_profiles
from scoring.people.profiles import new_profile
from scoring.ranking.rating_runs import recompute_rating_list
from scoring.ranking.seasons import refresh_placings
from tests.factories import PlayerFactory, TournamentFactory
from tournaments.transfer import exports

pytestmark = pytest.mark.django_db


def standings(tournament) -> list[tuple]:
    """The standings as exported (names, places, points)."""
    return [tuple(row) for row in exports.export_sheet(tournament, "standings").rows]


def state(*tournaments) -> dict[str, object]:
    """Everything a merge touches, without the ids of rows recomputed from the results."""
    return {
        "profiles": list(Profile.objects.order_by("pk").values()),
        "entries": list(Player.objects.order_by("pk").values_list("pk", "profile_id", "user_id")),
        "placings": sorted(TournamentPlacing.objects.values_list(
            "tournament_id", "profile_id", "place", "shared", "score")),
        "ratings": sorted(RatingEntry.objects.values_list(
            "rating_list_id", "subject", "profile_id", "partner_id", "tournament_id", "sequence",
            "rating", "current")),
        "standings": [standings(t) for t in tournaments],
    }


@pytest.fixture
def person(make_field, make_user, organizer):
    """Two played tournaments of our organizer, in a season and a rating list; every player
    with a profile. The person is Игрок 000 of both: in the second under a duplicate profile
    holding his login, birth year and federation id, and an older duplicate merged into it."""
    first, second = make_field(4, slug="first-event"), make_field(4, slug="second-event")
    for player in Player.objects.filter(tournament__in=[first, second]):
        player.profile = new_profile(name=player.name, club=f"Клуб {player.tournament_id}")
        player.save(update_fields=["profile"])
    login = make_user("ivan")
    duplicate = second.players.get(name="Игрок 000")
    duplicate.user = login
    duplicate.save(update_fields=["user"])
    Profile.objects.filter(pk=duplicate.profile_id).update(
        user=login, birth_year=1981, federation_id="RU-77", club="")
    older = new_profile(name="Игрок 0", city="Тверь")
    merge_profiles(Profile.objects.get(pk=duplicate.profile_id), older)
    season = Season.objects.create(name="Сезон", slug="sezon", scoring="place_points",
                                   place_points=[10, 6, 4, 3])
    season.tournaments.add(first, second)
    rated = RatingList.objects.create(name="Рейтинг", slug="reyting", system="elo")
    rated.tournaments.add(first, second)
    for tournament in (first, second):
        refresh_placings(tournament)
    recompute_rating_list(rated.pk)
    keep = first.players.get(name="Игрок 000").profile
    return first, second, keep, Profile.objects.get(pk=duplicate.profile_id), older, login


def test_merge_logs_what_moved_and_unmerge_puts_everything_back(
    person, organizer, django_capture_on_commit_callbacks
):
    first, second, keep, other, older, login = person
    before = state(first, second)
    assert TournamentPlacing.objects.filter(profile=other).exists()
    assert RatingEntry.objects.filter(profile=other).exists()
    with django_capture_on_commit_callbacks(execute=True):
        merge = merge_profiles(keep, other, actor=organizer)

    assert merge.kept == keep and merge.merged == other and merge.merged_by == organizer
    assert merge.moved["entries"] == [second.players.get(name="Игрок 000").pk]
    assert merge.moved["pointers"] == [older.pk] and merge.moved["user"] == login.pk
    assert merge.merged_before == {"name": "Игрок 000", "club": "", "city": "Тверь",
                                   "birth_year": 1981, "federation_id": "RU-77",
                                   "user": login.pk}  # its city came from the older one
    assert merge.kept_before == {"city": "", "birth_year": None, "federation_id": ""}
    keep.refresh_from_db()
    assert (keep.user, keep.birth_year, keep.federation_id) == (login, 1981, "RU-77")
    assert not TournamentPlacing.objects.filter(profile=other).exists()
    assert not RatingEntry.objects.filter(profile=other).exists()
    assert Profile.objects.get(pk=older.pk).merged_into_id == keep.pk
    assert [s for s in state(first, second)["standings"]] == before["standings"]

    with django_capture_on_commit_callbacks(execute=True):
        done = unmerge_profiles(merge, actor=organizer)

    assert (done.entries, done.pointers, done.user) == (1, 1, True)
    assert done.restored.user == login and done.restored.merged_into is None
    assert state(first, second) == before
    merge.refresh_from_db()
    assert merge.undone and merge.undone_by == organizer
    with pytest.raises(ServiceError, match="undone already"):
        unmerge_profiles(merge)
    again = merge_profiles(keep, other)  # and it can be merged again, then undone again
    unmerge_profiles(again)
    assert state(first, second)["profiles"] == before["profiles"]


def test_a_later_merge_is_undone_first(person):
    first, second, keep, other, older, _login = person
    third = new_profile(name="Игрок 000", city="Омск")
    first_merge = merge_profiles(keep, other)
    merge_profiles(keep, third)
    with pytest.raises(ServiceError, match="undo the later merge first"):
        unmerge_profiles(first_merge)
    earlier = ProfileMerge.objects.get(merged=older)  # older → other, before both
    with pytest.raises(ServiceError, match="later"):
        unmerge_profiles(earlier)


def test_merge_refusals_write_nothing(person):
    first, second, keep, other, _older, _login = person
    same_event = first.players.get(name="Игрок 001").profile
    with pytest.raises(ServiceError, match="same tournament"):
        merge_profiles(keep, same_event)
    with pytest.raises(ServiceError):
        merge_profiles(keep, keep)
    assert not ProfileMerge.objects.filter(kept=keep).exists()


def _stranger_with_a_throwaway(make_user):
    """An organizer of an unrelated hidden tournament, with a throwaway profile in it."""
    stranger = make_user("mallory", organizer=True)
    hidden = TournamentFactory(name="Тайный", slug="secret", organizer=stranger, public=False)
    throwaway = PlayerFactory(tournament=hidden, name="Игрок 000")
    throwaway.profile = new_profile(name="Игрок 000")
    throwaway.save(update_fields=["profile"])
    return stranger, throwaway.profile


def test_an_organizer_of_another_tournament_cannot_take_a_player_over(person, make_user):
    """The takeover of the report: a real player (login, results) merged into a throwaway
    profile of an unrelated hidden tournament's organizer: 403 on the API and the page, and
    nothing moves."""
    _first, second, _keep, other, _older, login = person
    stranger, throwaway = _stranger_with_a_throwaway(make_user)
    api = APIClient()
    api.force_authenticate(stranger)
    answer = api.post(f"/api/v1/profiles/{throwaway.pk}/merge/", {"other": other.pk},
                      format="json")
    assert answer.status_code == 403
    client = Client()  # the page takes a form
    client.force_login(stranger)
    page = client.post(reverse("tournaments:profile_merge"),
                       {"keep_profile": throwaway.pk, "other_profile": other.pk})
    assert page.status_code in (400, 403)
    other.refresh_from_db()
    assert other.merged_into is None and other.user == login
    assert not ProfileMerge.objects.filter(kept=throwaway).exists()


def test_unmerge_through_the_api_and_the_page_by_whoever_could_merge(
    person, organizer, make_user
):
    first, second, keep, other, _older, login = person
    stranger, _throwaway = _stranger_with_a_throwaway(make_user)
    api = APIClient()
    api.force_authenticate(organizer)
    merged = api.post(f"/api/v1/profiles/{keep.pk}/merge/", {"other": other.pk}, format="json")
    assert merged.status_code == 200 and merged.json()["federation_id"] == "RU-77"
    outsider = APIClient()
    outsider.force_authenticate(stranger)
    assert outsider.post(f"/api/v1/profiles/{other.pk}/unmerge/").status_code == 403
    assert APIClient().post(f"/api/v1/profiles/{other.pk}/unmerge/").status_code in (401, 403)
    undone = api.post(f"/api/v1/profiles/{other.pk}/unmerge/")
    assert undone.status_code == 200
    assert undone.json() == {"id": other.pk, "name": "Игрок 000", "club": "", "city": "Тверь",
                             "birth_year": 1981, "federation_id": "RU-77"}
    assert api.post(f"/api/v1/profiles/{other.pk}/unmerge/").status_code == 404
    assert Profile.objects.get(pk=other.pk).user == login

    page = Client()
    page.force_login(organizer)
    merge_profiles(keep, other, actor=organizer)
    listed = page.get(reverse("tournaments:profile_merge")).content.decode()
    url = reverse("tournaments:profile_unmerge", args=[other.pk])
    assert f'action="{url}"' in listed
    page_of_stranger = Client()
    page_of_stranger.force_login(stranger)
    assert f'action="{url}"' not in page_of_stranger.get(
        reverse("tournaments:profile_merge")).content.decode()
    assert page_of_stranger.post(url).status_code == 403
    done = page.post(url)
    assert done.status_code == 302
    assert Profile.objects.get(pk=other.pk).merged_into is None
    assert second.players.get(name="Игрок 000").profile_id == other.pk


def test_staff_merge_any_two_and_undo_it(person, make_user):
    """A profile playing nowhere is merged by staff only; staff undo any merge."""
    _first, _second, keep, _other, _older, _login = person
    staff = make_user("staff", is_staff=True)
    orphan = new_profile(name="Игрок 000", city="Казань", birth_year=1981)
    api = APIClient()
    api.force_authenticate(staff)
    assert api.post(f"/api/v1/profiles/{keep.pk}/merge/", {"other": orphan.pk},
                    format="json").status_code == 200
    assert api.post(f"/api/v1/profiles/{orphan.pk}/unmerge/").status_code == 200
    keep.refresh_from_db()
    assert keep.birth_year is None and Profile.objects.get(pk=orphan.pk).birth_year == 1981


@pytest.mark.django_db
def test_unmerge_of_an_id_no_profile_can_have_is_404(django_user_model):
    """An id past the database's integers (a client's typo, a fuzzer) is no such merge: 404,
    never a server error."""
    staff = django_user_model.objects.create_user("staff-big-id", password="x", is_staff=True)
    api = APIClient()
    api.force_authenticate(staff)
    answer = api.post("/api/v1/profiles/250004737494635405091667003310080/unmerge/")
    assert answer.status_code == 404, answer.content
