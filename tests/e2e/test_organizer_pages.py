"""The organizer's set-up pages in Russian, at 360 px and on a desktop: the tournament page
with its next step, the pair form with its two players, "add tables", the standings order's
numbered places (their script greys out a chosen metric), the rounds and standings pages that
name the tournament. Each fits the phone's width without errors; screenshots are kept."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.a11y import in_language, log_in, open_page
from tests.e2e.helpers import DESKTOP, PHONE, page_width
from tournaments.registration.services import add_table, register_pair, register_player
from tournaments.setup.services import create_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAME = "Кубок Дубль-шесть · осень"


@pytest.fixture
def cup(organizer):
    """A new tournament with one pair and two tables (the set-up half done)."""
    tournament = create_tournament(name=NAME, slug="autumn", organizer=organizer)
    first = register_player(tournament, name="Анна Каренина", rating=1500)
    second = register_player(tournament, name="Лев Толстой", rating=1480)
    register_pair(tournament, first, second, name="Классики")
    add_table(tournament, 1)
    add_table(tournament, 2)
    return tournament


def _russian(browser: Browser, viewport: dict, phone: bool) -> Page:
    context = browser.new_context(locale="ru-RU", viewport=viewport, is_mobile=phone,
                                  has_touch=phone, device_scale_factor=2 if phone else 1)
    context.set_default_timeout(10_000)
    return open_page(context)


PAGES = [
    ("tournament", "/t/autumn/", "Следующий шаг"),
    ("pair_form", "/t/autumn/pairs/new/", "Первый игрок"),
    ("tables_form", "/t/autumn/tables/new/", "Сколько столов"),
    ("regulations", "/t/autumn/regulations/", "Очки матча"),
    ("rounds", "/t/autumn/rounds/", NAME),
    ("standings", "/t/autumn/standings/", NAME),
]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_organizer_pages_in_russian_fit_and_work(browser, live_server, organizer, cup,
                                                 screenshot, size):
    phone = size == "phone"
    page = _russian(browser, PHONE if phone else DESKTOP, phone)
    base = live_server.url
    log_in(page, base, organizer.username, "pw")
    for name, path, says in PAGES:
        page.goto(base + path)
        in_language(page, "ru")
        expect(page.locator("main")).to_contain_text(says)
        if phone:
            screenshot(page, f"organizer_{name}_{size}_ru")
            assert page_width(page) <= PHONE["width"], f"{path} is {page_width(page)} px wide"
        screenshot(page, f"organizer_{name}_{size}_ru")
    assert page.errors == []

    # the tournament page: two tables and one pair, so the next step is more pairs
    page.goto(base + "/t/autumn/")
    expect(page.locator("#next-step a.button.primary")).to_have_text("Добавить пару")
    edit = page.locator("#pairs").get_by_role("link", name="Изменить Классики")
    expect(edit).to_be_visible()
    if phone:  # the pairs' table fits: its edit link is not cut off at the edge
        box = edit.bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"]

    # the standings order: a metric chosen in place 1 is greyed out in place 2
    page.goto(base + "/t/autumn/regulations/")
    page.locator("#id_standings_order_0").select_option("wins")
    wins_in_second = page.locator('#id_standings_order_1 option[value="wins"]')
    expect(wins_in_second).to_be_disabled()
    assert page.errors == []
