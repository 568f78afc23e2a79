"""Exports that are safe to open in a spreadsheet, and uploads with limits: a name that looks
like a formula opens as text and imports back as it was; oversized, overlong and deeply nested
files are refused fast with a message naming the limit, and nothing is written."""

from __future__ import annotations

import csv
import io
import json
import re
import time
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook, load_workbook
from rest_framework.test import APIClient

from scoring.core.json_input import text_depth
from scoring.models import Player, Tournament
from tournaments.setup.services import create_tournament
from tournaments.transfer import archive, exports, sheets
from tournaments.transfer.roster import import_roster

pytestmark = pytest.mark.django_db

FORMULA = '=HYPERLINK("http://x","y")'


@pytest.fixture
def empty(organizer):
    """An individual tournament without players."""
    return create_tournament(name="Кубок Твери", slug="tver-safe", organizer=organizer,
                             format=Tournament.Format.INDIVIDUAL)


@pytest.fixture
def formula_player(tournament):
    """The tournament's first player is called like a spreadsheet formula."""
    Tournament.objects.filter(pk=tournament.pk).update(language="en")
    player = tournament.players.order_by("id").first()
    Player.objects.filter(pk=player.pk).update(name=FORMULA)
    return tournament


# -- exports ---------------------------------------------------------------------------------


def test_csv_export_of_a_formula_name_starts_with_an_apostrophe(formula_player):
    data = sheets.to_csv(exports.export_sheet(formula_player, "standings", per_player=True))
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    names = [row[1] for row in rows[1:]]
    assert "'" + FORMULA in names
    assert not any(cell[0] in "=+-@\t\r" for row in rows for cell in row
                   if cell and not re.fullmatch(r"-?\d+(\.\d+)?", cell))


def test_xlsx_export_of_a_formula_name_is_a_string_not_a_formula(formula_player):
    data = sheets.to_xlsx(exports.export_sheet(formula_player, "standings", per_player=True))
    book = load_workbook(io.BytesIO(data))
    cells = [cell for row in book.active.iter_rows() for cell in row]
    named = [cell for cell in cells if cell.value == "'" + FORMULA]
    assert named and all(cell.data_type == "s" for cell in named)
    assert not any(cell.data_type == "f" for cell in cells)
    sheet_xml = zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml")
    assert b"<f>" not in sheet_xml


def test_guard_keeps_numbers_and_ordinary_text():
    assert [sheets.spreadsheet_safe(v) for v in (-15, -2.5, "-15", "+3", "2=", "Анна", "")] == [
        -15, -2.5, "-15", "+3", "2=", "Анна", ""]
    assert [sheets.spreadsheet_safe(v) for v in ("=1+1", "+7 x", "-x", "@SUM(A1)", "\tx", "\rx")
            ] == ["'=1+1", "'+7 x", "'-x", "'@SUM(A1)", "'\tx", "'\rx"]
    sheet = sheets.Sheet(title="t", header=["n", "points"], rows=[["-x", -15]])
    assert sheets.to_csv(sheet).decode("utf-8-sig") == "n,points\r\n'-x,-15\r\n"
    cell = load_workbook(io.BytesIO(sheets.to_xlsx(sheet))).active["B2"]
    assert (cell.value, cell.data_type) == (-15, "n")


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_an_exported_name_imports_back_as_it_was(empty, fmt):
    names = [FORMULA, "+7 Анна", "-Борис", "@ivan", "Обычный Игрок"]
    content = sheets.table_bytes(["name", "club"], [[n, "Клуб"] for n in names], fmt, "Players")
    report = import_roster(empty, f"players.{fmt}", content, viewer=None)
    assert report.imported, report.as_dict()
    assert sorted(empty.players.values_list("name", flat=True)) == sorted(names)


# -- uploads: the roster ---------------------------------------------------------------------


def _xlsx(rows: int) -> bytes:
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet()
    sheet.append(["name", "club"])
    for number in range(rows):
        sheet.append([f"P{number}", "c"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _claims_the_whole_grid(content: bytes) -> bytes:
    """The same workbook with a declared size of 1,048,576 rows by 16,384 columns and a cell
    in the last one (what made a small file take minutes and gigabytes)."""
    source, out = zipfile.ZipFile(io.BytesIO(content)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = re.sub(rb"<dimension ref=\"[^\"]*\"/>",
                              b'<dimension ref="A1:XFD1048576"/>', data)
                data = data.replace(b"</sheetData>", b'<row r="1048576"><c r="XFD1048576" '
                                    b't="inlineStr"><is><t>x</t></is></c></row></sheetData>')
            target.writestr(info, data)
    return out.getvalue()


def test_an_xlsx_of_many_rows_is_refused_fast(empty, settings):
    content = _xlsx(60_000)
    assert len(content) < settings.ROSTER_UPLOAD_MAX_BYTES
    started = time.process_time()
    report = import_roster(empty, "big.xlsx", content, viewer=None)
    spent = time.process_time() - started
    assert report.file_errors == ["The file has more than 2000 rows."]
    assert not empty.players.exists()
    print(f"60,000-row XLSX ({len(content) // 1024} KB) refused in {spent:.2f} s CPU")
    assert spent < 5


def test_an_xlsx_claiming_a_huge_sheet_is_read_as_what_it_holds(empty):
    content = _claims_the_whole_grid(_xlsx(3))
    started = time.process_time()
    report = import_roster(empty, "grid.xlsx", content, dry_run=True, viewer=None)
    spent = time.process_time() - started
    assert report.ok and report.players == 3, report.as_dict()
    print(f"a {len(content)} B XLSX claiming A1:XFD1048576 read in {spent:.2f} s CPU")
    assert spent < 5


def test_an_xlsx_that_unpacks_too_large_is_refused(empty, settings):
    settings.ROSTER_XLSX_MAX_UNPACKED_BYTES = 4096
    report = import_roster(empty, "big.xlsx", _xlsx(500), viewer=None)
    assert report.file_errors == ["The workbook unpacks to more than 4.0\xa0KB."]


def test_a_csv_stops_at_the_row_limit(empty, settings):
    settings.ROSTER_MAX_ROWS = 10
    content = ("name\n" + "".join(f"P{n}\n" for n in range(11))).encode()
    report = import_roster(empty, "p.csv", content, viewer=None)
    assert report.file_errors == ["The file has more than 10 rows."]
    assert import_roster(empty, "p.csv", content[:content.rindex(b"P10")], viewer=None).imported
    assert empty.players.count() == 10


def test_an_oversized_roster_is_refused_by_page_and_api(empty, organizer, client, settings):
    settings.ROSTER_UPLOAD_MAX_BYTES = 100
    content = ("name\n" + "".join(f"Игрок {n}\n" for n in range(20))).encode()
    client.force_login(organizer)
    page = client.post(reverse("tournaments:import", args=[empty.slug]),
                       {"file": SimpleUploadedFile("p.csv", content)})
    assert page.status_code == 400
    assert "The file is too large (at most 100\xa0bytes)." in page.content.decode()
    api = APIClient()
    api.force_authenticate(organizer)
    answer = api.post(f"/api/v1/tournaments/{empty.pk}/import/",
                      {"file": SimpleUploadedFile("p.csv", content)}, format="multipart")
    assert answer.status_code == 400
    assert answer.json()["file_errors"] == ["The file is too large (at most 100\xa0bytes)."]
    assert not empty.players.exists()


# -- uploads: the tournament file ------------------------------------------------------------


def test_a_deeply_nested_tournament_file_is_refused_with_a_message(organizer, client):
    client.force_login(organizer)
    before = Tournament.objects.count()
    for depth in (40, 100_000):
        nested = "[" * depth + "]" * depth
        body = '{"format": "domino-tournament", "version": 1, "tournament": {}, "users": ' + (
            nested + "}")
        response = client.post(reverse("tournaments:tournament_import"),
                               {"file": SimpleUploadedFile("t.json", body.encode())})
        assert response.status_code == 400
        assert "The tournament file nests deeper than 32 levels." in response.content.decode()
    assert Tournament.objects.count() == before


def test_an_oversized_tournament_file_is_refused_before_it_is_read(organizer, client, settings):
    settings.TOURNAMENT_IMPORT_MAX_BYTES = 1000
    client.force_login(organizer)
    body = json.dumps({"format": "domino-tournament", "pad": "x" * 2000}).encode()
    response = client.post(reverse("tournaments:tournament_import"),
                           {"file": SimpleUploadedFile("t.json", body)})
    assert response.status_code == 400
    assert "The tournament file is too large (at most 1000\xa0bytes)." in (
        response.content.decode())
    with pytest.raises(archive.ArchiveError, match="too large"):
        archive.load(body)


def test_a_real_tournament_file_is_far_from_the_depth_limit(formula_player, settings):
    text = archive.export_bytes(formula_player)
    assert text_depth(text, 1000) < settings.TOURNAMENT_IMPORT_MAX_DEPTH // 2
