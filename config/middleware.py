"""Site-wide request and response rules: one Content-Security-Policy for every HTML response,
and no address with a control character reaching a view."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext as _


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


CONTROL = re.compile(r"[\x00-\x1f\x7f]")
"""A control character (NUL, a line break, DEL …): never part of an address of this site."""


class ControlCharacterMiddleware:
    """Answer 400 to a path holding a control character (``/t/%00/``), before any view.

    A NUL in a slug reached PostgreSQL, which refuses it with an error (a 500); no address of
    this site holds such a character, so none is looked up.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Refuse the request when its path holds a control character."""
        if CONTROL.search(request.path_info):
            text = _("The address holds a control character.")
            if request.path_info.startswith("/api/"):  # the API's errors name their field
                return JsonResponse({"path": [text]}, status=400)
            return HttpResponseBadRequest(text, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
