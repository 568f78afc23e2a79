"""Mistake-proof actions in a real Chromium at 360 × 740: ask, naming the consequence; undo.

A second talking warning to a pair becomes a fine: the button says so before the tap, the tap
opens a dialog that names the pair and the points, nothing happens until it is confirmed, and
the fine can be undone for a short time. Screenshots in tests/e2e/screenshots/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Party, Penalty
from tests.e2e.helpers import PHONE, SHOTS, log_in, page_width

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(new_page, live_server, referee_user) -> Page:
    """A 360 × 740 phone logged in as the referee."""
    page = new_page(phone=True)
    log_in(page, live_server.url, referee_user.username)
    return page


def viewport(page: Page, name: str) -> None:
    """What the phone's screen shows now (not the whole page): the dialog, the flash."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_second_talking_warning_asks_names_the_fine_and_can_be_undone(
    phone, live_server, party, screenshot
):
    for pair, name in ((party.pair_a, "Рыбаки"), (party.pair_b, "Кузнецы")):
        pair.name = name
        pair.save()
    phone.goto(f"{live_server.url}/referee/party/{party.pk}/")
    phone.wait_for_load_state("networkidle")
    button = phone.locator("[data-warning=talking-b]")

    button.click()  # the first warning: no question
    expect(phone.locator(".ref-flash.ok")).to_contain_text("Warning")
    expect(button).to_contain_text("→ fine 25")  # the escalation, before the next tap
    button.scroll_into_view_if_needed()
    screenshot(phone, "mistake_proof_360_1_preview")

    button.click()  # the second: a dialog names the pair and the fine
    dialog = phone.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Second warning (Talking): pair Кузнецы is fined 25 points.")
    viewport(phone, "mistake_proof_360_2_dialog")
    assert Penalty.objects.filter(party=party).count() == 1  # nothing yet

    dialog.get_by_role("button", name="Yes, do it").click()
    expect(phone.locator(".ref-flash.ok")).to_contain_text("Fine to Кузнецы")
    expect(phone.locator("[data-total=b]")).to_have_text("-25")
    undo = phone.locator("#btn-undo")
    expect(undo).to_be_visible()
    expect(phone.locator("#undo")).to_contain_text("s left to undo it")
    phone.evaluate("window.scrollTo(0, 0)")  # the message and its undo are at the panel's top
    viewport(phone, "mistake_proof_360_3_undo")

    undo.click()
    expect(phone.locator(".ref-flash.ok")).to_contain_text("Undone by ref")
    expect(phone.locator("[data-total=b]")).to_have_text("0")
    expect(phone.locator("#btn-undo")).to_have_count(0)
    assert list(Penalty.objects.filter(party=party).order_by("id")
                .values_list("kind", "cancelled")) == [("warning", False), ("fine", True)]
    assert page_width(phone) <= PHONE["width"]
    screenshot(phone, "mistake_proof_360_4_undone")
    assert phone.errors == []


def test_without_javascript_the_server_asks_first(browser, live_server, party, referee_user,
                                                  screenshot):
    """No script: the disqualification form's first tap answers the confirmation step."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  device_scale_factor=2, java_script_enabled=False,
                                  locale="en-US")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill(referee_user.username)
        page.get_by_label("Password").fill("pw")
        page.locator("main form").get_by_role("button", name="Log in").click()
        page.goto(f"{live_server.url}/referee/party/{party.pk}/")
        block = page.locator("details", has=page.locator("summary", has_text="Disqualification"))
        block.locator("summary").click()
        block.locator("label", has=page.locator("input[name=side][value=a]")).click()
        block.get_by_label("Reason").fill("Грубость")
        block.get_by_text("From the tournament").click()
        block.get_by_role("button", name="Disqualify").click()
        step = page.locator("#confirm-step")
        expect(step).to_contain_text(
            "Disqualify pair Иван Петров / Сергей Смирнов from the whole tournament")
        assert Party.objects.get(pk=party.pk).status == "in_progress"  # nothing yet
        screenshot(page, "mistake_proof_360_5_no_script_step")
        step.get_by_role("button", name="Yes, do it").click()
        expect(page.locator(".messages")).to_be_visible()  # done: back on the screen
        expect(page.locator("#confirm-step")).to_have_count(0)
        finished = Party.objects.get(pk=party.pk)
        assert finished.end_reason == "disqualification" and finished.pair_a.disqualified
    finally:
        context.close()
