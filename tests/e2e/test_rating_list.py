"""The rating list in a phone's browser, in Russian: ranks, Cyrillic names, ratings and RD
fit 360 px; the organizer makes a list from his tournaments on the page."""

from __future__ import annotations

from datetime import date

import pytest
from playwright.sync_api import expect

from scoring.models import Profile, RatingEntry, RatingList
from scoring.ranking.rating_runs import recompute_rating_list
from tests.e2e.helpers import log_in, page_width
from tests.ratings.test_service import linked_field

pytestmark = pytest.mark.django_db(transaction=True)


def test_rating_list_on_a_phone_in_russian(browser, live_server, make_field, organizer,
                                           screenshot):
    names = ["Иван Петров", "Ёлкин Щукин", "Ольга Морозова", "Мария Волкова",
             "Сергей Смирнов", "Эдуард Юдин", "Фёдор Второй", "Анна Мюллер-Щербакова"]
    profiles = [Profile.objects.create(name=n, club="Клуб «Дубль-пусто»") for n in names]
    early = linked_field(make_field, profiles, "winter", date(2026, 2, 1))
    late = linked_field(make_field, profiles, "spring", date(2026, 5, 1))
    rating_list = RatingList.objects.create(name="Рейтинг Москвы", slug="moscow",
                                            created_by=organizer)
    rating_list.tournaments.set([early, late])
    recompute_rating_list(rating_list.pk)
    best = RatingEntry.objects.filter(rating_list=rating_list, current=True).order_by(
        "-rating").select_related("profile").first()

    context = browser.new_context(locale="ru-RU", viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(f"{live_server.url}/ratings/moscow/")
    expect(page.locator("h1")).to_have_text("Рейтинг Москвы")
    first = page.locator("table.rating-table tbody tr").first
    expect(first.locator("td").nth(1)).to_have_text(best.profile.name)
    expect(first.locator("td").nth(3)).to_have_text(str(round(best.rating)))
    expect(page.locator("table.rating-table thead")).to_contain_text("Рейтинг")
    expect(page.get_by_role("link", name="Скачать CSV")).to_be_visible()
    assert page_width(page) <= 360
    screenshot(page, "rating_list_ru_360")

    organizer.set_password("pw")
    organizer.save()
    desk = browser.new_context(locale="en-US", viewport={"width": 360, "height": 740}).new_page()
    log_in(desk, live_server.url, organizer.username)
    desk.goto(f"{live_server.url}/ratings/new/")
    desk.locator("#id_name").fill("Эло клуба")
    desk.locator("#id_slug").fill("elo-club")
    desk.locator("#id_system").select_option("elo")
    desk.locator(f"input[name=tournaments][value='{early.pk}']").check()
    assert page_width(desk) <= 360
    screenshot(desk, "rating_list_form_360")
    desk.locator("main form button[type=submit]").first.click()
    expect(desk.locator("h1")).to_have_text("Эло клуба")
    expect(desk.locator("table.rating-table tbody tr")).to_have_count(8)
