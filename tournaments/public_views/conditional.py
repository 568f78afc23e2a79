"""Conditional GETs of the public pages: an ETag from the results version, 304 when unchanged.

A hall full of phones polls the standings, the draw and the hall screen; while no result
changes, each poll costs a handful of small queries and an empty 304 answer.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers

from scoring.models import Tournament
from scoring.results import results_version
from tournaments.public_views.common import public_tournament


def _request_key(request: HttpRequest, page: str) -> str:
    """What an answer depends on besides the tournament: visitor, language, fragment, address."""
    parts = (
        page, request.user.pk, getattr(request, "LANGUAGE_CODE", ""),
        "fragment" if request.htmx else "page", request.headers.get("HX-Target", ""),
        request.get_full_path(),
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def public_etag(request: HttpRequest, tournament: Tournament, page: str) -> str:
    """The ETag of a public page: what it shows is a function of these parts.

    The results version, the tournament and its regulations, the rounds and their states, the
    visitor (what he may see), the language, an htmx fragment or the page, the address.
    """
    regulations = tournament.regulations
    rounds = list(tournament.rounds.order_by("number").values_list("number", "status"))
    parts = (
        results_version(tournament), rounds,
        sorted((k, repr(v)) for k, v in vars(tournament).items() if not k.startswith("_")),
        sorted((k, repr(v)) for k, v in vars(regulations).items() if not k.startswith("_")),
        _request_key(request, page),
    )
    return '"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:32] + '"'


def current_etag(request: HttpRequest, slug: str, page: str) -> str:
    """The page's ETag, remembered ``PUBLIC_ETAG_VERSION_SECONDS`` in the shared cache.

    Within that time (1 s by default; 0 = always computed) a poll costs one cache read and no
    query; a changed result is answered 304 at most that long. A hidden page is a 404 (when
    the ETag is computed).
    """
    seconds = settings.PUBLIC_ETAG_VERSION_SECONDS
    key = f"public-etag:{slug}:{_request_key(request, page)}"
    found = cache.get(key) if seconds > 0 else None
    if found is None:
        found = public_etag(request, public_tournament(request, slug, page), page)
        if seconds > 0:
            cache.set(key, found, seconds)
    return found


def conditional_public(page: str, *, live_panels: tuple[str, ...] = ()) -> Callable:
    """Make a public view answer ``If-None-Match`` with 304 while its ETag holds.

    ``live_panels``: values of ``?panel=`` whose answer shows running clocks (changing every
    second without a result): those are always answered in full.
    """

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def answer(request: HttpRequest, slug: str, *args: object, **kwargs: object
                   ) -> HttpResponse:
            panel = request.GET.get("panel", "")
            if request.method not in ("GET", "HEAD") or panel.startswith(live_panels or "\0"):
                return view(request, slug, *args, **kwargs)
            etag = current_etag(request, slug, page)
            response = get_conditional_response(request, etag=etag)
            if response is None:
                response = view(request, slug, *args, **kwargs)
            if response.status_code in (200, 304):
                response["ETag"] = etag
                patch_cache_control(response, no_cache=True, private=True)
                patch_vary_headers(response, ("Accept-Language", "Cookie", "HX-Request"))
            return response

        return answer

    return decorate
