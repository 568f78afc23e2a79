"""Every game names its sides as it plays: players in Kozel and UDL singles, never "Pair A".

The demo's Kozel evening and UDL open (``seed_demo``): party page, referee screen, standings
and results export in the browser at 360 px, the protocol PDF read back with ``pdftotext``.
"""

from __future__ import annotations

import subprocess

import pytest
from playwright.sync_api import Page

from scoring.models import Party, Tournament
from tournaments.management.commands.seed_demo import DEMO_PASSWORD, KOZEL_SLUG, UDL_SLUG

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _party(slug: str) -> Party:
    """A finished party of the demo tournament, with its players."""
    return Party.objects.filter(
        round__tournament__slug=slug, status=Party.Status.FINISHED, pair_b__isnull=False
    ).order_by("round__number", "table__number").first()


def _names(party: Party) -> list[str]:
    """The names of the party's players."""
    return [player.name for _seat, player in party.seat_players().items()]


@pytest.mark.parametrize("slug", [KOZEL_SLUG, UDL_SLUG])
def test_sides_are_named_as_the_game_does(demo, new_page, live_server, screenshot, slug) -> None:
    """Party page, referee screen, standings, export and protocol name the players."""
    party = _party(slug)
    names = _names(party)
    page: Page = new_page(phone=True)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("organizer")
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.locator("form button[type=submit], form input[type=submit]").last.click()
    page.wait_for_selector("header .who")

    page.goto(f"{live_server.url}/party/{party.pk}/")
    text = page.inner_text("main")
    assert "Pair A" not in text and "Pair B" not in text
    for name in names:
        assert name in text
    screenshot(page, f"game-sides-{slug}-party")

    page.goto(f"{live_server.url}/referee/party/{party.pk}/")
    text = page.inner_text("body")
    for name in names:
        assert name in text
    screenshot(page, f"game-sides-{slug}-referee")

    page.goto(f"{live_server.url}/t/{slug}/standings/")
    text = page.inner_text("main")
    assert any(name in text for name in names)
    screenshot(page, f"game-sides-{slug}-standings")

    tournament = Tournament.objects.get(slug=slug)
    kind = tournament.engine.kind_label(
        tournament.format == Tournament.Format.INDIVIDUAL, tournament.regulations.rules_config())
    assert kind != "Pairs tournament"

    response = page.request.get(f"{live_server.url}/t/{slug}/export/results.csv")
    assert response.ok
    header = response.text().splitlines()[0]
    assert "Pair A" not in header

    response = page.request.get(f"{live_server.url}/party/{party.pk}/protocol.pdf")
    assert response.ok, response.status
    pdf = subprocess.run(["pdftotext", "-", "-"], input=response.body(), capture_output=True,
                         check=True).stdout.decode()
    for name in names:
        assert name in pdf
