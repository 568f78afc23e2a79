"""The captain's line-up on his phone, in Russian at 360 px: he pairs four of his team's
players for the next team match (a substitute in), a player named twice is refused on its
field, and the saved line-up is the match's parties."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Party, Player, TeamMatch, Tournament
from tests.e2e.a11y import in_language, log_in, open_page
from tests.e2e.helpers import PHONE, page_width
from tests.factories import TableFactory, TournamentFactory, UserFactory
from tournaments.registration.team_players import register_squad
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RED = ["Анна Красновская-Длиннофамильная", "Борис Красный", "Вера Красная", "Глеб Красный",
       "Дина Красная"]
BLUE = ["Егор Синий", "Жанна Синяя", "Зоя Синяя", "Иван Синий"]


def test_the_captain_pairs_his_players_on_a_phone(browser, live_server, organizer,
                                                   screenshot):
    t = TournamentFactory(slug="chetvyorki", organizer=organizer,
                          format=Tournament.Format.TEAMS)
    Tournament.objects.filter(pk=t.pk).update(
        team_halves=True, team_members=Tournament.TeamMembers.PLAYERS, team_squad_players=5)
    t.refresh_from_db()
    TableFactory.create_batch(2, tournament=t)
    red = register_squad(t, name="Красные", players=[{"name": n} for n in RED],
                         captain=RED[0]).team
    register_squad(t, name="Синие", players=[{"name": n} for n in BLUE])
    captain = UserFactory(username="kapitan")
    Player.objects.filter(pk=red.captain_id).update(user=captain)
    rnd = draw_services.generate_draw(rounds.create_round(t.pk).pk)
    tm = TeamMatch.objects.get(round=rnd)

    context = browser.new_context(locale="ru-RU", viewport=PHONE, is_mobile=True,
                                  has_touch=True)
    context.set_default_timeout(30_000)
    page = open_page(context)
    log_in(page, live_server.url, "kapitan", "pw")
    page.goto(f"{live_server.url}/t/{t.slug}/team-matches/{tm.pk}/lineup/")
    in_language(page, "ru")
    expect(page.locator("h1")).to_contain_text("Красные")
    ids = {p.name: p.pk for p in Player.objects.filter(team=red)}
    page.get_by_label("Доска 1: первый игрок").select_option(str(ids[RED[4]]))
    page.get_by_label("Доска 1: второй игрок").select_option(str(ids[RED[4]]))
    page.get_by_role("button", name="Сохранить", exact=True).click()
    expect(page.locator("form.form")).to_contain_text("Назван в составе дважды")
    screenshot(page, "team_lineup_refused_phone_ru")
    page.get_by_label("Доска 1: второй игрок").select_option(str(ids[RED[0]]))
    page.get_by_label("Доска 2: первый игрок").select_option(str(ids[RED[2]]))
    page.get_by_label("Доска 2: второй игрок").select_option(str(ids[RED[1]]))
    screenshot(page, "team_lineup_phone_ru")
    assert page_width(page) <= PHONE["width"], f"the form is {page_width(page)} px wide"
    page.get_by_role("button", name="Сохранить", exact=True).click()
    expect(page.locator("body")).to_contain_text("Состав команды Красные сохранён")
    side = "pair_a" if tm.team_a_id == red.pk else "pair_b"
    seated = [(getattr(p, side).player1.name, getattr(p, side).player2.name)
              for p in Party.objects.filter(team_match=tm, half=1).order_by("board")]
    assert seated == [(RED[4], RED[0]), (RED[2], RED[1])]
    assert page.errors == []
