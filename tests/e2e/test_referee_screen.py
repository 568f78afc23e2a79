"""The referee's party screen in a real Chromium at 360 px: usable without horizontal scrolling.

Runs in the normal suite (Debian's chromium at /usr/bin/chromium, driven by Playwright against
pytest-django's live server). A screenshot is kept in tests/e2e/screenshots/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.desk_helpers import pick_winner
from tests.e2e.helpers import PHONE, log_in, page_width

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTH = PHONE["width"]


@pytest.fixture
def phone(new_page, live_server, referee_user) -> Page:
    """A 360 px wide phone logged in as the referee; ``phone.errors`` collects errors."""
    page = new_page(phone=True)
    log_in(page, live_server.url, referee_user.username)
    return page


def no_horizontal_scroll(page: Page) -> None:
    width = page_width(page)
    assert width <= WIDTH, f"the page is {width} px wide"


def inside_the_screen(page: Page, selector: str, touch: bool = True) -> None:
    element = page.locator(selector).first
    expect(element).to_be_visible()
    element.scroll_into_view_if_needed()
    box = element.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, (selector, box)
    if touch:
        assert box["height"] >= 40, (selector, box)  # a finger-sized target


def confirm(page: Page) -> None:
    """Say yes in the dialog an irreversible action opens."""
    page.locator("#confirm-dialog").get_by_role("button", name="Yes, do it").click()


def test_party_screen_at_360px(phone, live_server, party, screenshot):
    phone.goto(f"{live_server.url}/referee/party/{party.pk}/")
    phone.wait_for_load_state("networkidle")
    screenshot(phone, "referee_party_360")
    no_horizontal_scroll(phone)
    for selector in ("#btn-pause", "#btn-deal", "#deal-points", "[data-warning=talking-a]",
                     "[data-warning=move_time-b]", "#rulings summary"):
        inside_the_screen(phone, selector)
    inside_the_screen(phone, "#scoreboard .clock", touch=False)

    # A quick deal: two taps, the number, record — htmx swaps the panel in place.
    pick_winner(phone, "a")
    phone.fill("#deal-points", "30")
    phone.click("#btn-deal")
    expect(phone.locator(".ref-flash.ok")).to_contain_text("Deal 1")
    expect(phone.locator("[data-total=a]")).to_have_text("30")

    # The same kind of violation twice: a warning, then a fine.
    phone.click("[data-warning=talking-b]")
    expect(phone.locator(".ref-flash.ok")).to_contain_text("Warning")
    phone.click("[data-warning=talking-b]")
    confirm(phone)  # a fine: the dialog asks first
    expect(phone.locator(".ref-flash.ok")).to_contain_text("Fine")
    expect(phone.locator("[data-total=b]")).to_have_text("-25")

    # A ruling in two taps: open it, tap the seat's button (the pair is fined).
    phone.locator("#touched-tile summary").click()
    inside_the_screen(phone, "[data-ruling=touched-misfit-a1]")
    phone.click("[data-ruling=touched-misfit-a1]")
    confirm(phone)
    expect(phone.locator(".ref-flash.ok")).to_contain_text("Touched tile")
    expect(phone.locator("[data-total=a]")).to_have_text("5")

    # The tile picker: no tile in two hands, the sums shown.
    phone.locator("#deal-entry summary", has_text="tiles").click()
    phone.locator("fieldset.ref-hand", has_text="A1").locator("text=66").first.click()
    expect(phone.locator("#tiles-sum")).to_contain_text("12")
    disabled = phone.locator("fieldset.ref-hand", has_text="B1").locator("input[value='6-6']")
    expect(disabled).to_be_disabled()
    no_horizontal_scroll(phone)
    screenshot(phone, "referee_party_360_after")
    assert phone.errors == []  # nothing refused by the strict CSP, no script error


def test_overview_at_360px(phone, live_server, party, tournament, screenshot):
    phone.goto(f"{live_server.url}/referee/t/{tournament.slug}/")
    phone.wait_for_load_state("networkidle")
    screenshot(phone, "referee_overview_360")
    no_horizontal_scroll(phone)
    inside_the_screen(phone, f"a[href='/referee/party/{party.pk}/']")
    assert phone.errors == []
