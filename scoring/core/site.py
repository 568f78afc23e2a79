"""The site's public address, which protocols' QR codes and players' personal links hold.

``SITE_URL`` when it is set; otherwise the address the current request reached (kept for the
request by ``SiteAddressMiddleware``); work without a request (a Celery task, a management
command) runs ``serving(address)`` with the address stored with it, else gets ``FALLBACK``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse

#: The address when neither ``SITE_URL`` nor a request says one (``make run``'s default).
FALLBACK = "http://127.0.0.1:8000"

_current: ContextVar[str] = ContextVar("site_address", default="")


def site_url() -> str:
    """The site's absolute address without a trailing slash, e.g. ``http://127.0.0.1:8000``."""
    return settings.SITE_URL or _current.get() or FALLBACK


@contextmanager
def serving(address: str) -> Iterator[None]:
    """Within the block, ``site_url()`` is ``address`` (unless ``SITE_URL`` is set)."""
    token = _current.set(address.rstrip("/"))
    try:
        yield
    finally:
        _current.reset(token)


def request_address(request: HttpRequest) -> str:
    """The scheme and host a request reached, e.g. ``http://127.0.0.1:8123``."""
    return request.build_absolute_uri("/").rstrip("/")


class SiteAddressMiddleware:
    """Keep the request's own address as the site's address while it is answered."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Answer the request with ``site_url()`` its address (when ``SITE_URL`` is unset)."""
        with serving(request_address(request)):
            return self.get_response(request)
