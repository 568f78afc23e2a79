"""The sign-up's flood guard: entries without a login, counted per address and per client
(DRF's rate throttle over the project's cache, at ``ENTRY_SIGNUP_RATE``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from rest_framework.throttling import SimpleRateThrottle

from scoring.people.lockouts import client_address


class SignupThrottle(SimpleRateThrottle):
    """One count per value (an email address or a client's address) at ENTRY_SIGNUP_RATE."""

    scope = "entry_signup"

    def __init__(self, value: str) -> None:
        self.value = value.strip().casefold()
        super().__init__()

    def get_rate(self) -> str | None:
        """The rate ("5/hour"); empty: not throttled."""
        return settings.ENTRY_SIGNUP_RATE or None

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        """The count's key: the value counted."""
        return self.cache_format % {"scope": self.scope, "ident": self.value}


def signup_allowed(request: HttpRequest, email: str) -> tuple[bool, str]:
    """Whether one more sign-up from this client for this address is allowed; when not, the
    field to name ("email" or "__all__")."""
    for field, value in (("email", f"mail:{email}"),
                         ("__all__", f"ip:{client_address(request) or 'unknown'}")):
        if not SignupThrottle(value).allow_request(request, None):  # type: ignore[arg-type]
            return False, field
    return True, ""
