"""Beyond one tournament, in the browser (Russian, 360 px): two evenings of the same four
people grouped into a season and into a rating list on their forms; the season table, the
rating list and one player's record show the expected places, ratings and plots, and the
record's rating is the list's number."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Profile, RatingEntry, RatingList
from tests.e2e.a11y import in_language, log_in, open_page
from tests.e2e.helpers import PHONE, page_width
from tests.e2e.test_season_pages import PEOPLE, _tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_season_rating_list_and_record_of_the_same_people(browser, live_server, organizer,
                                                          screenshot):
    profiles = [Profile.objects.create(name=name, club="Клуб «Дубль»") for name in PEOPLE]
    # evening 1: Anna and Lev beat Fyodor and Ivan; evening 2: Anna and Fyodor beat Lev and
    # Ivan. Anna won both, Ivan lost both, Lev and Fyodor won one each.
    first = _tournament(organizer, "vecher-1", [0, 1, 2, 3], profiles, "2026-01-10")
    second = _tournament(organizer, "vecher-2", [0, 2, 1, 3], profiles, "2026-01-17")
    context = browser.new_context(locale="ru-RU", viewport=PHONE, is_mobile=True,
                                  has_touch=True)
    context.set_default_timeout(10_000)
    page = open_page(context)
    base = live_server.url
    log_in(page, base, organizer.username, "pw")

    # the season, on its form: points by place 10, 6
    page.goto(base + "/seasons/new/")
    in_language(page, "ru")
    page.fill("#id_name", "Зимний сезон")
    page.fill("#id_slug", "zima")
    page.select_option("#id_scoring", "place_points")
    page.fill("#id_place_points", "10, 6")
    page.get_by_label(first.name, exact=True).check()
    page.get_by_label(second.name, exact=True).check()
    page.get_by_role("button", name="Сохранить").click()
    rows = page.locator("table.season-table tbody tr")
    expect(rows).to_have_count(4)
    top = [cell.strip() for cell in rows.first.locator("td, th").all_inner_texts()]
    assert top == ["1", "Анна Каренина", "Клуб «Дубль»", "10", "10", "20"]
    last = [cell.strip() for cell in rows.nth(3).locator("td, th").all_inner_texts()]
    assert last == ["4", "Иван Тургенев", "Клуб «Дубль»", "6", "6", "12"]
    assert page_width(page) <= PHONE["width"]
    screenshot(page, "season_with_ratings_ru_360")

    # the rating list, on its form: Glicko-2 over both evenings
    page.goto(base + "/ratings/new/")
    page.fill("#id_name", "Рейтинг клуба")
    page.fill("#id_slug", "klub")
    page.select_option("#id_system", "glicko2")
    page.locator(f"input[name=tournaments][value='{first.pk}']").check()
    page.locator(f"input[name=tournaments][value='{second.pk}']").check()
    page.locator("main form button[type=submit]").first.click()
    expect(page.locator("h1")).to_have_text("Рейтинг клуба")
    listed = page.locator("table.rating-table tbody tr")
    expect(listed).to_have_count(4)
    names = [listed.nth(k).locator("td").nth(1).inner_text().strip() for k in range(4)]
    assert names[0] == "Анна Каренина" and names[3] == "Иван Тургенев"
    rating_list = RatingList.objects.get(slug="klub")
    anna = RatingEntry.objects.get(rating_list=rating_list, profile=profiles[0], current=True)
    assert anna.rating > 1500 > RatingEntry.objects.get(
        rating_list=rating_list, profile=profiles[3], current=True).rating
    shown = listed.first.locator("td").nth(3).inner_text().strip()
    assert shown == str(round(anna.rating))
    assert page_width(page) <= PHONE["width"]
    screenshot(page, "rating_list_two_evenings_ru_360")

    # Anna's record, reached from the season table: both evenings 1st, her rating plotted
    page.goto(base + "/season/zima/")
    page.get_by_role("link", name="Анна Каренина").first.click()
    expect(page.locator("h1")).to_have_text("Анна Каренина")
    places = page.locator("table.record-tournaments tbody tr")
    expect(places).to_have_count(2)
    for k in range(2):
        expect(places.nth(k).locator("td").last).to_contain_text(re.compile(r"^1\b"))
    expect(page.locator("figure:has(#rating-plot-title) circle.plot-dot")).to_have_count(2)
    plotted = page.locator("figure:has(#rating-plot-title) table.plot-data tbody tr")
    expect(plotted).to_have_count(2)
    assert plotted.last.locator("td").nth(2).inner_text().strip() == shown
    assert page_width(page) <= PHONE["width"]
    screenshot(page, "record_after_season_ru_360")
    assert page.errors == []
