"""Issue #32, the smaller items, as the pages say them.

A pair without a name is "Игрок 1 / Игрок 2" on every page, both players shown once (the desk,
the standings, the pair's page); the overview's cards say "warnings" and "fines" in words; a
UDL singles event is a singles tournament; no Russian phrase puts a name after a preposition.
"""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.test import Client
from django.urls import reverse

from referee.services import give_warning
from scoring.models import Pair, Player, Profile
from tests.tournaments.play import play_round
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds
from tournaments.setup.services import create_tournament

pytestmark = pytest.mark.django_db


def _text(markup: str) -> str:
    """The text a reader sees: tags dropped, entities read, white space collapsed."""
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def _between(markup: str, start: str, end: str) -> str:
    """The part of ``markup`` from ``start`` to the next ``end``."""
    at = markup.index(start)
    return markup[at:markup.index(end, at)]


@pytest.fixture
def played(tournament):
    """The conftest tournament (pairs without names) after round 1, every player a profile."""
    for player in Player.objects.filter(tournament=tournament):
        player.profile = Profile.objects.create(name=player.name)
        player.save(update_fields=["profile"])
    rnd = rounds.create_round(tournament.pk)
    draw_services.generate_draw(rnd.pk)
    rounds.publish_round(rnd.pk)
    rounds.start_round(rnd.pk)
    play_round(rnd.pk, winner="a")
    rounds.close_round(rnd.pk)
    return tournament


# -- 1. a pair without a name: its two players, once, everywhere ----------------------------


def test_the_desk_shows_both_players_of_an_unnamed_pair_each_on_his_line(
    client, party, referee_user
):
    client.force_login(referee_user)
    page = client.get(reverse("referee:party", args=[party.pk])).content.decode()
    scoreboard = _between(page, 'id="scoreboard"', "</section>")
    # each player a line of his own: a narrow button cuts one short, never drops the second
    assert re.findall(r'<span class="ref-member">([^<]+)</span>', scoreboard) == [
        "Иван Петров", "Сергей Смирнов", "Ольга Морозова", "Мария Волкова"]
    assert "Иван Петров / Сергей Смирнов" in _text(scoreboard)
    # the deal form's buttons name both players of each side too
    form = _between(page, 'id="deal-entry"', "</form>")
    assert "Иван Петров / Сергей Смирнов" in _text(form)
    assert "Ольга Морозова / Мария Волкова" in _text(form)


def test_a_named_pair_is_its_name_on_the_desk(client, party, referee_user):
    Pair.objects.filter(pk=party.pair_a_id).update(name="Динамо")
    client.force_login(referee_user)
    page = client.get(reverse("referee:party", args=[party.pk])).content.decode()
    scoreboard = _between(page, 'id="scoreboard"', "</section>")
    assert "Динамо" in _text(scoreboard)
    assert "Иван Петров" not in _text(scoreboard)


def test_the_standings_print_an_unnamed_pair_once(client, played):
    page = client.get(reverse("tournaments:standings", args=[played.slug])).content.decode()
    table = _text(_between(page, "<tbody", "</tbody>"))
    for pair in Pair.objects.filter(tournament=played).select_related("player1", "player2"):
        assert table.count(pair.player1.name) == 1, table
        assert f"{pair.player1.name} / {pair.player2.name} parties" in table
        # each name leads to the player's record, "parties" to the pair's page
        pair_page = reverse("tournaments:pair", args=[played.slug, pair.pk])
        assert f'<a href="{pair_page}">parties</a>' in page
        profile = reverse("tournaments:profile", args=[pair.player1.profile_id])
        assert f'<a href="{profile}">{pair.player1.name}</a>' in page


def test_the_standings_print_a_named_pair_with_its_players_beneath(client, played):
    pair = Pair.objects.filter(tournament=played).order_by("pk").first()
    Pair.objects.filter(pk=pair.pk).update(name="Динамо")
    page = client.get(reverse("tournaments:standings", args=[played.slug])).content.decode()
    table = _text(_between(page, "<tbody", "</tbody>"))
    assert "Динамо Иван Петров / Сергей Смирнов" in table
    assert table.count("Иван Петров") == 1


def test_the_pair_page_names_its_players_once(client, played):
    pair = Pair.objects.filter(tournament=played).order_by("pk").first()
    page = client.get(reverse("tournaments:pair", args=[played.slug, pair.pk])).content.decode()
    head = _text(_between(page, "<h1", "<section"))
    assert head.count("Иван Петров") == 1 and "Иван Петров / Сергей Смирнов" in head
    # each name leads to his record across tournaments
    assert f'href="{reverse("tournaments:profile", args=[pair.player1.profile_id])}"' in page


# -- 2. the overview's cards: warnings and fines in words ------------------------------------


@pytest.mark.parametrize(("language", "said"), [
    ("en", "warnings 0 : 1 · fines 0 : 0"),
    ("ru", "предупреждения 0 : 1 · штрафы 0 : 0"),
])
def test_overview_cards_say_warnings_and_fines_in_words(party, referee_user, language, said):
    give_warning(party.pk, side="b", category="talking", seat="b1", actor=referee_user)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(referee_user)
    slug = party.round.tournament.slug
    page = client.get(reverse("referee:overview", args=[slug])).content.decode()
    card = _text(_between(page, 'class="card ref-ov', "</li>"))
    assert said in card, card
    assert "W 0/1" not in card and "П 0/1" not in card


# -- 3. a UDL singles event is a singles tournament ------------------------------------------


@pytest.mark.parametrize(("language", "kind", "not_kind"), [
    ("en", "Singles tournament", "Pairs tournament"),
    ("ru", "Личный турнир (один на один)", "Парный турнир"),
])
def test_a_udl_singles_event_is_listed_as_singles(organizer, language, kind, not_kind):
    udl = create_tournament(name="UDL Open", slug="udl-open", organizer=organizer,
                            rule_set="udl", public=True)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    listing = _text(client.get(reverse("tournaments:list")).content.decode())
    assert "UDL Open" in listing and kind in listing and not_kind not in listing
    detail = _text(client.get(udl.get_absolute_url()).content.decode())
    assert kind in detail and not_kind not in detail


def test_a_pairs_event_is_still_a_pairs_tournament(tournament):
    tournament.public = True
    tournament.save(update_fields=["public"])
    detail = _text(Client().get(tournament.get_absolute_url()).content.decode())
    assert "Pairs tournament" in detail


# -- 6. no name after a Russian preposition --------------------------------------------------


def test_a_players_history_names_his_partner_after_a_dash_in_russian(played):
    player = Player.objects.get(tournament=played, name="Иван Петров")
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    page = client.get(reverse("tournaments:player", args=[played.slug, player.pk]))
    text = _text(page.content.decode())
    assert "партнёр — Сергей Смирнов" in text
    assert "с Сергей Смирнов" not in text
