"""Issue #12 item 6 and issue #32: axe-core finds no serious or critical violation, tap
targets are 44 px.

On the demo (``seed_demo``) at 360 × 740 (a phone) and 1366 × 900 (a desktop), in English and
in Russian, the pages the browser tests visit: the referee screen of a party in play and of a
finished one, the finished party's page with its protocol's signatures, "My tables", the
referee overview, the public party page, the standings and their clubs' tab, the hall screen,
the roster import with a checked file (its tables scroll), and /verify/ with a changed file's
verdict. axe-core
is the vendored copy (``tests/e2e/vendor/axe-core``); the browser asks for the language with
its Accept-Language, and each page is checked to be served in it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from scoring.models import Party, Protocol
from tests.e2e.a11y import (
    axe_violations,
    blocking,
    describe,
    desktop_context,
    in_language,
    log_in,
    open_page,
    phone_context,
    small_tap_targets,
    unfold,
)
from tournaments.management.commands.seed_demo import DEMO_PASSWORD, DEMO_SLUG

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANGUAGES = ("en", "ru")


def _party_in_play() -> Party:
    """The demo cup's first party in progress (the demo referee referees the tournament)."""
    return (
        Party.objects.filter(round__tournament__slug=DEMO_SLUG, status=Party.Status.IN_PROGRESS)
        .select_related("pair_a__player1", "pair_a__player2")
        .order_by("table__number")
        .first()
    )


def _party_finished() -> Party:
    """The demo cup's first finished party (its protocol signed by the demo)."""
    return (
        Party.objects.filter(round__tournament__slug=DEMO_SLUG, status=Party.Status.FINISHED)
        .order_by("round__number", "table__number")
        .first()
    )


def _referee_screen(page: Page, base: str) -> None:
    """The referee screen of a party in play, its deal form present."""
    page.goto(f"{base}/referee/party/{_party_in_play().pk}/")
    expect(page.locator("#btn-deal")).to_be_visible()


def _finished_desk(page: Page, base: str) -> None:
    """The referee screen of a finished party."""
    page.goto(f"{base}/referee/party/{_party_finished().pk}/")
    expect(page.locator("#scoreboard")).to_be_visible()


def _protocol(page: Page, base: str) -> None:
    """A finished party's page as its referee sees it: the protocol and its signatures."""
    page.goto(f"{base}/party/{_party_finished().pk}/")
    expect(page.locator("#protocol")).to_be_visible()


def _my_tables(page: Page, base: str) -> None:
    """My tables of the demo referee, his live parties listed."""
    page.goto(f"{base}/referee/tables/")
    expect(page.locator("[data-party]").first).to_be_visible()


def _overview(page: Page, base: str) -> None:
    """The referee overview of the demo cup's round in play."""
    page.goto(f"{base}/referee/t/{DEMO_SLUG}/")
    expect(page.locator(".ref-ov").first).to_be_visible()


def _party_page(page: Page, base: str) -> None:
    """The public page of a party in play."""
    party = _party_in_play()
    page.goto(f"{base}/party/{party.pk}/")
    expect(page.locator("main")).to_contain_text(party.pair_a.player1.name)


def _standings(page: Page, base: str) -> None:
    """The public standings of the demo cup."""
    page.goto(f"{base}/t/{DEMO_SLUG}/standings/")
    expect(page.locator("main table").first).to_be_visible()


def _club_standings(page: Page, base: str) -> None:
    """The demo cup's club standings (a tab of the standings)."""
    page.goto(f"{base}/t/{DEMO_SLUG}/standings/clubs/")
    expect(page.locator("main table").first).to_be_visible()


def _hall(page: Page, base: str) -> None:
    """The hall screen of the demo cup (the draw of the round in play)."""
    page.goto(f"{base}/t/{DEMO_SLUG}/hall/")
    expect(page.locator("#hall-panel")).to_be_visible()


ROSTER = (
    "name,partner,club,city,rating\n"
    "Иван Петров-Водкин,Сергей Смирнов-Тверской,Клуб «Дубль-шесть»,Санкт-Петербург,1500\n"
    "Сергей Смирнов-Тверской,,Клуб «Дубль-шесть»,Санкт-Петербург,1400\n"
)
"""A roster with long names: the import's table of rows scrolls sideways on a phone."""


def _import(page: Page, base: str) -> None:
    """The organizer's roster import with a file checked: the columns and the rows' report."""
    page.goto(f"{base}/t/{DEMO_SLUG}/import/")
    page.locator("input[type=file]").set_input_files(files=[{
        "name": "roster.csv", "mimeType": "text/csv", "buffer": ROSTER.encode()}])
    page.locator("main form button[name=action][value=preview]").click()
    expect(page.locator("#report")).to_be_visible()


def _verify_changed_file(page: Page, base: str) -> None:
    """/verify/ after a signed protocol's file, one byte changed, was uploaded."""
    protocol = (Protocol.objects.filter(status=Protocol.Status.SIGNED).exclude(file="")
                .order_by("pk").first())
    with protocol.file.open("rb") as handle:
        pdf = handle.read()
    at = pdf.index(b"/Keywords") + 2  # inside the signed part of the file
    tampered = pdf[:at] + bytes([pdf[at] ^ 0x01]) + pdf[at + 1:]
    page.goto(f"{base}/verify/")
    page.locator("input[type=file]").set_input_files(files=[{
        "name": "protocol.pdf", "mimeType": "application/pdf", "buffer": tampered}])
    page.locator("main form button[type=submit]").last.click()
    expect(page.locator("#verdict.bad")).to_be_visible()


PAGES: dict[str, tuple[Callable[[Page, str], None], str]] = {
    "referee-screen": (_referee_screen, "referee"),
    "finished-desk": (_finished_desk, "referee"),
    "protocol": (_protocol, "referee"),
    "my-tables": (_my_tables, "referee"),
    "overview": (_overview, "referee"),
    "party-page": (_party_page, ""),
    "standings": (_standings, ""),
    "club-standings": (_club_standings, ""),
    "hall": (_hall, ""),
    "import": (_import, "organizer"),
    "verify-changed-file": (_verify_changed_file, ""),
}
"""Each page: how to open it, and the demo login it needs ("" for none)."""
WIDTHS = {360: phone_context, 1366: desktop_context}


def _open(browser: Browser, base: str, name: str, lang: str, width: int = 360) -> Page:
    """A phone (or a desktop ``width``) in ``lang`` on the named page, logged in as needed."""
    go, login = PAGES[name]
    page = open_page(WIDTHS[width](browser, lang, axe=True))
    if login:
        log_in(page, base, login, DEMO_PASSWORD)
    go(page, base)
    page.wait_for_load_state("networkidle")
    in_language(page, lang)
    return page


@pytest.fixture
def opened(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Open pages with :func:`_open`; their contexts close after the test."""
    pages: list[Page] = []

    def make(base: str, name: str, lang: str, width: int = 360) -> Page:
        pages.append(_open(browser, base, name, lang, width))
        return pages[-1]

    yield make
    for page in pages:
        page.context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("width", list(WIDTHS))
def test_axe_finds_no_serious_violation(demo, opened, live_server, screenshot, width, lang):
    """Every page of :data:`PAGES` (one seeding of the demo for them all), folded parts open."""
    failures = []
    for name in PAGES:
        page = opened(live_server.url, name, lang, width)
        screenshot(page, f"a11y-{name}-{width}-{lang}")
        found = blocking(axe_violations(page))
        unfold(page)  # what the folded parts (<details>) hold, too
        found += [v for v in blocking(axe_violations(page)) if v not in found]
        if found:
            failures.append(f"{name} ({width} px, {lang}): axe-core finds\n{describe(found)}")
        if page.errors:
            failures.append(f"{name} ({width} px, {lang}): {page.errors}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", ["referee-screen", "my-tables"])
def test_tap_targets_are_44px(demo, opened, live_server, name, lang):
    page = opened(live_server.url, name, lang)
    unfold(page)  # the referee opens the folded parts (rulings, the tile picker): measured open
    small = small_tap_targets(page)
    assert not small, f"{name} ({lang}): tap targets under 44 × 44 px:\n" + "\n".join(small)
