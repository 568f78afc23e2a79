"""The roster import's ``team`` column: the rows naming one team make it (or join a registered
one), with the team registration's rules; a wrong row is reported under ``team`` and nothing
is imported; the preview shows each row's team."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from scoring.models import Pair, Player, Team
from tournaments.registration.services import register_pair
from tournaments.registration.teams import register_team
from tournaments.setup.services import create_tournament
from tournaments.transfer.roster import import_roster, template_file
from tournaments.transfer.roster_rows import parse_roster

pytestmark = pytest.mark.django_db

CSV = (
    "name,club,rating,partner,команда\n"
    "Иван Петров,Дубль,1500,Сергей Смирнов,Дубль-шесть\n"   # 2
    "Сергей Смирнов,Дубль,1480,,\n"                          # 3: the partner's row gives it
    "Ольга Морозова,Дубль,1400,Мария Волкова,дубль-шесть\n"  # 4: the same team, other case
    "Мария Волкова,Дубль,1410,,Дубль-шесть\n"                # 5
    "Анна Белова,Рыба,1300,Вера Котова,Рыба\n"               # 6
    "Вера Котова,Рыба,1300,,\n"                              # 7
    "Олег Щукин,Рыба,1200,Иван Окунев,Рыба\n"                # 8
    "Иван Окунев,Рыба,1200,,\n"                              # 9
    "Пётр Одинокий,,1000,Павел Другой,\n"                    # 10: a pair in no team
    "Павел Другой,,1000,,\n"                                 # 11
)


@pytest.fixture
def cup(organizer):
    return create_tournament(name="Кубок клубов", slug="clubs", organizer=organizer,
                             format="teams", team_squad_pairs=3)


def state(cup) -> tuple:
    return (cup.players.count(), Pair.objects.filter(tournament=cup).count(),
            sorted(Team.objects.filter(tournament=cup).values_list("name", "rating")))


def test_rows_of_one_team_make_it(cup):
    report = import_roster(cup, "teams.csv", CSV.encode(), viewer=None)
    assert report.ok and report.imported, report.as_dict()
    assert (report.players, report.pairs, report.teams) == (10, 5, 2)
    double = Team.objects.get(tournament=cup, name="Дубль-шесть")
    assert double.club == "Дубль" and double.rating == (1490 + 1405) // 2
    assert sorted(p.players_label for p in double.pairs.all()) == [
        "Иван Петров / Сергей Смирнов", "Ольга Морозова / Мария Волкова"]
    assert Team.objects.get(name="Рыба").pairs.count() == 2
    assert Pair.objects.get(player1__name="Пётр Одинокий").team is None


def test_rows_join_a_registered_team(cup):
    pairs = []
    for k in range(2):
        pairs.append(register_pair(cup, Player.objects.create(tournament=cup, name=f"А{k}"),
                                   Player.objects.create(tournament=cup, name=f"Б{k}")))
    team = register_team(cup, name="Рыба", pairs=pairs).team
    report = import_roster(cup, "more.csv", "name,partner,team\nНовый Один,Новый Два,РЫБА\n"
                           "Новый Два,,\n".encode(), viewer=None)
    assert report.imported and report.teams == 1, report.as_dict()
    assert team.pairs.count() == 3


@pytest.mark.parametrize(("csv", "row", "message"), [
    ("name,partner,team\nА,Б,Одиночки\nБ,,\nВ,Г,\nГ,,\n", 3,
     "The team Одиночки has 1 pair in the file; a team needs at least 2."),
    ("name,partner,team\nА,Б,Т\nБ,,Т\nВ,Г,Т\nГ,,\nД,Е,Т\nЕ,,\nЖ,З,т\nЗ,,\n", 9,
     "The team Т would have 4 pairs; at most 3 in this tournament."),
    ("name,partner,team\nА,Б,Т1\nБ,,Т2\nВ,Г,Т1\nГ,,\n", 3,
     "Row 2 gives this pair another team: Т1."),
    ("name,partner,team\nА,Б,Т\nБ,,\nВ,,Т\nГ,Д,Т\nД,,\n", 4,
     "A team is made of pairs: give the player a partner."),
])
def test_a_wrong_team_is_an_error_of_its_rows_and_nothing_is_imported(cup, csv, row, message):
    before = state(cup)
    report = import_roster(cup, "bad.csv", csv.encode(), viewer=None)
    assert not report.imported
    errors = {r.number: r.errors for r in report.rows}
    assert message in errors[row].get("team", []), errors
    assert state(cup) == before


def test_the_service_refuses_a_player_of_another_team_on_his_row(cup):
    pairs = []
    for k in range(2):
        pairs.append(register_pair(cup, Player.objects.create(tournament=cup, name=f"А{k}"),
                                   Player.objects.create(tournament=cup, name=f"Б{k}")))
    register_team(cup, name="Первые", pairs=pairs)
    before = state(cup)
    csv = "name,partner,team\nНовый,Новый Два,первые\nНовый Два,,\nВ,Г,ПЕРВЫЕ\nГ,,\n"
    report = import_roster(cup, "bad.csv", csv.encode(), viewer=None)
    assert not report.imported
    assert "The team Первые would have 4 pairs; at most 3 in this tournament." in (
        report.rows[1].errors["team"])
    assert state(cup) == before


def test_a_team_outside_a_team_tournament_is_refused(tournament):
    before = tournament.players.count()
    report = import_roster(tournament, "t.csv", "name,partner,team\nА,Б,Т\nБ,,\n".encode(),
                           viewer=None)
    assert not report.imported
    assert report.rows[0].errors["team"] == [
        "Only a team tournament has teams: leave the team empty."]
    assert tournament.players.count() == before


def test_the_preview_page_shows_the_team_and_the_api_counts_teams(client, cup, organizer):
    client.force_login(organizer)
    upload = SimpleUploadedFile("teams.csv", CSV.encode(), "text/csv")
    response = client.post(f"/t/{cup.slug}/import/", {"file": upload, "action": "preview"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<td>Дубль-шесть</td>" in html and "Teams to make or join: 2." in html
    assert not Team.objects.exists()
    api = APIClient()
    api.force_authenticate(organizer)
    upload = SimpleUploadedFile("teams.csv", CSV.encode(), "text/csv")
    response = api.post(f"/api/v1/tournaments/{cup.pk}/import/", {"file": upload},
                        format="multipart")
    assert response.status_code == 201, response.json()
    assert response.json()["teams"] == 2
    assert Team.objects.filter(tournament=cup).count() == 2


def test_the_template_of_a_team_tournament_has_the_team_column(cup, tournament):
    rows = parse_roster("t.csv", template_file(cup, "csv"))
    assert {row.values["team"] for row in rows} == {"Дубль-шесть"}
    assert import_roster(cup, "t.csv", template_file(cup, "csv"), viewer=None).imported
    assert "team" not in template_file(tournament, "csv").decode("utf-8-sig").splitlines()[0]
