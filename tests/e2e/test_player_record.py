"""A player's record in the browser: his profile page with the rating and points plots, in
English and Russian, at 360 px and on a desktop. Cyrillic labels render in the SVG, the page
fits the phone, axe finds no serious violation, and the screenshots are kept."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from scoring.models import Player, Profile, RatingEntry, RatingList, Tournament
from tests.e2e.a11y import axe_violations, blocking, describe, in_language, open_page
from tests.e2e.helpers import DESKTOP, PHONE, page_width

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def record(make_field):
    """Игорь Нолев in three tournaments of 4 pairs, two rounds played in each, with a
    history in two rating lists (one with its deviation)."""
    profile = Profile.objects.create(name="Игорь Нолев", club="Дубль-шесть", city="Тверь")
    federation = RatingList.objects.create(name="Рейтинг федерации", slug="federation")
    club = RatingList.objects.create(name="Клубный Эло", slug="club-elo", system="elo")
    history = [(1500, 300, 1400), (1560, 220, 1432), (1610, 160, 1420)]
    for n, (rating, rd, elo) in enumerate(history):
        field = make_field(4, start_date=datetime.date(2026, 3 + 2 * n, 10))
        Tournament.objects.filter(pk=field.pk).update(name=f"Кубок Твери, этап {n + 1}")
        Player.objects.filter(tournament=field, name="Игрок 000").update(profile=profile)
        RatingEntry.objects.create(
            rating_list=federation, subject=str(profile.pk), profile=profile, tournament=field,
            sequence=n + 1, rating=rating, deviation=rd,
        )
        RatingEntry.objects.create(
            rating_list=club, subject=str(profile.pk), profile=profile, tournament=field,
            sequence=n + 1, rating=elo,
        )
    return profile


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize(
    ("lang", "says"), [("en", "Rating over time"), ("ru", "Рейтинг во времени")]
)
def test_the_record_page_shows_its_plots_in_both_languages(
    browser, live_server, record, screenshot, size, lang, says
):
    phone = size == "phone"
    context = browser.new_context(
        locale={"en": "en-US", "ru": "ru-RU"}[lang], viewport=PHONE if phone else DESKTOP,
        is_mobile=phone, has_touch=phone, device_scale_factor=2 if phone else 1,
    )
    page = open_page(context)
    page.goto(f"{live_server.url}/players/{record.pk}/")
    in_language(page, lang)
    expect(page.locator("h1")).to_have_text("Игорь Нолев")
    expect(page.locator("main")).to_contain_text(says)
    rating = page.locator("svg[aria-labelledby='rating-plot-title rating-plot-desc']")
    expect(rating.locator("polyline.plot-line")).to_have_count(2)
    expect(rating.locator("polygon.plot-band")).to_have_count(1)
    expect(page.locator(".plot-key").first).to_have_text("Клубный Эло")
    expect(page.locator("svg .plot-bar").first).to_be_visible()
    expect(page.locator("table.record-tournaments tbody tr")).to_have_count(3)
    # the SVG's text is drawn in the page's font, and Cyrillic has width (no missing glyphs)
    label = page.locator("svg .chart-axis").first
    assert "DejaVu" in label.evaluate("e => getComputedStyle(e).fontFamily")
    assert page.locator(".plot-key").first.bounding_box()["width"] > 40
    if phone:
        assert page_width(page) <= PHONE["width"], page_width(page)
    screenshot(page, f"player_record_{size}_{lang}")
    assert page.errors == []
    context.close()


def test_the_record_page_has_no_serious_accessibility_violation(browser, live_server, record):
    from tests.e2e.a11y import phone_context

    page = open_page(phone_context(browser, "ru", axe=True))
    page.goto(f"{live_server.url}/players/{record.pk}/")
    violations = blocking(axe_violations(page))
    assert not violations, describe(violations)
