"""The desk fits the work at 360 × 740, in Russian, with long real names.

During play the deal form's button is on the first screen (no scrolling), nothing scrolls
sideways, buttons name the pairs and players, and the protocol's signing block fits too.
Screenshots: tests/e2e/screenshots/desk_fits_*.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Party
from tests.e2e.desk_helpers import LONG_NAMES, give_long_names, pick_winner
from tests.e2e.helpers import PHONE, log_in, page_width

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone_ru(new_page, live_server, referee_user) -> Page:
    """The referee's phone (360 × 740) in Russian."""
    page = new_page(phone=True)
    page.context.set_extra_http_headers({"Accept-Language": "ru"})
    log_in(page, live_server.url, referee_user.username)
    page.context.add_cookies([{"name": "django_language", "value": "ru", "url": live_server.url}])
    return page


def fits(page: Page) -> None:
    """No sideways scroll, and every visible button inside the screen's width."""
    assert page_width(page) <= PHONE["width"], f"the page is {page_width(page)} px wide"
    overflowing = page.evaluate(
        """() => [...document.querySelectorAll('#panel button, #protocol button')]
            .filter(b => b.offsetParent !== null)
            .map(b => [b.textContent.trim(), b.getBoundingClientRect().right])
            .filter(([, right]) => right > window.innerWidth + 0.5)"""
    )
    assert overflowing == []


def small_targets(page: Page) -> list:
    """Visible buttons, links, summaries and radio labels of the panel under 44 × 44 px."""
    return page.evaluate(
        """() => [...document.querySelectorAll(
              '#panel button, #panel a, #panel summary, #panel .ref-seg label > span')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.textContent.trim().slice(0, 30), e.getBoundingClientRect()])
            .filter(([, r]) => r.height < 43.5 || r.width < 43.5)
            .map(([t, r]) => [t, Math.round(r.width), Math.round(r.height)])"""
    )


def test_deal_form_on_the_first_screen_in_russian(phone_ru, live_server, party, screenshot):
    give_long_names(party)
    phone_ru.goto(f"{live_server.url}/referee/party/{party.pk}/")
    phone_ru.wait_for_load_state("networkidle")
    expect(phone_ru.locator("html")).to_have_attribute("lang", "ru")
    screenshot(phone_ru, "desk_fits_ru_in_play")
    box = phone_ru.locator("#btn-deal").bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
    assert phone_ru.evaluate("window.scrollY") == 0
    assert phone_ru.locator("#panel .ref-checkin").count() == 0  # in play: no check-in
    fits(phone_ru)
    assert small_targets(phone_ru) == []
    warning = phone_ru.locator("[data-warning=talking-a]")
    expect(warning).to_contain_text("Виктория Соколова-Белозёрская")

    pick_winner(phone_ru, "a")
    phone_ru.fill("#deal-points", "30")
    phone_ru.click("#btn-deal")
    flash = phone_ru.locator("#deal-entry .ref-flash.ok")
    expect(flash).to_contain_text(f"{LONG_NAMES['a1']} / {LONG_NAMES['a2']}")
    phone_ru.click("[data-warning=talking-b]")
    expect(phone_ru.locator("#warnings .ref-flash.ok")).to_contain_text(
        f"{LONG_NAMES['b1']} / {LONG_NAMES['b2']}"
    )
    for summary in ("#rulings > details > summary",):
        for element in phone_ru.locator(summary).all():
            element.click()
    fits(phone_ru)
    assert small_targets(phone_ru) == []
    screenshot(phone_ru, "desk_fits_ru_after")
    assert phone_ru.errors == []


def test_check_in_before_the_start_names_the_players(phone_ru, live_server, make_party,
                                                    screenshot):
    party = make_party()
    give_long_names(party)
    phone_ru.goto(f"{live_server.url}/referee/party/{party.pk}/")
    checkin = phone_ru.locator("#clock-controls .ref-checkin button")
    expect(checkin).to_have_count(4)  # one per player: presence is kept per seat
    expect(checkin.first).to_contain_text(LONG_NAMES["a1"])
    fits(phone_ru)
    screenshot(phone_ru, "desk_fits_ru_scheduled")


def test_signing_block_fits_at_360px(phone_ru, live_server, party, screenshot):
    from scoring.party.deals import record_deal
    from scoring.party.protocol_lock import open_protocol

    give_long_names(party)
    while party.status != Party.Status.FINISHED:
        record_deal(party.pk, outcome="domino", winner="a", points={"a": 168})
        party.refresh_from_db()
    assert party.status == Party.Status.FINISHED
    open_protocol(party)
    phone_ru.goto(f"{live_server.url}{party.get_absolute_url()}")
    expect(phone_ru.locator("#protocol table.signatures")).to_be_visible()
    fits(phone_ru)
    screenshot(phone_ru, "desk_fits_ru_signing")


def test_an_unnamed_pair_shows_both_players_at_360_px(phone_ru, live_server, party, screenshot):
    """Issue #32: the pair's name "Игрок 1 / Игрок 2" was cut after the first player; each
    player now has his line, cut short alone where the button is narrow."""
    give_long_names(party)
    phone_ru.goto(f"{live_server.url}/referee/party/{party.pk}/")
    phone_ru.wait_for_load_state("networkidle")
    screenshot(phone_ru, "desk_fits_ru_unnamed_pairs")
    for scope in ("#scoreboard .ref-pair", "#deal-entry .ref-seg"):
        members = phone_ru.locator(f"{scope} .ref-member")
        expect(members).to_have_count(4)
        for k, seat in enumerate(("a1", "a2", "b1", "b2")):
            member = members.nth(k)
            expect(member).to_have_text(LONG_NAMES[seat])
            expect(member).to_be_visible()
            box = member.bounding_box()
            # on the screen, and wide enough to read the start of the name
            assert box and box["width"] >= 60 and box["x"] + box["width"] <= PHONE["width"], (
                seat, box)
    fits(phone_ru)
