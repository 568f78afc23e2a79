"""A crawler of the demo: every HTML page it reaches carries the one CSP, and none answers 5xx.

The demo (``seed_demo``) is crawled from the home page as anonymous, player, referee and
organizer: every same-site link is followed (GET only, a bounded number of pages per role,
never logout or a download), redirects included.
"""

from __future__ import annotations

import io
import re
from collections import Counter, deque
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.test import Client

from scoring.models import Protocol

MAX_PAGES = 300
"""Pages per role at most."""
PER_SHAPE = 3
"""Addresses of one shape (digits aside: the 16 pairs' pages, the 8 tables') visited at most."""
SKIPPED = ("/logout", "/static/", "/media/", "/admin/logout", "/i18n/")
DOWNLOADS = (".pdf", ".csv", ".xlsx", ".json", ".zip", ".svg", ".png", "/export", "/pdf/",
             "/download", "/schema/")


class _Links(HTMLParser):
    """The ``href`` of every ``<a>`` of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.hrefs.append(href)


def _followed(base: str, href: str) -> str | None:
    """The same-site address a link leads to, or None for one the crawler leaves alone."""
    url, _fragment = urldefrag(urljoin(base, href))
    parts = urlsplit(url)
    if parts.scheme not in ("http", "") or parts.netloc not in ("", "testserver"):
        return None
    path = parts.path or "/"
    lowered = path.lower()
    if any(lowered.startswith(prefix) for prefix in SKIPPED) or any(
        mark in lowered for mark in DOWNLOADS
    ):
        return None
    return path + (f"?{parts.query}" if parts.query else "")


def crawl(client: Client, start: tuple[str, ...]) -> dict[str, tuple[int, str, str | None]]:
    """Visit pages breadth first from ``start``: {address: (status, content type, CSP)}."""
    seen: dict[str, tuple[int, str, str | None]] = {}
    shapes: Counter[str] = Counter()
    queue = deque(start)
    while queue and len(seen) < MAX_PAGES:
        url = queue.popleft()
        shape = re.sub(r"\d+", "N", url)
        if url in seen or shapes[shape] >= PER_SHAPE:
            continue
        shapes[shape] += 1
        response = client.get(url)
        kind = response.get("Content-Type", "")
        seen[url] = (response.status_code, kind, response.get("Content-Security-Policy"))
        if response.status_code in (301, 302, 303, 307, 308):
            target = _followed(url, response["Location"])
            if target:
                queue.append(target)
        elif kind.startswith("text/html") and not getattr(response, "streaming", False):
            parser = _Links()
            parser.feed(response.content.decode("utf-8", "replace"))
            queue.extend(t for href in parser.hrefs if (t := _followed(url, href)) is not None)
    return seen


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo tournaments, loaded once for the module's crawls."""
    with django_db_blocker.unblock():
        call_command("seed_demo", stdout=io.StringIO())
    yield
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)
        ContentType.objects.clear_cache()


@pytest.mark.django_db
@pytest.mark.parametrize("login", ["", "player01", "referee", "organizer"])
def test_every_html_page_of_the_demo_carries_the_csp_and_none_fails(demo, login):
    client = Client()
    if login:
        client.force_login(get_user_model().objects.get(username=login))
    # the home page, the login, a page not found, and what a protocol's QR code opens
    verified = [protocol.get_absolute_url() for protocol in Protocol.objects.order_by("pk")[:3]]
    assert verified  # the demo signs protocols
    pages = crawl(client, ("/", "/home/", "/accounts/login/", "/t/no-such-tournament/",
                           "/verify/", *verified))
    html = {url: page for url, page in pages.items() if page[1].startswith("text/html")}
    print(f"\n{login or 'anonymous'}: {len(pages)} pages reached, {len(html)} HTML")
    assert len(html) >= 20  # the crawl really went through the demo
    # the finals' pages: the bracket being played, the groups' standings
    for page in ("/t/finals-cup/bracket/", "/t/groups-cup/groups/"):
        assert pages.get(page, (0,))[0] == 200, page
    failed = {url: page[0] for url, page in pages.items() if page[0] >= 500}
    assert not failed
    missing = {url: page[:2] for url, page in html.items()
               if page[2] != settings.CONTENT_SECURITY_POLICY}
    assert not missing
