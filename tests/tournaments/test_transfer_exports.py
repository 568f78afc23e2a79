"""Exports of standings, results and deals as CSV and XLSX: hand-checked content, fixed order
and number formats, the same bytes every time, public only where the tournament is."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from referee.services import give_fine, start_party
from scoring.models import Party, Regulations, Round, Tournament
from scoring.party.deals import record_deal
from tests.tournaments.play import play
from tournaments.transfer import exports, sheets

pytestmark = pytest.mark.django_db

IVAN = "Иван Петров / Сергей Смирнов"
OLGA = "Ольга Морозова / Мария Волкова"
JOSE = "José García / Anna Müller"
YOLKIN = "Ёлкин Щукин / Эдуард Юдин"
PETR = "Пётр Первый / Фёдор Второй"
YURI = "Юрий Третий / Борис Четвёртый"
NINA = "Нина Пятая / Вера Шестая"
LEV = "Лев Седьмой / Яков Восьмой"


@pytest.fixture
def played(tournament, make_party, referee_user):
    """Round 1: Иван's pair beats Ольга's 240 : 60 with a fine of 25 (215 : 60); Ёлкин's pair
    beats José's 240 : 120; Пётр's pair has a bye (the target, 201 : 0); table 3 is in
    progress (60 : 0). Round 2 is a draft. Target 201, standings by match points,
    efectiveness, points, fines."""
    Tournament.objects.filter(pk=tournament.pk).update(language="en")
    Regulations.objects.filter(tournament=tournament).update(
        target=201, standings_order=["match_points", "efectiveness", "points_for", "fines"])
    tournament.refresh_from_db()
    pairs = list(tournament.pairs.order_by("id"))
    first = make_party(pairs[0], pairs[1], table_number=1, round_number=1)
    second = make_party(pairs[2], pairs[3], table_number=2, round_number=1)
    running = make_party(pairs[5], pairs[6], table_number=3, round_number=1)
    for party in (first, second, running):
        start_party(party.pk, actor=referee_user)
    record_deal(first.pk, outcome="domino", went_out="b1",
                pips={"a1": 20, "a2": 20, "b1": 0, "b2": 20})
    give_fine(first.pk, side="a", category="talking", seat="a1", points=25, actor=referee_user)
    play(first, winner="a", loser_deals=0)
    play(second, winner="b", loser_deals=2)
    record_deal(running.pk, outcome="domino", went_out="a1",
                pips={"a1": 0, "a2": 20, "b1": 20, "b2": 20})
    rnd = Round.objects.get(tournament=tournament, number=1)
    Party.objects.create(round=rnd, pair_a=pairs[4], status=Party.Status.FINISHED,
                         end_reason=Party.EndReason.BYE, winner="a")
    draft = Round.objects.create(tournament=tournament, number=2, status=Round.Status.DRAFT)
    Party.objects.create(round=draft, table=tournament.tables.get(number=1), pair_a=pairs[0],
                         pair_b=pairs[2])
    return tournament


def csv_text(tournament, what: str, **options) -> str:
    data = sheets.to_csv(exports.export_sheet(tournament, what, **options))
    assert data.startswith(b"\xef\xbb\xbf")
    return data.decode("utf-8-sig")


def test_standings_csv(played):
    assert csv_text(played, "standings") == (
        "Rank,Pair,Players,Note,Match points,Efectiveness,Points for,Fines\r\n"
        f"1,{IVAN},{IVAN},,2,141,215,25\r\n"
        f"2,{PETR},{PETR},,2,100.5,201,0\r\n"  # the bye: the target, 201 (EF 201 / 2)
        f"3,{YOLKIN},{YOLKIN},,2,81,240,0\r\n"
        f"4=,{YURI},{YURI},,0,0,0,0\r\n"
        f"4=,{NINA},{NINA},,0,0,0,0\r\n"
        f"4=,{LEV},{LEV},,0,0,0,0\r\n"
        f"7,{JOSE},{JOSE},,0,-81,120,0\r\n"
        f"8,{OLGA},{OLGA},,0,-141,60,0\r\n"
    )


def test_standings_per_player_and_after_round(played):
    text = csv_text(played, "standings", per_player=True, after_round=1)
    lines = text.splitlines()
    assert lines[0] == "Rank,Player,Note,Match points,Efectiveness,Points for,Fines"
    assert lines[1:3] == ["1=,Иван Петров,,2,141,215,25", "1=,Сергей Смирнов,,2,141,215,25"]
    assert len(lines) == 17


def test_results_csv(played):
    assert csv_text(played, "results") == (
        "Round,Table,Pair A,Pair B,Points A,Points B,Winner,How the party ended,Status\r\n"
        f"1,1,{IVAN},{OLGA},215,60,{IVAN},Target reached,Finished\r\n"
        f"1,2,{JOSE},{YOLKIN},120,240,{YOLKIN},Target reached,Finished\r\n"
        f"1,3,{YURI},{NINA},60,0,,,In progress\r\n"
        f"1,,{PETR},bye,201,,{PETR},Bye,Finished\r\n"
    )


def test_deals_csv_with_running_totals_from_the_totals_function(played):
    lines = csv_text(played, "deals").splitlines()
    assert lines[0] == ("Round,Table,Pair A,Pair B,Deal,How it ended,Winning pair,Went out,"
                        "Points A,Points B,Total A,Total B")
    first = [line for line in lines if line.startswith("1,1,")]
    assert first == [
        f"1,1,{IVAN},{OLGA},1,Domino,{OLGA},B1,0,60,0,60",
        f"1,1,{IVAN},{OLGA},2,Domino,{IVAN},A1,60,0,60,60",
        f"1,1,{IVAN},{OLGA},3,Domino,{IVAN},A1,60,0,120,60",
        f"1,1,{IVAN},{OLGA},4,Domino,{IVAN},A1,60,0,180,60",
        f"1,1,{IVAN},{OLGA},5,Domino,{IVAN},A1,60,0,240,60",
    ]
    assert [line.split(",")[4] for line in lines if line.startswith("1,2,")] == [
        "1", "2", "3", "4", "5", "6"]
    assert lines[-1] == f"1,3,{YURI},{NINA},1,Domino,{YURI},A1,60,0,60,0"
    assert len(lines) == 1 + 5 + 6 + 1  # the bye and the draft round have no deals


def test_texts_follow_the_tournament_language_unless_asked(played):
    Tournament.objects.filter(pk=played.pk).update(language="ru")
    played.refresh_from_db()
    assert csv_text(played, "results").splitlines()[0].split(",")[2:4] == ["Пара A", "Пара B"]
    assert csv_text(played, "results", language="en").startswith("Round,Table,Pair A")
    assert csv_text(played, "results", language="xx") == csv_text(played, "results")


@pytest.mark.parametrize("what", exports.EXPORTS)
def test_xlsx_holds_the_same_table_as_csv_and_the_same_bytes_each_time(played, what):
    first = sheets.to_xlsx(exports.export_sheet(played, what))
    assert sheets.to_xlsx(exports.export_sheet(played, what)) == first
    entries = zipfile.ZipFile(io.BytesIO(first)).infolist()
    assert {entry.date_time for entry in entries} == {sheets.ZIP_TIME}  # not the time of writing
    book = load_workbook(io.BytesIO(first))
    rows = [[sheets.cell_text(v) for v in row] for row in book.active.iter_rows(values_only=True)]
    csv_rows = [line.split(",") for line in csv_text(played, what).splitlines()]
    assert rows == csv_rows
    assert book.properties.creator == sheets.XLSX_CREATOR
    assert book.properties.modified.date() == played.start_date


def test_number_formats_are_stable():
    assert [sheets.number_text(v) for v in (2, 2.0, 100.5, -81.25, 1 / 3, 0.0)] == [
        "2", "2", "100.5", "-81.25", "0.33", "0"]


def test_download_pages(client, played):
    for what in exports.EXPORTS:
        for fmt in exports.FORMATS:
            url = reverse("tournaments:export_download", args=[played.slug, what, fmt])
            response = client.get(url)
            assert response.status_code == 200, url
            assert response["Content-Type"] == sheets.CONTENT_TYPES[fmt]
            assert f'filename="{played.slug}-{what}.{fmt}"' in response["Content-Disposition"]
    standings = client.get(reverse("tournaments:export_download",
                                   args=[played.slug, "standings", "csv"]),
                           {"after_round": "1", "by": "player", "lang": "en"})
    assert standings.content.decode("utf-8-sig").splitlines()[1].startswith("1=,Иван Петров")
    assert f'{played.slug}-standings-r1.csv' in standings["Content-Disposition"]
    page = client.get(reverse("tournaments:export", args=[played.slug])).content.decode()
    assert "results.xlsx" in page and "tournament.json" not in page
    bad = reverse("tournaments:export_download", args=[played.slug, "players", "csv"])
    assert client.get(bad).status_code == 404
    assert client.get(reverse("tournaments:export_download",
                              args=[played.slug, "results", "pdf"])).status_code == 404


def test_switched_off_public_pages_switch_their_exports_off(client, played, referee_user):
    Tournament.objects.filter(pk=played.pk).update(public_results=False)

    def url(what: str) -> str:
        return reverse("tournaments:export_download", args=[played.slug, what, "csv"])

    assert client.get(url("standings")).status_code == 200
    assert client.get(url("results")).status_code == 404
    assert client.get(url("deals")).status_code == 404
    page = client.get(reverse("tournaments:export", args=[played.slug])).content.decode()
    assert "standings.xlsx" in page and "results.xlsx" not in page
    client.force_login(referee_user)
    assert client.get(url("deals")).status_code == 200


def test_private_tournament_exports_only_to_its_people(client, played, make_user, organizer):
    Tournament.objects.filter(pk=played.pk).update(public=False)
    url = reverse("tournaments:export_download", args=[played.slug, "standings", "csv"])
    assert client.get(url).status_code == 404
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 404
    client.force_login(organizer)
    assert client.get(url).status_code == 200
    page = client.get(reverse("tournaments:export", args=[played.slug])).content.decode()
    assert "tournament.json" in page
