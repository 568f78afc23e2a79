"""CORS for the read API: a web page of another origin may read ``/api/`` (GET, HEAD, and the
browser's OPTIONS preflight), when its origin is listed in ``CORS_ALLOWED_ORIGINS``.

A small middleware of our own (django-cors-headers is not among the project's packages): the
answer names the origin (``Access-Control-Allow-Origin``) and ``Vary: Origin``; the preflight of
a GET or HEAD is answered here, allowing the ``Authorization`` header (a token, such as a
read-only one: ``Authorization: Token …``). Cookies are never allowed across origins (no
``Access-Control-Allow-Credentials``), so a page elsewhere cannot act with a visitor's session,
and writes (POST, PUT, PATCH, DELETE) get no CORS answer at all: a browser refuses to send
them from another origin.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

READ_METHODS = ("GET", "HEAD", "OPTIONS")
ALLOWED_HEADERS = "Accept, Accept-Language, Authorization, Content-Type, If-None-Match, " \
                  "If-Modified-Since, X-Request-ID"
EXPOSED_HEADERS = "Content-Disposition, ETag, Last-Modified, Link, Retry-After, X-Request-ID"
PREFLIGHT_MAX_AGE = "86400"


def allowed_origin(origin: str) -> bool:
    """Whether ``origin`` may read the API: listed in ``CORS_ALLOWED_ORIGINS`` (``*``: any)."""
    allowed = getattr(settings, "CORS_ALLOWED_ORIGINS", [])
    return bool(origin) and ("*" in allowed or origin.rstrip("/") in allowed)


class ReadApiCorsMiddleware:
    """CORS headers on the API's read answers for the allowed origins; preflights answered."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Answer a read preflight; add the headers to a read answer of an allowed origin."""
        if not request.path_info.startswith("/api/") or not getattr(
                settings, "CORS_ALLOWED_ORIGINS", []):
            return self.get_response(request)
        origin = request.headers.get("Origin", "")
        asked = request.headers.get("Access-Control-Request-Method", "").upper()
        if request.method == "OPTIONS" and asked:  # a browser's preflight
            if not (allowed_origin(origin) and asked in READ_METHODS):
                return self.get_response(request)  # no CORS answer: it will not be sent
            response = HttpResponse(status=200)
            response["Access-Control-Allow-Methods"] = ", ".join(READ_METHODS)
            response["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
            response["Access-Control-Max-Age"] = PREFLIGHT_MAX_AGE
        else:
            response = self.get_response(request)
            if request.method not in READ_METHODS:
                return response  # a write: no CORS answer
        patch_vary_headers(response, ("Origin",))
        if allowed_origin(origin):
            response["Access-Control-Allow-Origin"] = origin
            response["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
        return response
