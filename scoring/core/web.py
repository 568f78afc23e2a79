"""What every page of the site shares: answering htmx with a fragment, and saying so."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django_htmx.middleware import HtmxDetails


def vary_on_htmx(response: HttpResponse) -> HttpResponse:
    """Mark an answer that differs for htmx requests (``Vary: HX-Request``) and return it."""
    patch_vary_headers(response, ("HX-Request",))
    return response


def is_htmx(request: HttpRequest) -> bool:
    """Whether htmx sent the request: django-htmx's ``request.htmx``, read from the request's
    ``HX-Request`` header the way it is (the middleware's attribute is not typed)."""
    return bool(HtmxDetails(request))


def page_or_fragment(
    request: HttpRequest, page: str, fragment: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """The whole page, or only its fragment when htmx asks (django-htmx's ``request.htmx``)."""
    template = fragment if is_htmx(request) else page
    return vary_on_htmx(render(request, template, context, status=status))
