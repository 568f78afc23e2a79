"""What the desk's browser tests share: the referee's Russian phone, the party screen kept
offline, a quick deal, picking a deal's winner by side, long real names."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.helpers import log_in

LONG_NAMES = {
    "a1": "Лев Мухин",
    "a2": "Виктория Соколова-Белозёрская",
    "b1": "Александра Константинопольская",
    "b2": "Вячеслав Преображенский-Задунайский",
}
"""Players' names as long as real ones get, by seat."""


def pick_winner(page: Page, side: str, scope: str = "#deal-entry") -> None:
    """Tap the deal form's button of the side that won (it shows the side's name)."""
    page.locator(f"{scope} label", has=page.locator(f"input[name=winner][value={side}]")).click()


def give_long_names(party) -> None:  # noqa: ANN001  (a Party; no model import in helpers)
    """Rename the party's players to long real names (as the referee meets them)."""
    for seat, player in party.seat_players().items():
        player.name = LONG_NAMES[seat]
        player.save(update_fields=["name"])


SYNC = "#desk-sync"
"""The desk's sync bar."""


def phone_ru(new_page: Any, base_url: str, username: str) -> Page:
    """The referee's phone (360 × 740) in Russian, logged in."""
    page = new_page(phone=True)
    page.context.set_extra_http_headers({"Accept-Language": "ru"})
    log_in(page, base_url, username)
    page.context.add_cookies([{"name": "django_language", "value": "ru", "url": base_url}])
    return page


def open_screen(page: Page, base_url: str, party_id: int, lang: str | None = None) -> None:
    """Open the party screen and wait until the device keeps it for offline use (in ``lang``
    when given)."""
    page.goto(f"{base_url}/referee/party/{party_id}/")
    if lang:
        expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("html[data-offline-ready]")).to_have_count(1)
    expect(page.locator(SYNC)).to_have_attribute("data-state", "saved")


def quick_deal(page: Page, side: str, points: str) -> None:
    """Quick entry: who won, the points, record."""
    pick_winner(page, side)
    page.fill("#deal-points", points)
    page.click("#btn-deal")
