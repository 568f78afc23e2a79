"""Registering a team in the browser, in Russian at 360 px: the organizer creates a team
tournament (the team settings appear once the team format is chosen), registers a team with
two new pairs and its captain by form, and sees it listed with its pairs; nothing is wider
than the phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Team, Tournament
from tests.e2e.a11y import in_language, log_in, open_page
from tests.e2e.helpers import PHONE, page_width

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_team_is_registered_by_form_on_a_phone(browser, live_server, organizer, screenshot):
    context = browser.new_context(locale="ru-RU", viewport=PHONE, is_mobile=True,
                                  has_touch=True)
    context.set_default_timeout(10_000)
    page = open_page(context)
    base = live_server.url
    log_in(page, base, organizer.username, "pw")
    page.goto(base + "/t/new/")
    in_language(page, "ru")
    settings = page.locator("#team-settings")
    expect(settings).to_be_hidden()
    page.fill("#id_name", "Кубок клубов")
    page.fill("#id_slug", "kubok-klubov")
    page.select_option("#id_format", "teams")
    expect(settings).to_be_visible()
    page.fill("#id_team_squad_pairs", "3")
    page.get_by_label("Два тайма").check()
    page.select_option("#id_team_tie_breaks_0", "head_to_head")
    screenshot(page, "team_tournament_form_phone_ru")
    assert page_width(page) <= PHONE["width"], f"the form is {page_width(page)} px wide"
    page.get_by_role("button", name="Сохранить", exact=True).click()
    cup = Tournament.objects.get(slug="kubok-klubov")
    assert (cup.format, cup.team_squad_pairs, cup.team_halves) == ("teams", 3, True)
    assert cup.team_tie_breaks[0] == "head_to_head"

    page.goto(base + "/t/kubok-klubov/")
    page.get_by_role("link", name="Зарегистрировать команду").first.click()
    page.fill("#id_name", "Дубль-шесть")
    page.fill("#id_club", "Клуб «Дубль»")
    page.fill("#id_country", "Россия")
    names = ["Анна Каренина", "Лев Толстой", "Фёдор Достоевский", "Иван Тургенев"]
    for k, name in enumerate(names):
        pair, seat = k // 2 + 1, k % 2 + 1
        page.fill(f"#id_pair{pair}_player{seat}_name", name)
        page.fill(f"#id_pair{pair}_player{seat}_rating", str(1500 - 10 * k))
    page.select_option("#id_captain", "new:2:1")
    screenshot(page, "team_form_phone_ru")
    assert page_width(page) <= PHONE["width"], f"the form is {page_width(page)} px wide"
    page.get_by_role("button", name="Сохранить", exact=True).click()
    expect(page.locator("h1")).to_contain_text("Команды")
    team = page.locator("section.team")
    expect(team).to_have_count(1)
    expect(team).to_contain_text("Дубль-шесть")
    expect(team).to_contain_text("Анна Каренина / Лев Толстой")
    expect(team).to_contain_text("капитан Фёдор Достоевский")
    screenshot(page, "team_list_phone_ru")
    assert page_width(page) <= PHONE["width"], f"the list is {page_width(page)} px wide"
    team_row = Team.objects.get(tournament=cup)
    assert team_row.captain.name == "Фёдор Достоевский" and team_row.pairs.count() == 2
    assert page.errors == []
