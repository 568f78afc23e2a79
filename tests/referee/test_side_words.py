"""A side is called what it is, by one function (``Tournament.side_labels``, the rule set's
``side_label``): "Player A" in singles, "Pair A" where partners play, on the hall screen's
draw and parties in play, the round's draw, the tournament page and the party page alike."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _pages(desk_made) -> str:
    party = desk_made.party
    tournament, number = party.round.tournament, party.round.number
    organizer = Client(HTTP_ACCEPT_LANGUAGE="ru")
    organizer.force_login(tournament.created_by)
    anyone = Client(HTTP_ACCEPT_LANGUAGE="ru")
    hall = reverse("tournaments:hall", args=[tournament.slug])
    answers = [
        anyone.get(hall + "?panel=draw", HTTP_HX_REQUEST="true"),
        anyone.get(hall + "?panel=running", HTTP_HX_REQUEST="true"),
        organizer.get(reverse("tournaments:round", args=[tournament.slug, number])),
        organizer.get(reverse("tournaments:detail", args=[tournament.slug])),
        anyone.get(reverse("tournaments:party", args=[party.pk])),
    ]
    assert [a.status_code for a in answers] == [200] * 5
    return [a.content.decode() for a in answers]


def test_singles_pages_say_player_a_never_pair_a(desk):
    for html in _pages(desk("udl")):
        assert "Игрок A" in html and "Игрок B" in html
        assert "Пара A" not in html and "Пара B" not in html and "Сторона A" not in html


def test_pairs_pages_say_pair_a(desk):
    for html in _pages(desk("sport")):
        assert "Пара A" in html and "Пара B" in html and "Игрок A" not in html


@pytest.mark.parametrize(("code", "word", "not_word"), [("udl", "Соперник<", "Соперники"),
                                                        ("sport", "Соперники<", "Соперник<")])
def test_a_players_next_table_names_one_opponent_or_two(desk, make_user, code, word, not_word):
    made = desk(code)
    party = made.party
    player = party.pair_a.player1
    player.user = make_user("next-table")
    player.save()
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(player.user)
    response = client.get(reverse("tournaments:player_area", args=[party.round.tournament.slug]))
    html = response.content.decode()
    assert response.status_code == 200 and party.pair_b.player1.name in html
    area = html[html.index("<dt>"):]
    assert word in area and not_word not in area[:area.index("</dl>")]
