"""Site-wide response headers: one Content-Security-Policy for every HTML response."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class ContentSecurityPolicyMiddleware:
    """Send ``settings.CONTENT_SECURITY_POLICY`` with every HTML response (no inline code).

    A view never sets its own policy; the one policy is in the settings. It is the first
    middleware, so the answers other middleware make themselves (CommonMiddleware's added
    slash, a refused host's 400, an error page of an exception in a middleware) get it too;
    the media type is compared without regard to case (``Text/HTML; charset=UTF-8``).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Add the policy header to an HTML answer."""
        response = self.get_response(request)
        media_type = response.get("Content-Type", "").split(";", 1)[0].strip().lower()
        if media_type == "text/html":
            response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response
