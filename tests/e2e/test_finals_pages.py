"""The finals in a browser (#35): the organizer starts them from the rounds page (the proposed
qualifiers listed and ticked), the public bracket page then shows each match's result as it is
decided (matches decided through the services; the page refreshes itself), at 360 px and on a
1920 px screen, the final placings beneath once the final is played. Screenshots:
tests/e2e/screenshots/finals-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee.services.clock import forfeit_party
from scoring.models import Match, Party, Round
from scoring.stages.common import first_stage
from tests.e2e.a11y import describe, serious_here
from tests.e2e.helpers import log_in, page_width
from tests.factories import PairFactory, PlayerFactory, TableFactory, TournamentFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Вячеслав Преображенский", "Александра Константинопольская", "Святослав Мухоморов",
         "Анастасия Воскресенская", "Владимир Рождественский", "Екатерина Ли",
         "Константин Верхнеднепровский", "Евгения Голенищева-Кутузова"]


def eight_pairs(organizer, name: str, slug: str):
    """A tournament of eight pairs with long Cyrillic names (rated best first), four tables."""
    t = TournamentFactory(name=name, slug=slug, organizer=organizer)
    for k, pair_name in enumerate(NAMES):
        PairFactory(tournament=t, rating=2000 - k, name=pair_name,
                    player1=PlayerFactory(tournament=t), player2=PlayerFactory(tournament=t))
    TableFactory.create_batch(4, tournament=t)
    return t


def _qualified(organizer):
    """Eight pairs (rated best first) whose qualifying round is closed."""
    t = eight_pairs(organizer, "Кубок города", "cup-finals")
    Round.objects.create(tournament=t, number=1, stage=first_stage(t),
                         status=Round.Status.FINISHED)
    return t


def _decide(bracket_round: int, third_place: bool = False) -> list[Match]:
    """Decide the round's matches by forfeits (side B absent in the first, A in the others)."""
    matches = list(Match.objects.filter(bracket_round=bracket_round, third_place=third_place)
                   .order_by("position"))
    for match in matches:
        for party in Party.objects.filter(match=match).exclude(status=Party.Status.FINISHED):
            forfeit_party(party.pk, absent_side="b" if match.position == 0 else "a")
    return [Match.objects.select_related("winner").get(pk=m.pk) for m in matches]


@pytest.mark.parametrize("size", ["360", "1920"])
def test_the_organizer_starts_the_finals_and_the_bracket_follows_the_matches(
        new_page, live_server, organizer, screenshot, settings, size):
    settings.PUBLIC_ETAG_VERSION_SECONDS = 0
    t = _qualified(organizer)
    page = new_page(phone=size == "360")
    if size == "1920":
        page.set_viewport_size({"width": 1920, "height": 1080})
    log_in(page, live_server.url, organizer.username)
    page.goto(f"{live_server.url}/t/{t.slug}/rounds/")
    form = page.locator("#start-finals")
    expect(form.get_by_role("heading", name="Start the finals")).to_be_visible()
    expect(form.locator("input[name=qualifiers]:checked")).to_have_count(8)
    screenshot(page, f"finals-start-{size}")
    assert page_width(page) <= (360 if size == "360" else 1920)
    form.get_by_role("button", name="Start the finals").click()

    expect(page).to_have_url(f"{live_server.url}/t/{t.slug}/bracket/")
    bracket = page.locator("#bracket")
    expect(bracket.get_by_role("heading", name="Quarter-finals")).to_be_visible()
    expect(bracket.locator(".bracket-slot.won")).to_have_count(0)
    assert page_width(page) <= (360 if size == "360" else 1920)
    screenshot(page, f"finals-drawn-{size}")

    # the quarter-finals decided: the page refreshes itself and shows every winner
    quarters = _decide(1)
    expect(bracket.locator(".bracket-round").first.locator(".bracket-slot.won")).to_have_count(
        4, timeout=20_000)
    for match in quarters:
        expect(bracket.locator(".bracket-round").first.locator(
            ".bracket-slot.won .bracket-name")).to_contain_text([match.winner.display_name
                                                                 for match in quarters])
    screenshot(page, f"finals-quarters-{size}")

    semis = _decide(2)
    _decide(3, third_place=True)
    final = _decide(3)
    page.reload()
    expect(bracket.locator(".bracket-card.is-decided")).to_have_count(4 + 2 + 1 + 1)
    placings = bracket.locator(".bracket-placings li")
    expect(placings).to_have_count(8)
    expect(placings.first).to_contain_text(final[0].winner.display_name)
    assert semis[0].winner_id in (final[0].pair_a_id, final[0].pair_b_id)
    assert page_width(page) <= (360 if size == "360" else 1920)
    screenshot(page, f"finals-placings-{size}")
    found = serious_here(page)
    assert not found, describe(found)
    if size == "1920":  # the hall screen shows the bracket among its panels
        page.goto(f"{live_server.url}/t/{t.slug}/hall/?panel=bracket-1")
        expect(page.locator(".hall-bracket .bracket-card.is-decided")).to_have_count(8)
        assert page_width(page) <= 1920
        screenshot(page, "finals-hall-1920")
    assert page.errors == []
