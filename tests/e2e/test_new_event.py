"""A whole new event run by an organizer alone, through the pages, in a real Chromium.

He creates the tournament and its tables, imports a roster that makes the players' accounts,
makes two referees' accounts and hands them their invitations (they set their passwords
through the link), generates and prints the signing PINs, draws round 1, prints its blank
protocols from the round page; the referee plays table 1 and its players sign with the PINs
from their slips, the chief plays table 2 and nobody signs it; the organizer closes the round
through the unsigned-protocols warning. No page under ``/admin/`` is ever requested. Then the
new pages are looked at in Russian on a 360 px phone and a desktop (screenshots).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from scoring.models import Party, Round
from tests.e2e.helpers import PHONE, log_in, page_width
from tests.e2e.test_tournament_flow import (
    SLUG,
    create_tournament,
    field,
    flash,
    message,
    record_quick,
    submit,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ROSTER = """name,partner,rating
Иван Петров,Сергей Смирнов,1500
Сергей Смирнов,,1400
Ольга Морозова,Мария Волкова,1450
Мария Волкова,,1300
José García,Anna Müller,1200
Anna Müller,,1250
Ёлкин Щукин,Эдуард Юдин,1100
Эдуард Юдин,,1000
"""
PASSWORD = "domino-desk-2026"


def watch_urls(page: Page, seen: list[str]) -> None:
    """Note every URL the page requests (to prove that no admin page was needed)."""
    page.on("request", lambda request: seen.append(request.url))


def pdf_text(page: Page, button_name: str, tmp_path: Path, name: str,
             scope: Locator | None = None) -> str:
    """Press a button (of ``scope``) that answers a PDF; return its text in drawing order."""
    with page.expect_download() as download:
        (scope or page).get_by_role("button", name=button_name, exact=True).click()
    path = tmp_path / f"{name}.pdf"
    Path(download.value.path()).replace(path)
    assert path.read_bytes().startswith(b"%PDF")
    return subprocess.run(["pdftotext", "-raw", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout


def pins_from(text: str, names: list[str]) -> dict[str, str]:
    """Each player's PIN as his slip prints it: the six digits after his name."""
    found = {}
    for name in names:
        after = text.split(name, 1)[1]
        found[name] = re.search(r"\b(\d{6})\b", after).group(1)
    return found


def play_to_the_end(page: Page) -> None:
    """Start the party's clock and record deals until pair A reaches 200."""
    panel = page.locator("#panel")
    page.get_by_role("button", name="Start the clock").click()
    expect(flash(page)).to_have_text("Party started")
    record_quick(panel, "Domino", "A", 60)
    expect(flash(page)).to_contain_text("Deal 1")
    record_quick(panel, "Domino", "A", 80)
    expect(flash(page)).to_contain_text("Deal 2")
    record_quick(panel, "Fish", "A", 90)
    expect(panel.locator(".ref-phase")).to_have_text("Finished")


def accept_invitation(page: Page, link: str, username: str, full_name: str) -> None:
    """The invited person opens his link and chooses his password."""
    page.goto(link)
    expect(page.locator("main")).to_contain_text(f"Your login is {username}")
    field(page, "New password").fill(PASSWORD)
    field(page, "New password confirmation").fill(PASSWORD)
    submit(page, "Set my password")
    expect(message(page)).to_contain_text("Your password is set.")
    expect(page.locator("header .who")).to_have_text(full_name)


def test_an_organizer_runs_a_new_event_alone(new_page, live_server, organizer, protocol_files,
                                              tmp_path, screenshot):
    base = live_server.url
    seen: list[str] = []
    org = new_page()
    watch_urls(org, seen)
    log_in(org, base, organizer.username)
    create_tournament(org, base)
    org.goto(f"{base}/t/{SLUG}/tables/new/")
    expect(field(org, "First number")).to_have_value("1")
    field(org, "How many tables").fill("2")
    submit(org, "Save")
    expect(message(org)).to_have_text("Tables 1–2 added.")

    # The roster import makes the players and their accounts.
    org.goto(f"{base}/t/{SLUG}/")
    org.get_by_role("link", name="Import players and pairs").click()
    org.get_by_label("File (CSV or XLSX)").set_input_files(files=[{
        "name": "roster.csv", "mimeType": "text/csv", "buffer": ROSTER.encode()}])
    submit(org, "Check the file")
    expect(org.locator("#report")).to_contain_text("All 8 rows are right.")
    org.get_by_label(re.compile("Make player accounts")).check()
    submit(org, "Import")
    expect(message(org)).to_contain_text("8 player accounts were made")
    expect(org.get_by_role("heading", level=1)).to_contain_text("Players' accounts and PINs")
    expect(org.locator("#accounts")).to_contain_text("8 of 8 players have a login")
    invitations = pdf_text(org, "Print the invitations (8 players)", tmp_path, "players")
    assert invitations.count("Ваш логин") == 8  # the tournament's language
    assert "ivan.petrov" in invitations and "Ёлкин Щукин" in invitations

    # Two referees: accounts made here, invitations handed over, passwords set by them.
    org.goto(f"{base}/t/{SLUG}/")
    org.get_by_role("link", name="Referees", exact=True).click()
    links = {}
    for full_name, role, said in (("Анна Судья", "Referee", "is a referee now."),
                                  ("Борис Главный", "Chief referee", "is the chief referee now.")):
        section = org.locator("#new-referee")
        section.get_by_label("Full name").fill(full_name)
        section.get_by_text(role, exact=True).click()
        submit(org, "Make the account")
        expect(message(org)).to_contain_text(f"{full_name} {said}")
        row = org.locator(".people-list li", has_text=full_name)
        expect(row).to_contain_text("invited, has not set a password yet")
        links[full_name] = row.locator("input.copy-link").input_value()
    assert "chief referee now" in message(org).inner_text()
    slip = pdf_text(org, "Print the invitation", tmp_path, "referee",
                    scope=org.locator(".people-list li", has_text="Анна Судья"))
    assert "Анна Судья" in slip and "anna.sudya" in slip
    ref = new_page(phone=True)
    chief = new_page(phone=True)
    for page in (ref, chief):
        watch_urls(page, seen)
    accept_invitation(ref, links["Анна Судья"], "anna.sudya", "Анна Судья")
    accept_invitation(chief, links["Борис Главный"], "boris.glavnyy", "Борис Главный")
    ref.goto(links["Анна Судья"])  # once only
    expect(ref.locator("#invitation-invalid")).to_be_visible()
    org.reload()
    expect(org.locator(".people-list li", has_text="Анна Судья")).to_contain_text(
        "last logged in")

    # Signing PINs for everyone, printed as slips (shown nowhere else).
    org.goto(f"{base}/t/{SLUG}/people/")
    names = [line.split(",")[0] for line in ROSTER.splitlines()[1:]]
    text = pdf_text(org, "Generate PINs for players without one and print the slips",
                    tmp_path, "pins")
    pins = pins_from(text, names)
    assert len(set(pins.values())) == 8, pins
    org.goto(f"{base}/t/{SLUG}/people/")
    expect(org.locator("#pins")).to_contain_text("8 of 8 players have a signing PIN")
    assert not any(pin in org.content() for pin in pins.values())

    # Round 1: draw, publish, blank protocols printed from the round page.
    org.goto(f"{base}/t/{SLUG}/rounds/")
    submit(org, "Create next round")
    submit(org, "Generate the draw")
    expect(message(org)).to_contain_text("The draw was generated.")
    expect(org.locator("#danger-zone")).to_contain_text("Delete this round")
    submit(org, "Publish the draw")
    expect(message(org)).to_contain_text("The draw is published.")
    submit(org, "Blank protocols, one per table")
    job = org.locator("#print #print-job")
    expect(job).to_contain_text("2 / 2")
    with org.expect_download() as download:
        job.get_by_role("link", name="Download the PDF").click()
    assert Path(download.value.path()).read_bytes().startswith(b"%PDF")
    screenshot(org, "new_event_round_printed")

    # The referee plays table 1; its four players sign with the PINs of their slips.
    rnd = Round.objects.get(tournament__slug=SLUG, number=1)
    first = Party.objects.select_related("pair_a__player1", "pair_a__player2", "pair_b__player1",
                                         "pair_b__player2").get(round=rnd, table__number=1)
    second = Party.objects.get(round=rnd, table__number=2)
    ref.goto(f"{base}/referee/party/{first.pk}/")
    expect(ref.locator("#no-pin")).to_have_count(0)  # every player has a PIN
    play_to_the_end(ref)
    ref.goto(f"{base}/party/{first.pk}/")
    protocol = ref.locator("#protocol")
    for player in (first.pair_a.player1, first.pair_a.player2, first.pair_b.player1,
                   first.pair_b.player2):
        row = protocol.locator("table.signatures tbody tr", has_text=player.name)
        row.get_by_label(f"PIN of {player.name}").fill(pins[player.name])
        row.get_by_role("button", name="Sign with PIN").click()
        expect(row.locator("td").nth(2)).to_have_text(re.compile(r"^Signed \d\d:\d\d$"))
    protocol.get_by_role("button", name="Countersign and lock").click()
    dialog = ref.locator("#confirm-dialog")  # the lock is asked first, naming it
    expect(dialog).to_contain_text("its deals can no longer be corrected")
    dialog.get_by_role("button", name="Yes, do it").click()
    expect(protocol.locator(".protocol-status")).to_have_text("Signed")

    # The chief plays table 2; its protocol stays unsigned.
    chief.goto(f"{base}/referee/party/{second.pk}/")
    play_to_the_end(chief)

    # Closing the round warns about the unsigned protocol and names its table.
    org.goto(f"{base}/t/{SLUG}/rounds/1/")
    submit(org, "Close the round")
    warning = org.locator("#close")
    expect(warning).to_contain_text("1 protocol is not signed")
    expect(warning.locator("li")).to_have_count(1)
    expect(warning.locator("li")).to_contain_text("Table 2")
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.IN_PROGRESS
    screenshot(org, "new_event_close_warning")
    submit(org, "Close anyway")
    expect(message(org)).to_contain_text("The round is closed; 1 protocol is not signed yet.")
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.FINISHED
    expect(org.locator("#print")).to_contain_text("All signed protocols")

    admin = [url for url in seen if "/admin/" in url]
    assert seen and admin == [], admin
    for page in (org, ref, chief):
        assert page.errors == [], page.errors


def test_the_new_pages_in_russian_on_a_phone_and_a_desktop(
        new_page, live_server, tournament, organizer, screenshot):
    from referee import accounts
    from scoring.models import Round as RoundModel

    anna = accounts.create_referee_account(tournament, actor=organizer, full_name="Анна Судья",
                                           role="referee")
    accounts.make_player_accounts(tournament, actor=organizer)
    RoundModel.objects.create(tournament=tournament, number=1)
    base = live_server.url
    for phone in (True, False):
        page = new_page(phone=phone)
        log_in(page, base, organizer.username)
        page.context.add_cookies([{"name": "django_language", "value": "ru", "url": base}])
        size = "360" if phone else "desktop"
        for name, path in (("people", f"/t/{tournament.slug}/people/"),
                           ("referees", f"/referee/t/{tournament.slug}/referees/"),
                           ("round", f"/t/{tournament.slug}/rounds/1/"),
                           ("invitation", accounts.invitation_path(anna))):
            page.goto(base + path)
            expect(page.locator("html")).to_have_attribute("lang", "ru")
            screenshot(page, f"ru_{name}_{size}")
            if phone:
                assert page_width(page) <= PHONE["width"], f"{path}: {page_width(page)} px"
        assert page.errors == [], page.errors
