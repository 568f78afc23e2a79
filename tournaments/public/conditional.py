"""Conditional GETs of the public pages: an ETag from the results version, 304 when unchanged.

A hall full of phones polls the standings, the draw and the hall screen. While no result
changes, a poll is answered by ``PublicNotModifiedMiddleware`` from one cache read, before the
session, the user, the messages or the view are looked at. When the page's ETag is not in
the cache (or the visitor has a session), ``conditional_public`` loads the tournament, its
rounds and its results version once, answers 304 if the ETag holds, and otherwise hands that
load to the view (``common.public_load``), which reads none of it again. A page told of a
change by the live stream (``scoring.live``) fetches with the event's token, which the cached
ETag's key holds: the first such fetch computes the ETag afresh, the others read it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import lru_cache, wraps

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers

from scoring import live
from tournaments.public.load import PublicLoad, PublicRequest, load_public
from tournaments.timetable import next_start

VARY = ("Accept-Language", "Cookie", "HX-Request")


def _key(page: str, user_pk: object, language: str, fragment: bool, target: str,
         path: str) -> str:
    """What an answer depends on besides the tournament: visitor, language, fragment, address."""
    parts = (page, user_pk, language, "fragment" if fragment else "page", target, path)
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def _request_key(request: PublicRequest, page: str) -> str:
    """``_key`` of a request that went through the middleware (user, language, htmx)."""
    return _key(page, request.user.pk, getattr(request, "LANGUAGE_CODE", ""),
                bool(request.htmx), request.headers.get("HX-Target", ""),
                request.get_full_path())


def _cache_key(slug: str, request_key: str, request: HttpRequest) -> str:
    """Where a page's ETag is remembered; a fetch after a live event (``Live-Version``: the
    event's token) has its own, so the ETag remembered just before the change is not used."""
    return f"public-etag:{slug}:{request_key}:{live.request_token(request.headers)}"


def _coming(load: PublicLoad) -> str:
    """What the hall's countdown names: the next start of the timetable (one query), which
    changes as the clock passes a start, not only when a record does."""
    coming = next_start(load.timetable_lines())
    return "" if coming is None else f"{coming.uid} {coming.label} {coming.starts_at}"


def public_etag(request: PublicRequest, load: PublicLoad, page: str) -> str:
    """The ETag of a public page: what it shows is a function of these parts.

    The results version (a team event: its team matches' too), the tournament (its entrants
    version included: every change of its players, pairs, teams and tables moves it) and its
    regulations, the rounds and their states, the visitor (what he may see), the language, an
    htmx fragment or the page, the address; the hall, its timetable's items too (one query).
    """
    tournament = load.tournament
    regulations = tournament.regulations
    parts = (
        load.version, load.teams,
        [(rnd.number, rnd.status, rnd.scheduled_start) for rnd in load.rounds],
        sorted((k, repr(v)) for k, v in vars(tournament).items() if not k.startswith("_")),
        sorted((k, repr(v)) for k, v in vars(regulations).items() if not k.startswith("_")),
        _request_key(request, page),
        _coming(load) if page == "hall" else "",
    )
    return '"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:32] + '"'


def conditional_headers(response: HttpResponse, etag: str) -> HttpResponse:
    """The headers of a conditional answer (200 or 304): its ETag, revalidate, what varies."""
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, private=True)
    patch_vary_headers(response, VARY)
    return response


def _polled(request: HttpRequest, live_panels: tuple[str, ...]) -> bool:
    """A GET or HEAD whose answer may be conditional (a running clock's panel is not)."""
    panel = request.GET.get("panel", "")
    return request.method in ("GET", "HEAD") and not panel.startswith(live_panels or "\0")


def conditional_public(page: str, *, live_panels: tuple[str, ...] = ()) -> Callable:
    """Make a public view answer ``If-None-Match`` with 304 while its ETag holds.

    ``live_panels``: values of ``?panel=`` whose answer shows running clocks (changing every
    second without a result): those are always answered in full. The ETag is remembered
    ``PUBLIC_ETAG_VERSION_SECONDS`` in the shared cache (1 s by default; 0 = always
    computed): within that time a poll costs one cache read and no query, and a changed
    result is answered 304 at most that long.
    """

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def answer(request: PublicRequest, slug: str, *args: object, **kwargs: object
                   ) -> HttpResponse:
            if not _polled(request, live_panels):
                return view(request, slug, *args, **kwargs)
            seconds = settings.PUBLIC_ETAG_VERSION_SECONDS
            key = _cache_key(slug, _request_key(request, page), request)
            known = cache.get(key) if seconds > 0 and request.headers.get(
                "If-None-Match") else None
            if known is not None:
                response = get_conditional_response(request, etag=known)
                if response is not None:
                    return conditional_headers(response, known)
            load = load_public(request, slug, page)  # 404 when hidden
            etag = public_etag(request, load, page)
            if seconds > 0:
                cache.set(key, etag, seconds)
            response = get_conditional_response(request, etag=etag)
            if response is None:
                request.public_load = load
                request.public_etag = etag  # the page's cache key (``paging.cached_render``)
                response = view(request, slug, *args, **kwargs)
            if response.status_code in (200, 304):
                conditional_headers(response, etag)
            return response

        answer.conditional_page = (page, live_panels)  # type: ignore[attr-defined]
        return answer

    return decorate


@lru_cache(maxsize=512)
def _route(path: str) -> tuple[str, str, tuple[str, ...]] | None:
    """The conditional public page an address is: its page, slug and live panels, or None."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    marked = getattr(match.func, "conditional_page", None)
    if marked is None or "slug" not in match.kwargs:
        return None
    page, live_panels = marked
    return page, match.kwargs["slug"], live_panels


class PublicNotModifiedMiddleware:
    """Answer a spectator's poll of a public page with 304 from one cache read.

    Only an anonymous visitor's (no session cookie) ``If-None-Match`` GET of a conditional
    public page, while its ETag is in the cache and matches: the answer is the one
    ``conditional_public`` gives, without the session, user, messages or CSRF middleware and
    without the view. Everything else goes on down the stack unchanged.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """The 304, or the rest of the stack's answer."""
        return self.not_modified(request) or self.get_response(request)

    @staticmethod
    def not_modified(request: HttpRequest) -> HttpResponse | None:
        """The 304 of an unchanged public page for an anonymous poll, or None."""
        if (not request.META.get("HTTP_IF_NONE_MATCH")
                or settings.PUBLIC_ETAG_VERSION_SECONDS <= 0
                or settings.SESSION_COOKIE_NAME in request.COOKIES):
            return None
        route = _route(request.path_info)
        if route is None:
            return None
        page, slug, live_panels = route
        if not _polled(request, live_panels):
            return None
        language = translation.get_language_from_request(request)
        key = _key(page, None, language, request.headers.get("HX-Request") == "true",
                   request.headers.get("HX-Target", ""), request.get_full_path())
        known = cache.get(_cache_key(slug, key, request))
        if known is None:
            return None
        response = get_conditional_response(request, etag=known)
        return None if response is None else conditional_headers(response, known)
