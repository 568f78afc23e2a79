"""Profiles in the browser, in Russian at 360 px: the roster import's review step (a doubtful
row offers the namesakes, told apart by club, city and birth year; the organizer links it and
imports), and the pair form's profile search (htmx swaps in the profiles found)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.a11y import in_language, log_in, open_page
from tests.e2e.helpers import PHONE, page_width
from tournaments.registration.services import register_player
from tournaments.setup.services import create_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ROSTER = (
    "имя,клуб,город,год рождения\n"
    "Иван Петров,Рыба,Тверь,1979\n"
    "Ольга Морозова,Рыба,Тверь,1990\n"
)


@pytest.fixture
def cup(organizer):
    """An individual tournament to import into; two Иван Петров profiles play in an earlier
    tournament of the same organizer (so he sees them, birth years included)."""
    tournament = create_tournament(name="Кубок Твери", slug="tver-cup", organizer=organizer,
                                   format="individual")
    earlier = create_tournament(name="Осенний кубок", slug="autumn-cup", organizer=organizer)
    first = register_player(earlier, name="Иван Петров", club="Дубль-шесть", city="Москва",
                            birth_year=1979).profile
    second = register_player(earlier, name="Иван Петров", club="Рыба", city="Тверь",
                             birth_year=1962).profile
    return tournament, first, second


def _phone_page(browser):
    context = browser.new_context(locale="ru-RU", viewport=PHONE, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    context.set_default_timeout(10_000)
    return open_page(context)


def test_review_step_in_russian_at_360_px(browser, live_server, organizer, cup, screenshot,
                                          tmp_path: Path):
    tournament, first, second = cup
    page = _phone_page(browser)
    base = live_server.url
    log_in(page, base, organizer.username, "pw")
    page.goto(f"{base}/t/{tournament.slug}/import/")
    in_language(page, "ru")
    roster = tmp_path / "игроки.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    page.set_input_files("input[type=file]", str(roster))
    page.get_by_role("button", name="Проверить файл").click()

    review = page.locator("#review")
    expect(review).to_contain_text("Выберите профили")
    row = page.locator("#review-2")
    expect(row).to_contain_text("Строка 2: Иван Петров")
    expect(row).to_contain_text("Иван Петров — Дубль-шесть, Москва, 1979 г. р.")
    expect(row).to_contain_text("Иван Петров — Рыба, Тверь, 1962 г. р.")
    expect(row).to_contain_text("Новый профиль")
    assert page_width(page) <= PHONE["width"], f"the review is {page_width(page)} px wide"
    screenshot(page, "profile_review_phone_ru")

    row.get_by_label("Связать с: Иван Петров — Рыба, Тверь, 1962 г. р.").check()
    page.get_by_role("button", name="Импорт", exact=True).click()
    expect(page).to_have_url(f"{base}/t/{tournament.slug}/")
    assert tournament.players.get(name="Иван Петров").profile == second
    assert tournament.players.get(name="Ольга Морозова").profile not in (first, second, None)
    assert page.errors == []


def test_pair_form_finds_a_profile_as_the_organizer_types(browser, live_server, organizer,
                                                          cup, screenshot):
    tournament, first, second = cup
    pairs = create_tournament(name="Парный кубок", slug="pairs-cup", organizer=organizer)
    page = _phone_page(browser)
    base = live_server.url
    log_in(page, base, organizer.username, "pw")
    page.goto(f"{base}/t/{pairs.slug}/pairs/new/")
    page.locator("#id_player1_find").fill("иван пет")
    choices = page.locator("#id_player1_profile")
    expect(choices).to_contain_text("Иван Петров — Дубль-шесть, Москва, 1979 г. р.")
    assert page_width(page) <= PHONE["width"]
    screenshot(page, "profile_search_phone_ru")
    choices.get_by_label("Иван Петров — Дубль-шесть, Москва, 1979 г. р.").check()
    page.locator("#id_player2_name").fill("Зоя Тихонова")
    page.get_by_role("button", name="Сохранить", exact=True).click()
    expect(page).to_have_url(f"{base}/t/{pairs.slug}/")
    assert pairs.players.get(name="Иван Петров").profile == first
    assert page.errors == []
