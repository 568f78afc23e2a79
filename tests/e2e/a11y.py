"""Accessibility checks shared by the browser tests: axe-core's violations and tap-target sizes.

axe-core is vendored (``tests/e2e/vendor/axe-core/``, from ``npm pack``) and injected into the
page under test; nothing is fetched from a CDN.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.helpers import PHONE, watch_errors

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
"""The impacts that fail a page (issue #12: no serious or critical violation)."""
TAP = 44
"""The least width and height of a tap target, in CSS pixels."""
WIDE = {"width": 1366, "height": 900}
"""The desktop screen the pages are checked on besides the phone."""
LOCALES = {"en": "en-US", "ru": "ru-RU"}
"""The browser locale (its Accept-Language) that makes the site speak each language."""

AXE_RUN = """async () => {
  const results = await axe.run(document, {resultTypes: ['violations']});
  return results.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({impact: n.impact, target: n.target.join(' '),
                              html: n.html.slice(0, 160), summary: n.failureSummary})),
  }));
}"""

TAP_TARGETS = """(min) => {
  // Every visible control a finger taps: buttons, links, disclosure summaries, selects, and
  // the label of a radio button or checkbox (the label is what is tapped; the input itself
  // when it has none).
  const targets = new Set();
  document.querySelectorAll(
    'button, a[href], summary, select, input[type=submit], input[type=button]'
  ).forEach(el => targets.add(el));
  document.querySelectorAll('input[type=radio], input[type=checkbox]').forEach(input => {
    const label = input.closest('label') || (input.labels && input.labels[0]);
    targets.add(label || input);
  });
  // WCAG 2.5.8 exempts a target inside a sentence, whose size the line height of the text
  // around it fixes. Narrowly: a link drawn inline whose parent element also holds text of
  // its own right beside it (a text node that is not blank), i.e. a link in running text.
  const inRunningText = el => {
    if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
    return [...el.parentElement.childNodes].some(
      node => node.nodeType === Node.TEXT_NODE && node.textContent.trim().length > 0);
  };
  const small = [];
  for (const el of targets) {
    const box = el.getBoundingClientRect();
    // Not drawn (display none, visibility hidden, the content of a closed <details>): no target.
    if (box.width === 0 || box.height === 0 || !el.checkVisibility({visibilityProperty: true})) {
      continue;
    }
    if (inRunningText(el)) continue;
    if (box.width < min || box.height < min) {
      const input = el.tagName === 'LABEL' && el.querySelector('input');
      const text = (el.innerText || el.value || el.getAttribute('aria-label') || el.title ||
                    (input ? `${input.name}=${input.value}` : '')).trim();
      const cls = el.classList.length ? '.' + [...el.classList].join('.') : '';
      small.push({
        key: `<${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${cls}> ` +
             `${Math.round(box.width)}x${Math.round(box.height)}`,
        text: text.replace(/\\s+/g, ' ').slice(0, 40),
      });
    }
  }
  return small;
}"""


def phone_context(browser: Browser, lang: str, *, axe: bool = False) -> BrowserContext:
    """A 360 × 740 touch phone whose browser asks for ``lang`` (en or ru).

    With ``axe`` the context bypasses the site's Content-Security-Policy (``script-src
    'self'``), which would refuse the inline script ``add_script_tag`` injects axe-core with;
    the site's own scripts load from 'self' all the same. Without it the policy holds.
    """
    context = browser.new_context(
        locale=LOCALES[lang], viewport=PHONE, is_mobile=True, has_touch=True,
        device_scale_factor=2, bypass_csp=axe,
    )
    context.set_default_timeout(10_000)
    return context


def desktop_context(browser: Browser, lang: str, *, axe: bool = False) -> BrowserContext:
    """A 1366 × 900 desktop screen whose browser asks for ``lang`` (en or ru); ``axe`` as in
    :func:`phone_context`."""
    context = browser.new_context(locale=LOCALES[lang], viewport=WIDE, bypass_csp=axe)
    context.set_default_timeout(10_000)
    return context


def open_page(context: BrowserContext) -> Page:
    """A new page of the context; ``page.errors`` collects script errors and failed requests."""
    page = context.new_page()
    page.errors = watch_errors(page)
    return page


def log_in(page: Page, base_url: str, username: str, password: str) -> None:
    """Log in through the login form, in whatever language the page speaks."""
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("main form button[type=submit]").click()
    expect(page.locator("header .who")).to_be_visible()


def in_language(page: Page, lang: str) -> None:
    """Fail unless the page was served in ``lang`` (the ``lang`` of its ``<html>``)."""
    expect(page.locator("html")).to_have_attribute("lang", lang)


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Run the vendored axe-core on the page (injected once); its violations, every impact."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(AXE_RUN)


def unfold(page: Page) -> None:
    """Open every ``<details>`` of the page (rulings, the tile picker ...), as a user would."""
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    page.wait_for_load_state("networkidle")


def serious_here(page: Page) -> list[dict[str, Any]]:
    """The serious and critical violations of the page as it is now (axe-core brought in by the
    test's own evaluation, for a page whose context was made without it)."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    return blocking(axe_violations(page))


def blocking(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The violations of serious or critical impact."""
    return [v for v in violations if v["impact"] in BLOCKING]


def describe(violations: list[dict[str, Any]]) -> str:
    """Violations as lines: impact, rule id, help, then each offending element's target."""
    lines = []
    for violation in violations:
        lines.append(f"[{violation['impact']}] {violation['id']}: {violation['help']}")
        for node in violation["nodes"]:
            lines.append(f"    {node['target']}  {node['html']}")
    return "\n".join(lines)


def small_tap_targets(page: Page) -> list[str]:
    """The visible tap targets under 44 × 44 px (inline links in running text exempt).

    Alike targets (the same tag, id, classes and size) are one line: their count and the texts
    of the first few.
    """
    groups: dict[str, list[str]] = {}
    for target in page.evaluate(TAP_TARGETS, TAP):
        groups.setdefault(target["key"], []).append(f'"{target["text"]}"')
    return [
        f"{key} ×{len(texts)}: {', '.join(texts[:3])}{' …' if len(texts) > 3 else ''}"
        for key, texts in groups.items()
    ]
