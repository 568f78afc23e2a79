"""The club and country standings of the sport demo (``make run``'s "demo-cup"), best 2 results
per club, against tables computed by hand from the figures its standings page shows.

Loading the demo takes seconds, so one test loads it and checks each page in turn.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Tournament
from tournaments.management.commands.seed_demo import DEMO_SLUG, Command

pytestmark = pytest.mark.django_db

STANDINGS = [
    # rank, pair, match points, point difference: the standings page's first two columns
    ("1", "Пётр Виноградов / Григорий Богданов", 4, 275),
    ("2", "Андрей Соколов / Михаил Лебедев", 4, 255),
    ("3", "Иван Петров / Сергей Смирнов", 4, 238),
    ("4", "Ольга Морозова / Мария Волкова", 4, 184),
    ("5", "Алексей Кузнецов / Дмитрий Попов", 2, 124),
    ("6", "María Fernández / Luis Martínez", 2, 103),
    ("7", "Наталья Воробьёва / Светлана Фёдорова", 2, 86),
    ("8", "Юрий Семёнов / Фёдор Голубев", 2, -50),
    ("9", "Pierre Dubois / Jan Kowalski", 2, -64),
    ("10", "Анатолий Михайлов / Борис Беляев", 2, -96),
    ("11", "Олександр Шевченко / Богдан Коваленко", 2, -99),
    ("12", "Николай Козлов / Владимир Новиков", 2, -199),
    ("13", "Ёлкин Щукин / Эдуард Юдин", 0, -126),
    ("14", "José García / Carlos Rodríguez", 0, -159),
    ("15", "John Smith / Anna Müller", 0, -212),
    ("16", "Елена Зайцева / Татьяна Павлова", 0, -260),
]
"""The demo's standings after its two played rounds (round 3's parties are not finished)."""

CLUBS = [
    # rank, club, counted entrants (place. pair), match points, point difference
    # Дубль-шесть (pairs at 2, 3 and 5): the best two, 2 and 3: 4 + 4 = 8; 255 + 238 = 493
    ("1", "Дубль-шесть", ["2. Андрей Соколов / Михаил Лебедев",
                          "3. Иван Петров / Сергей Смирнов"], "8", "493"),
    # Club Capicúa (1, 7, 8): 4 + 2 = 6; 275 + 86 = 361 — ahead of Рыба on the second sum
    ("2", "Club Capicúa", ["1. Пётр Виноградов / Григорий Богданов",
                           "7. Наталья Воробьёва / Светлана Фёдорова"], "6", "361"),
    # Рыба (4, 12, 16): 4 + 2 = 6; 184 + (−199) = −15
    ("3", "Рыба", ["4. Ольга Морозова / Мария Волкова",
                   "12. Николай Козлов / Владимир Новиков"], "6", "-15"),
    # Камень (6, 10, 14): 2 + 2 = 4; 103 + (−96) = 7
    ("4", "Камень", ["6. María Fernández / Luis Martínez",
                     "10. Анатолий Михайлов / Борис Беляев"], "4", "7"),
    # Domino Riga (9, 11, 15): 2 + 2 = 4; −64 + (−99) = −163 — behind Камень on the second sum
    ("5", "Domino Riga", ["9. Pierre Dubois / Jan Kowalski",
                          "11. Олександр Шевченко / Богдан Коваленко"], "4", "-163"),
    # Азов (13 only): one result counts: 0; −126
    ("6", "Азов", ["13. Ёлкин Щукин / Эдуард Юдин"], "0", "-126"),
]
"""The clubs' tab by hand: players 1–6 of the demo are of Дубль-шесть, 7–12 Рыба, 13–18 Club
Capicúa, 19–24 Камень, 25–30 Domino Riga, 31–32 Азов; the pairs are players 1+2, 3+4 …"""

COUNTRIES = [
    # Россия (players 1–20, 31, 32: pairs at 1, 2, 3 …): 4 + 4 = 8; 275 + 255 = 530
    ("1", "Россия", ["1. Пётр Виноградов / Григорий Богданов",
                     "2. Андрей Соколов / Михаил Лебедев"], "8", "530"),
    # Испания (6, 14): 2 + 0 = 2; 103 + (−159) = −56
    ("2", "Испания", ["6. María Fernández / Luis Martínez",
                      "14. José García / Carlos Rodríguez"], "2", "-56"),
    # Польша and Франция: the one pair of a Frenchman and a Pole (9) counts for both: 2; −64;
    # equal on every criterion, they share third place
    ("3=", "Польша", ["9. Pierre Dubois / Jan Kowalski"], "2", "-64"),
    ("3=", "Франция", ["9. Pierre Dubois / Jan Kowalski"], "2", "-64"),
    # Украина (11): 2; −99
    ("5", "Украина", ["11. Олександр Шевченко / Богдан Коваленко"], "2", "-99"),
    # Великобритания and Германия: John Smith / Anna Müller (15) for both: 0; −212
    ("6=", "Великобритания", ["15. John Smith / Anna Müller"], "0", "-212"),
    ("6=", "Германия", ["15. John Smith / Anna Müller"], "0", "-212"),
]
"""The countries' tab by hand (players 21–24 of Испания, 25 Великобритания, 26 Германия,
27 Франция, 28 Польша, 29–30 Украина, the others of Россия)."""


def _text(html: str) -> str:
    """A cell as a visitor reads it: no tags, no "record" and "parties" links, spaces collapsed."""
    html = re.sub(r"<small>.*?</small>", "", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _rows(html: str, table_class: str) -> list[list[str]]:
    """The cells of every body row of the page's table of ``table_class``."""
    table = re.search(rf'<table class="[^"]*{table_class}[^"]*">(.*?)</table>', html, re.S)
    assert table, table_class
    body = table.group(1).split("<tbody>")[1]
    return [re.findall(r"<td>(.*?)</td>", row, re.S)
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def _club_table(html: str) -> list[tuple[str, str, list[str], str, str]]:
    """The club standings as shown: rank, club, counted entrants, the two sums."""
    shown = []
    for rank, who, total, tie_break in _rows(html, "club-standings"):
        name = _text(re.search(r"<strong>(.*?)</strong>", who).group(1))
        counted = [_text(re.sub(r'<span class="muted figures">.*?</span>', "", li))
                   for li in re.findall(r"<li>(.*?)</li>", who, re.S)]
        shown.append((rank, name, counted, total, tie_break))
    return shown


def test_demo_club_and_country_standings_add_up_the_best_two_of_each(client: Client,
                                                                      protocol_files):
    """(rules.md S35) The sport demo's clubs and countries, best 2 results each, as computed
    by hand from its standings page; the tab and the API agree."""
    Command().build_sport()  # the sport demo alone: the tournament ``make run`` serves first
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    assert tournament.regulations.club_best_results == 2  # the default
    standings = client.get(reverse("tournaments:standings", args=[DEMO_SLUG])).content.decode()
    shown = [(cells[0], _text(cells[1]), int(cells[2]), int(cells[3]))
             for cells in _rows(standings, "standings-table")]
    assert shown == STANDINGS
    assert 'href="/t/demo-cup/standings/clubs/"' in standings
    assert 'href="/t/demo-cup/standings/countries/"' in standings  # the demo's players have one

    clubs = client.get(reverse("tournaments:club_standings", args=[DEMO_SLUG]))
    assert clubs.status_code == 200
    html = clubs.content.decode()
    assert _club_table(html) == CLUBS
    assert "The best 2 results of each club count" in html
    countries = client.get(reverse("tournaments:country_standings", args=[DEMO_SLUG]))
    assert _club_table(countries.content.decode()) == COUNTRIES

    api = client.get(reverse("v1:tournament-club-standings", args=[tournament.pk])).json()
    assert api["best"] == 2 and api["order"] == ["match_points", "point_difference"]
    assert [(line["name"], line["total"], line["tie_break"], line["best_rank"])
            for line in api["lines"]] == [
        (name, int(total), int(tie_break), int(counted[0].split(".")[0]))
        for _rank, name, counted, total, tie_break in CLUBS]
    assert [[entrant["rank"] for entrant in line["entrants"]] for line in api["lines"]] == [
        [2, 3], [1, 7], [4, 12], [6, 10], [9, 11], [13]]
    by_country = client.get(reverse("v1:tournament-club-standings", args=[tournament.pk]),
                            {"by": "country"}).json()
    assert [(line["rank"], line["shared"], line["name"]) for line in by_country["lines"]] == [
        (int(rank.rstrip("=")), rank.endswith("="), name)
        for rank, name, *_rest in COUNTRIES]

    # three results a club: the setting changes the table (Дубль-шесть: 8 + 2 = 10 …)
    regulations = tournament.regulations
    regulations.club_best_results = 3
    regulations.save()
    three = _club_table(client.get(reverse("tournaments:club_standings",
                                           args=[DEMO_SLUG])).content.decode())
    # Дубль-шесть 4+4+2 = 10, 493+124 = 617; Capicúa 6+2 = 8, 361−50 = 311; Рыба 6+0 = 6,
    # −15−260 = −275; Камень 4+0 = 4, 7−159 = −152; Domino Riga 4+0 = 4, −163−212 = −375
    assert [(rank, name, total, tie_break) for rank, name, _c, total, tie_break in three] == [
        ("1", "Дубль-шесть", "10", "617"), ("2", "Club Capicúa", "8", "311"),
        ("3", "Рыба", "6", "-275"), ("4", "Камень", "4", "-152"),
        ("5", "Domino Riga", "4", "-375"), ("6", "Азов", "0", "-126")]
