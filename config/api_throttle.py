"""The API's request throttles: anonymous requests per client address
(``API_THROTTLE_ANON_RATE``), a user's requests per user (``API_THROTTLE_USER_RATE``).

DRF's own classes read their rates once, when imported; these read the settings on every
request, so a deployment (or a test) changes them without a restart of the class. The client's
address is the one the login limits use (``TRUSTED_PROXY_COUNT``). The counts live in the
cache (Redis when ``REDIS_URL`` is set, shared by every process; a process's own memory
otherwise); a cache that is down counts nothing and throttles nothing: the API stays up.
A throttled request is answered 429 with ``Retry-After`` by ``config.api_errors``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from scoring.people.lockouts import client_address


class AnonymousRateThrottle(AnonRateThrottle):
    """Requests without a user, per client address, at ``API_THROTTLE_ANON_RATE``."""

    def get_rate(self) -> str | None:
        """The rate ("120/minute"); empty: not throttled."""
        return settings.API_THROTTLE_ANON_RATE or None

    def get_ident(self, request: Any) -> str:
        """The client's address, as the login limits see it."""
        return client_address(request) or "unknown"


class PerUserRateThrottle(UserRateThrottle):
    """A user's requests (every address together) at ``API_THROTTLE_USER_RATE``."""

    def get_rate(self) -> str | None:
        """The rate ("6000/minute"); empty: not throttled."""
        return settings.API_THROTTLE_USER_RATE or None

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        """Only a user's requests count here (anonymous ones have their own rate)."""
        if not request.user or not request.user.is_authenticated:
            return None
        return super().get_cache_key(request, view)
