"""Dates and times of a tournament's pages in the tournament's own time zone.

A view that loads a tournament calls :func:`activate_tournament_zone`; the middleware
:class:`TournamentTimeZoneMiddleware` gives every request a clean start and end in the site's
default zone, so that a zone activated for one tournament never leaks into the next request
served by the same thread.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


@lru_cache(maxsize=1)
def known_zones() -> frozenset[str]:
    """The IANA zone names this machine knows."""
    return frozenset(available_timezones())


def validate_time_zone(value: str) -> None:
    """Refuse a name that is not a known IANA time zone (e.g. "Europe/Moscow")."""
    if value not in known_zones():
        raise ValidationError(
            _("Unknown time zone %(zone)s; use a name such as Europe/Moscow."),
            params={"zone": value},
            code="time_zone",
        )


@lru_cache(maxsize=256)
def zone_named(name: str) -> ZoneInfo | None:
    """The zone of that name, or None for an unknown name (the default zone then applies)."""
    try:
        return ZoneInfo(name) if name else None
    except (ZoneInfoNotFoundError, ValueError):
        return None


def activate_tournament_zone(tournament: Any) -> None:
    """Show this request's dates and times in the tournament's time zone."""
    zone = zone_named(getattr(tournament, "time_zone", "") or "")
    if zone is None:
        timezone.deactivate()
    else:
        timezone.activate(zone)


class TournamentTimeZoneMiddleware:
    """Start and end every request in the site's default time zone."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Serve the request; whatever zone a view activated ends with it."""
        timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
