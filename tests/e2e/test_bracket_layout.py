"""The bracket partial in a browser (#35), from a static page (no server): at 360 px the rounds
scroll sideways inside their own box and the page does not; on a 1920 px hall screen every
round of 16 slots is on the screen; each match sits halfway between the two that feed it.
No serious or critical axe-core violation. Screenshots: tests/e2e/screenshots/bracket-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template.loader import render_to_string

from scoring.standings.bracket import sample_sheet
from tests.e2e.a11y import describe, serious_here
from tests.protocols.test_bracket_pdf import long_names

STATIC = Path(__file__).resolve().parents[2] / "static"

#: Every match's centre, per round: the card of each match and the lines meet there.
CENTRES = """() => [...document.querySelectorAll('.bracket-matches')].map(
  round => [...round.children].map(match => {
    const box = match.getBoundingClientRect(); return box.top + box.height / 2; }))"""


def bracket_page(tmp_path: Path, slots: int, *, hall: bool, decided: int) -> str:
    """A minimal page around the partial, the stylesheets read from the repository."""
    sheet = sample_sheet(slots, long_names(slots - 3), decided_rounds=decided,
                         title="Кубок города — финалы", subtitle="Плей-офф")
    body = render_to_string("tournaments/_bracket.html", {"sheet": sheet})
    html = (f'<!doctype html><html lang="ru"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>Bracket</title>'
            f'<link rel="stylesheet" href="/static/css/app.css"></head>'
            f'<body{" class=hall" if hall else ""}><main>{body}</main></body></html>')
    path = tmp_path / f"bracket-{slots}.html"
    path.write_text(html.replace('href="/static/', f'href="{STATIC.as_uri()}/'),
                    encoding="utf-8")
    return path.as_uri()


def assert_matches_sit_between_their_feeders(page) -> None:
    centres = page.evaluate(CENTRES)
    for earlier, later in zip(centres, centres[1:], strict=False):
        assert len(later) * 2 == len(earlier)
        for index, centre in enumerate(later):
            middle = (earlier[2 * index] + earlier[2 * index + 1]) / 2
            assert abs(centre - middle) <= 1.5, (index, centre, middle)


@pytest.mark.parametrize("slots", [16, 64])
def test_on_a_phone_the_bracket_scrolls_in_its_own_box(new_page, screenshot, tmp_path, slots):
    page = new_page(phone=True)
    page.goto(bracket_page(tmp_path, slots, hall=False, decided=2))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    box = page.locator(".bracket-scroll")
    assert box.evaluate("el => el.scrollWidth > el.clientWidth")
    assert_matches_sit_between_their_feeders(page)
    # Every name is there whole, wrapped inside its box rather than cut.
    name = page.locator(".bracket-name", has_text=long_names(1)[0]).first
    assert name.evaluate("el => el.scrollWidth <= el.clientWidth")
    screenshot(page, f"bracket-{slots}-360")
    assert page.errors == []
    found = serious_here(page)
    assert not found, describe(found)


def test_on_the_hall_screen_every_round_is_in_view(new_page, screenshot, tmp_path):
    page = new_page()
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(bracket_page(tmp_path, 16, hall=True, decided=3))
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    box = page.locator(".bracket-scroll")
    assert box.evaluate("el => el.scrollWidth <= el.clientWidth")
    assert_matches_sit_between_their_feeders(page)
    third = page.locator(".bracket-third").bounding_box()
    final = page.locator(".bracket-round").last.locator(".bracket-match").bounding_box()
    assert third is not None and final is not None
    assert third["y"] >= final["y"] + final["height"] / 2  # under the final, not over it
    screenshot(page, "bracket-16-1920-hall")
    assert page.errors == []
    found = serious_here(page)
    assert not found, describe(found)
