"""The roster import links each row to the person's profile: on the federation id, on name +
birth year + club, and through the review step for doubtful rows (never losing a row)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.models import Profile
from scoring.people.profiles import new_profile
from tournaments.registration.services import register_player
from tournaments.setup.services import create_tournament
from tournaments.transfer.roster import import_roster

pytestmark = pytest.mark.django_db

HEADER = "имя,клуб,город,год рождения,номер федерации\n"


@pytest.fixture
def cup(organizer):
    """An individual tournament without players (rows need no partners)."""
    return create_tournament(name="Кубок", slug="cup-profiles", organizer=organizer,
                             format="individual")


@pytest.fixture
def petrov(make_user):
    """Иван Пётров of «Дубль», born 1979, with no federation id: he plays in another
    organizer's public tournament (so the cup's organizer sees him, not his birth year)."""
    elsewhere = create_tournament(name="Чужой кубок", slug="elsewhere",
                                  organizer=make_user("another", organizer=True))
    return register_player(elsewhere, name="Иван Пётров", club="Дубль", city="Москва",
                           birth_year=1979).profile


def roster(*lines: str) -> bytes:
    return (HEADER + "".join(line + "\n" for line in lines)).encode()


def load(tournament, content: bytes, **options):
    """The roster imported as the site itself: every profile is matched."""
    return import_roster(tournament, "r.csv", content, viewer=None, **options)


def profile_of(tournament, name: str) -> Profile:
    return tournament.players.get(name=name).profile


def test_a_row_with_a_known_federation_id_links_to_its_profile(cup):
    known = new_profile(name="Ольга Морозова", club="Рыба", federation_id="RU-0042")
    report = load(cup, roster("ОЛЬГА  МОРОЗОВА,Другой клуб,,,RU-0042"))
    assert report.imported, report.as_dict()
    assert profile_of(cup, "ОЛЬГА МОРОЗОВА") == known
    assert report.rows[0].as_dict()["profile"] == {
        "status": "linked", "profile": known.pk, "reason": "federation_id"}


def test_name_year_and_club_agreeing_with_one_profile_link_loosely(cup, petrov):
    # case, ё/е and spaces do not matter
    report = load(cup, roster("иван   петров,ДУБЛЬ,Москва,1979,"))
    assert report.imported, report.as_dict()
    assert profile_of(cup, "иван петров") == petrov
    assert Profile.objects.count() == 1


def test_a_new_name_gets_a_new_profile_with_its_details(cup):
    report = load(cup, roster("Олександр Шевченко,Азов,Київ,1990,UA-7"))
    assert report.imported
    made = profile_of(cup, "Олександр Шевченко")
    assert (made.club, made.city, made.birth_year, made.federation_id) == (
        "Азов", "Київ", 1990, "UA-7")


@pytest.mark.parametrize(("line", "reason"), [
    ("Иван Петров,Рыба,Москва,1979,", "other_details"),  # another club
    ("Иван Петров,Дубль,Москва,1980,", "other_details"),  # another birth year
    ("Иван Петров,,,,", "name_only"),
])
def test_a_doubtful_row_waits_for_the_organizer_and_nothing_is_imported(cup, petrov, line,
                                                                          reason):
    report = load(cup, roster(line, "Мария Волкова,Рыба,Тверь,,"))
    assert not report.imported
    assert not cup.players.exists() and Profile.objects.count() == 1
    assert [row.number for row in report.to_review] == [2]
    status = report.rows[0].as_dict()["profile"]
    assert status["status"] == "review" and status["reason"] == reason
    assert [c["id"] for c in status["candidates"]] == [petrov.pk]


def test_several_namesakes_are_a_doubt_even_with_an_exact_pair(cup, petrov):
    new_profile(name="Иван Петров", club="Дубль", city="Тверь", birth_year=1979)
    report = load(cup, roster("Иван Петров,Дубль,Москва,1979,"))
    assert not report.imported
    assert report.rows[0].as_dict()["profile"]["reason"] == "several"


def test_the_organizers_choices_link_or_make_new_profiles(cup, petrov):
    content = roster("Иван Петров,,,,", "Иван Петров младший,,,,")
    other = new_profile(name="Иван Петров младший", club="Рыба")
    report = load(cup, content, choices={2: str(petrov.pk), 3: "new"})
    assert report.imported, report.as_dict()
    assert profile_of(cup, "Иван Петров") == petrov
    assert profile_of(cup, "Иван Петров младший") not in (petrov, other)
    assert cup.players.count() == 2


def test_a_choice_outside_the_candidates_is_refused(cup, petrov):
    stranger = new_profile(name="Кто-то Другой")
    report = load(cup, roster("Иван Петров,,,,"),
                           choices={2: str(stranger.pk)})
    assert not report.imported and not cup.players.exists()
    assert "profile" in report.rows[0].errors


def test_a_federation_id_twice_in_the_file_and_a_bad_birth_year_are_errors(cup):
    report = load(cup, roster("А Б,,,,X1", "В Г,,,не год,X1"))
    assert not report.imported
    assert "federation_id" in report.rows[1].errors and "birth_year" in report.rows[1].errors


def test_a_federation_id_already_playing_here_is_refused(cup):
    assert load(cup, roster("Иван Петров,Дубль,Москва,1979,RU-1")).imported
    report = load(cup, roster("Пётр Иванов,Дубль,Москва,1979,RU-1"))
    assert not report.imported
    assert "already registered" in report.rows[0].errors["federation_id"][0]
    assert cup.players.count() == 1


def test_the_review_step_page_offers_the_candidates_then_imports(client, cup, petrov,
                                                                 organizer):
    client.force_login(organizer)
    url = reverse("tournaments:import", args=[cup.slug])
    upload = SimpleUploadedFile("r.csv", roster("Иван Петров,Рыба,,,"), "text/csv")
    preview = client.post(url, {"file": upload, "action": "preview"})
    html = preview.content.decode()
    assert preview.status_code == 200
    # the candidate plays in none of the organizer's tournaments: no birth year for him
    assert 'id="review-2"' in html
    assert "Иван Пётров — Дубль, Москва, tournaments: 1</label>" in html
    assert "1979" not in html
    carried = preview.context["carried"]
    undecided = client.post(url, {"content": carried, "filename": "r.csv", "action": "import"})
    assert undecided.status_code == 200 and not cup.players.exists()
    done = client.post(url, {"content": carried, "filename": "r.csv", "action": "import",
                             f"profile_{2}": str(petrov.pk)})
    assert done.status_code == 302
    assert profile_of(cup, "Иван Петров") == petrov


def test_the_api_reports_rows_to_review_and_takes_the_choices(cup, petrov, organizer):
    import json

    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(organizer)
    url = f"/api/v1/tournaments/{cup.pk}/import/"

    def upload(**extra):
        file = SimpleUploadedFile("r.csv", roster("Иван Петров,,,,"), "text/csv")
        return client.post(url, {"file": file, **extra}, format="multipart")

    waiting = upload()
    assert waiting.status_code == 400 and waiting.json()["to_review"] == [2]
    # the candidate plays in none of the organizer's tournaments: no birth year, no id
    assert waiting.json()["rows"][0]["profile"]["candidates"] == [
        {"id": petrov.pk, "name": "Иван Пётров", "club": "Дубль", "city": "Москва"}]
    assert not cup.players.exists()
    done = upload(profiles=json.dumps({"2": str(petrov.pk)}))
    assert done.status_code == 201, done.json()
    assert profile_of(cup, "Иван Петров") == petrov
    assert upload(profiles="[1]").status_code == 400
