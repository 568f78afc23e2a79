"""What the desk's browser tests share: picking a deal's winner by side, long real names."""

from __future__ import annotations

from playwright.sync_api import Page

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
