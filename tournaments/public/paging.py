"""Long public tables in pages: the page asked for, its links, a search by name, and the
rendered table kept in Django's cache under the page's ETag.

A field of 20,000 pairs (or a federation's rating list) is not sent whole to every visitor:
the standings and rating-list pages show :func:`page_size` rows at a time, with links that work
without JavaScript (``?page=``), a search by name (``?q=``, on the server) and a "my place"
link for a logged-in player. A table of at most one page looks as it always did. The rendered
table is cached under the ETag of the page (which changes with every result, the visitor,
the language and the address): a cold page renders one page of rows, a warm one none.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils import translation

CACHE_SECONDS = 600
"""How long a rendered table stays cached (a new result gives a new ETag, so a new key)."""
MAX_QUERY = 100
"""The longest search kept (longer ones are cut)."""


def page_size() -> int:
    """Rows on a page (``PUBLIC_TABLE_PAGE_SIZE``, 150); a table of at most this many rows
    is not paginated."""
    return max(1, int(settings.PUBLIC_TABLE_PAGE_SIZE))


def asked_query(request: HttpRequest) -> str:
    """The name searched for (``?q=``), trimmed; "" for none."""
    return request.GET.get("q", "").strip()[:MAX_QUERY]


def asked_page(request: HttpRequest) -> int:
    """The page number asked for (``?page=``): 1 for none or a bad one."""
    try:
        return max(1, int(request.GET.get("page", "1")))
    except ValueError:
        return 1


def page_of(position: int) -> int:
    """The page holding the row at ``position`` (0 for the first row)."""
    return position // page_size() + 1


def page_url(request: HttpRequest, number: int, *, query: bool = True, anchor: str = "") -> str:
    """The address of page ``number`` with the request's other parameters (its search too,
    unless ``query`` is False); ``anchor`` appended (``#...``)."""
    params = request.GET.copy()
    params.pop("page", None)
    if not query:
        params.pop("q", None)
    if number > 1:
        params["page"] = str(number)
    encoded = params.urlencode()
    return f"{request.path}{'?' + encoded if encoded else ''}{anchor}"


@dataclass(frozen=True)
class Paging:
    """Where a page is in a table: its number, the number of pages, the rows (those found by
    the search, when there is one), the page links (None for a gap) and the rows a page."""

    number: int
    count: int
    total: int
    query: str
    links: list[dict[str, Any] | None]
    size: int

    @property
    def start(self) -> int:
        """The index of the page's first row."""
        return (self.number - 1) * self.size

    @property
    def end(self) -> int:
        """The index after the page's last row."""
        return min(self.start + self.size, self.total)

    @property
    def paginated(self) -> bool:
        """Whether there is more than one page."""
        return self.count > 1


def paging(request: HttpRequest, total: int, query: str = "") -> Paging:
    """The page asked for (the last when beyond it) of ``total`` rows, with its links:
    the first, the last, and two on either side of the current one."""
    size = page_size()
    count = max(1, -(-total // size))
    number = min(asked_page(request), count)
    shown = sorted({1, count, *range(max(1, number - 2), min(count, number + 2) + 1)})
    links: list[dict[str, Any] | None] = []
    for n in shown:
        if links and links[-1] is not None and n > links[-1]["number"] + 1:
            links.append(None)
        links.append({"number": n, "url": page_url(request, n), "current": n == number})
    return Paging(number, count, total, query, links, size)


def cached_render(request: HttpRequest, scope: str, etag: str,
                  render: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """What ``render`` makes for this request (a rendered table and what the page shell needs
    of it), kept in the cache under the page's ``etag``, the language and the address's
    parameters; rendered every time when the request has no ETag, or when ``render`` says
    its table is short (``"long": False``: a page of one screen is cheap to render)."""
    if not etag:
        return render()
    parts = (scope, etag, translation.get_language(), sorted(request.GET.lists()))
    key = "public-html:" + hashlib.sha256(repr(parts).encode()).hexdigest()
    found = cache.get(key)
    if found is None:
        found = render()
        if found.get("long", True):
            cache.set(key, found, CACHE_SECONDS)
    return found
