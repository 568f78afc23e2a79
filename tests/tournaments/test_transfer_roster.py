"""Import of players and pairs from CSV and XLSX: the report, all-or-nothing, skipping bad rows,
the organizer's page with its preview, the API endpoint."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook, load_workbook
from rest_framework.test import APIClient

from scoring.models import Pair, Player, Tournament
from tournaments.setup.services import create_tournament
from tournaments.transfer.roster import import_roster, name_key

pytestmark = pytest.mark.django_db

CSV_OK = (
    "name,club,city,rating,partner,pair\n"
    "Иван Петров,Дубль-шесть,Москва,1500,Сергей Смирнов,Дубль\n"
    "Сергей Смирнов,Дубль-шесть,Москва,1480,,\n"
    "Ольга Морозова,Рыба,Тверь,,Мария Волкова,\n"
    "Мария Волкова,Рыба,Тверь,1410,Ольга Морозова,\n"
    "Олександр Шевченко,Азов,Київ,1390,,\n"
)


def xlsx_bytes(rows: list[list[object]]) -> bytes:
    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


@pytest.fixture
def empty(organizer):
    """A pairs tournament without players."""
    return create_tournament(name="Кубок Твери", slug="tver", organizer=organizer)


@pytest.fixture
def solo(organizer):
    """An individual tournament without players."""
    return create_tournament(name="Личный", slug="solo-import", organizer=organizer,
                             format=Tournament.Format.INDIVIDUAL)


def pairs_of(tournament) -> list[tuple[str, str, str, int]]:
    return sorted(
        (p.player1.name, p.player2.name, p.name, p.rating)
        for p in Pair.objects.filter(tournament=tournament).select_related("player1", "player2")
    )


def test_csv_with_cyrillic_names_imports_players_and_pairs(empty):
    report = import_roster(empty, "players.csv", CSV_OK.encode(), viewer=None)
    assert report.ok and report.imported
    assert (report.players, report.pairs) == (5, 2)
    ivan = Player.objects.get(tournament=empty, name="Иван Петров")
    assert (ivan.club, ivan.city, ivan.rating) == ("Дубль-шесть", "Москва", 1500)
    assert Player.objects.get(name="Ольга Морозова").rating == 0
    assert Player.objects.filter(tournament=empty, name="Олександр Шевченко").exists()
    assert pairs_of(empty) == [
        ("Иван Петров", "Сергей Смирнов", "Дубль", 1490),
        ("Ольга Морозова", "Мария Волкова", "", 705),
    ]


def test_xlsx_with_russian_headers_and_numbers(empty):
    content = xlsx_bytes([
        ["Имя", "Клуб", "Город", "Рейтинг", "Партнёр", "Пара"],
        ["Ёлкин Щукин", "Камень", "Казань", 1450, "Эдуард Юдин", None],
        ["Эдуард Юдин", "Камень", "Казань", 1430.0, None, None],
        [None, None, None, None, None, None],
        ["José García", "Club Capicúa", "Madrid", None, "", ""],
    ])
    report = import_roster(empty, "Список.xlsx", content, viewer=None)
    assert report.ok, report.as_dict()
    assert [row.number for row in report.rows] == [2, 3, 5]
    assert pairs_of(empty) == [("Ёлкин Щукин", "Эдуард Юдин", "", 1440)]
    assert Player.objects.get(name="Эдуард Юдин").rating == 1430


def test_semicolon_csv_saved_by_russian_excel_in_windows_1251(empty):
    text = "Имя;Рейтинг\r\nПётр Первый;1200\r\nФёдор Второй;1100\r\n"
    report = import_roster(empty, "excel.csv", text.encode("cp1251"), viewer=None)
    assert report.ok and report.players == 2
    assert set(empty.players.values_list("name", flat=True)) == {"Пётр Первый", "Фёдор Второй"}


def test_partner_may_be_a_registered_player_and_names_match_loosely(empty):
    Player.objects.create(tournament=empty, name="Пётр Первый")
    report = import_roster(empty, "p.csv",
                           "name,partner\nФёдор Второй,  петр   первый \n".encode(), viewer=None)
    assert report.ok, report.as_dict()
    assert pairs_of(empty) == [("Фёдор Второй", "Пётр Первый", "", 0)]
    assert name_key("Пётр  ПЕРВЫЙ") == name_key("петр первый")


BAD_CSV = (
    "name,club,rating,partner\n"
    "Иван Петров,Дубль,1500,Сергей Смирнов\n"       # 2: fine
    "Сергей Смирнов,Дубль,много,\n"                 # 3: rating
    "Анна Каренина,,1200,Граф Вронский\n"           # 4: unknown partner
    "Иван Петров,,1000,\n"                          # 5: name twice in the file
    "Ольга Морозова,,1000,Иван Петров\n"            # 6: Иван already partnered in row 2
    f"{'Я' * 201},,1000,\n"                         # 7: too long (the service's rule)
    "Мария Волкова,,1000,\n"                        # 8: fine
)


def test_bad_rows_import_nothing_and_the_report_names_row_and_column(empty):
    report = import_roster(empty, "bad.csv", BAD_CSV.encode(), viewer=None)
    assert not report.ok and not report.imported
    assert (report.players, report.pairs) == (0, 0)
    assert not Player.objects.filter(tournament=empty).exists()
    errors = {row.number: row.errors for row in report.rows}
    assert errors[2] == {} and errors[8] == {}
    assert list(errors[3]) == ["rating"]
    assert "Граф Вронский" in errors[4]["partner"][0]
    assert "row 2" in errors[5]["name"][0]
    assert "Иван Петров" in errors[6]["partner"][0] and "row" in errors[6]["partner"][0]
    assert "200 characters" in errors[7]["name"][0]
    statuses = {row.number: row.status for row in report.rows}
    assert statuses == {2: "ok", 3: "error", 4: "error", 5: "error", 6: "error", 7: "error",
                        8: "ok"}


def test_skip_bad_rows_imports_the_good_ones_and_pairs_whole(empty):
    report = import_roster(empty, "bad.csv", BAD_CSV.encode(), skip_bad_rows=True, viewer=None)
    assert report.imported and not report.ok
    # row 2 named row 3 as partner: row 3 is wrong, so row 2 is skipped with it
    assert {row.number for row in report.skipped} == {2, 3, 4, 5, 6, 7}
    row2 = next(row for row in report.rows if row.number == 2)
    assert "row 3" in row2.errors["partner"][0]
    assert list(empty.players.values_list("name", flat=True)) == ["Мария Волкова"]
    assert (report.players, report.pairs) == (1, 0)
    assert not Pair.objects.filter(tournament=empty).exists()


def test_player_already_in_a_pair_is_refused_by_the_same_rule_as_the_pair_form(empty):
    a = Player.objects.create(tournament=empty, name="Иван Петров")
    b = Player.objects.create(tournament=empty, name="Сергей Смирнов")
    Pair.objects.create(tournament=empty, player1=a, player2=b)
    report = import_roster(empty, "p.csv", "name,partner\nНовый Игрок,Иван Петров\n".encode(),
                           viewer=None)
    assert report.rows[0].errors == {"partner": ["Иван Петров already plays in another pair."]}
    assert empty.players.count() == 2


def test_duplicate_of_a_registered_player_and_conflicting_partners(empty):
    Player.objects.create(tournament=empty, name="Иван Петров")
    content = ("name,partner,pair\n"
               "иван петров,,\n"
               "А Б,В Г,Первая\n"
               "В Г,Д Е,Вторая\n"
               "Д Е,,\n"
               "Ж З,Ж З,\n"
               "И К,,Одинокая\n").encode()
    report = import_roster(empty, "p.csv", content, viewer=None)
    errors = {row.number: row.errors for row in report.rows}
    assert "already registered" in errors[2]["name"][0]
    assert "Row 3 names this player" in errors[4]["partner"][0]
    assert "pair" in errors[4]  # row 3 named the pair otherwise
    assert "own partner" in errors[6]["partner"][0]
    assert "needs a partner" in errors[7]["pair"][0]
    assert errors[3] == {} and errors[5] == {}


def test_individual_tournament_takes_players_but_not_pairs(solo):
    assert import_roster(solo, "p.csv", "name,rating\nА,1\nБ,2\n".encode(), viewer=None).ok
    report = import_roster(solo, "p.csv", "name,partner\nВ,Г\nГ,\n".encode(), viewer=None)
    assert report.rows[1].errors == {
        "partner": ["In an individual tournament the draw forms the pairs."]}
    assert solo.players.count() == 2


@pytest.mark.parametrize("content, message", [
    (b"", "empty"),
    ("club,city\nДубль,Москва\n".encode(), "“name”"),
    ("name,nickname\nА,Б\n".encode(), "Unknown column “nickname”"),
    ("name,Имя\nА,Б\n".encode(), "given twice"),
    (b"name\n", "no rows"),
    (b"PK\x03\x04 not really a workbook", "not a readable XLSX"),
])
def test_unreadable_files_are_refused_as_a_whole(empty, content, message):
    report = import_roster(empty, "x.csv", content, viewer=None)
    assert not report.ok and message in report.file_errors[0]
    assert not empty.players.exists()


def test_dry_run_reports_without_importing(empty):
    report = import_roster(empty, "p.csv", CSV_OK.encode(), dry_run=True, viewer=None)
    assert report.ok and not report.imported and (report.players, report.pairs) == (5, 2)
    assert not empty.players.exists()


def test_template_files_import_as_they_are(empty, client, organizer):
    client.force_login(organizer)
    for fmt in ("csv", "xlsx"):
        response = client.get(reverse("tournaments:import_template", args=[empty.slug, fmt]))
        assert response.status_code == 200
        content = b"".join(response)
        report = import_roster(empty, f"template.{fmt}", content, dry_run=True, viewer=None)
        assert report.ok, report.as_dict()
        assert (report.players, report.pairs) == (4, 2)
    sheet = load_workbook(io.BytesIO(content)).active
    assert [c.value for c in sheet[1]] == ["name", "club", "city", "country", "rating",
                                           "partner", "pair", "birth_year", "federation_id"]


# -- the page -----------------------------------------------------------------------------------


def test_page_previews_then_imports(client, empty, organizer):
    client.force_login(organizer)
    url = reverse("tournaments:import", args=[empty.slug])
    page = client.get(url)
    assert page.status_code == 200 and "partner" in page.content.decode()
    upload = SimpleUploadedFile("players.csv", CSV_OK.encode(), "text/csv")
    preview = client.post(url, {"file": upload, "action": "preview"})
    html = preview.content.decode()
    assert preview.status_code == 200 and "All 5 rows are right." in html
    assert not empty.players.exists()
    carried = preview.context["carried"]
    done = client.post(url, {"content": carried, "filename": "players.csv", "action": "import"})
    assert done.status_code == 302 and done["Location"] == empty.get_absolute_url()
    assert empty.players.count() == 5 and empty.pairs.count() == 2


def test_page_shows_the_report_and_offers_to_skip(client, empty, organizer):
    client.force_login(organizer)
    url = reverse("tournaments:import", args=[empty.slug])
    upload = SimpleUploadedFile("bad.csv", BAD_CSV.encode(), "text/csv")
    response = client.post(url, {"file": upload, "action": "import"})
    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="row-3"' in html and "The rating is a whole number." in html
    assert "Check again, skipping bad rows" in html
    assert not empty.players.exists()
    preview = client.post(url, {"content": response.context["carried"], "filename": "bad.csv",
                                "skip_bad_rows": "on", "action": "preview"})
    assert preview.status_code == 200 and "6 rows will be skipped." in preview.content.decode()
    skipped = client.post(url, {"content": response.context["carried"], "filename": "bad.csv",
                                "skip_bad_rows": "on", "action": "import"})
    assert skipped.status_code == 302
    assert list(empty.players.values_list("name", flat=True)) == ["Мария Волкова"]


def test_page_without_a_file_says_so(client, empty, organizer):
    client.force_login(organizer)
    url = reverse("tournaments:import", args=[empty.slug])
    response = client.post(url, {"action": "preview"})
    assert response.status_code == 400 and "Choose a file." in response.content.decode()
    big = SimpleUploadedFile("big.csv", b"name\n" + b"x" * (2 * 1024 * 1024))
    response = client.post(url, {"file": big, "action": "preview"})
    assert response.status_code == 400 and "too large" in response.content.decode()


def test_page_is_for_organizers_only(client, empty, make_user):
    url = reverse("tournaments:import", args=[empty.slug])
    assert client.get(url).status_code == 302  # to the login
    client.force_login(make_user("someone"))
    assert client.get(url).status_code == 403
    assert client.get(reverse("tournaments:import_template", args=[empty.slug, "csv"])
                      ).status_code == 404


# -- the API ------------------------------------------------------------------------------------


def api_post(client, tournament, content: bytes, name: str = "p.csv", **data):
    url = reverse("v1:tournament-import", args=[tournament.pk])
    return client.post(url, {"file": SimpleUploadedFile(name, content), **data},
                       format="multipart")


def test_api_imports_and_answers_the_report(empty, organizer):
    client = APIClient()
    client.force_authenticate(organizer)
    dry = api_post(client, empty, CSV_OK.encode(), dry_run="true")
    assert dry.status_code == 200 and dry.json()["players"] == 5 and not empty.players.exists()
    done = api_post(client, empty, CSV_OK.encode())
    body = done.json()
    assert done.status_code == 201 and body["imported"] and body["pairs"] == 2
    assert body["rows"][0]["name"] == "Иван Петров" and body["rows"][0]["status"] == "ok"


def test_api_refuses_a_bad_file_with_400_and_the_row_report(empty, organizer):
    client = APIClient()
    client.force_authenticate(organizer)
    response = api_post(client, empty, BAD_CSV.encode())
    body = response.json()
    assert response.status_code == 400 and not body["imported"]
    row3 = next(row for row in body["rows"] if row["row"] == 3)
    assert row3["status"] == "error" and "rating" in row3["errors"]
    assert not empty.players.exists()
    skipped = api_post(client, empty, BAD_CSV.encode(), skip_bad_rows="true")
    assert skipped.status_code == 201 and skipped.json()["players"] == 1
    missing = client.post(reverse("v1:tournament-import", args=[empty.pk]), {}, format="multipart")
    assert missing.status_code == 400 and missing.json()["file_errors"]
    garbled = client.generic("POST", reverse("v1:tournament-import", args=[empty.pk]), b"--x\r\n",
                             content_type="multipart/form-data; boundary=")
    assert garbled.status_code == 400 and garbled.json()["file_errors"]


def test_api_permissions(empty, make_user):
    client = APIClient()
    assert api_post(client, empty, CSV_OK.encode()).status_code in (401, 403)
    client.force_authenticate(make_user("stranger"))
    assert api_post(client, empty, CSV_OK.encode()).status_code == 403
    Tournament.objects.filter(pk=empty.pk).update(public=False)
    assert api_post(client, empty, CSV_OK.encode()).status_code == 404
    assert not empty.players.exists()
