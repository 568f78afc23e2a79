"""What every page of the site shares: answering htmx with a fragment, and saying so."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers


def vary_on_htmx(response: HttpResponse) -> HttpResponse:
    """Mark an answer that differs for htmx requests (``Vary: HX-Request``) and return it."""
    patch_vary_headers(response, ("HX-Request",))
    return response


def page_or_fragment(
    request: HttpRequest, page: str, fragment: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """The whole page, or only its fragment when htmx asks (django-htmx's ``request.htmx``)."""
    template = fragment if request.htmx else page
    return vary_on_htmx(render(request, template, context, status=status))
