"""Site-wide request and response rules: one Content-Security-Policy for every HTML response,
and no address or query with a control character reaching a view."""

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
    """Answer 400 to a path or a query holding a control character (``/t/%00/``,
    ``?q=%00``), before any view.

    A NUL in a slug or a search reached PostgreSQL, which refuses it with an error (a 500); no
    address of this site holds such a character, and no parameter it reads does, so none is
    looked up. The API's answer is JSON naming the path or the parameter, as its errors do.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Refuse the request when its path or a parameter of its query holds a control
        character."""
        if CONTROL.search(request.path_info):
            return self._refuse(request, "path", _("The address holds a control character."))
        parameter = parameter_with_control(request)
        if parameter is not None:
            return self._refuse(request, parameter,
                                _("The parameter %(name)s holds a control character.")
                                % {"name": parameter})
        return self.get_response(request)

    @staticmethod
    def _refuse(request: HttpRequest, field: str, text: str) -> HttpResponse:
        """The 400: JSON ``{field: [text]}`` under /api/, plain text elsewhere."""
        if request.path_info.startswith("/api/"):  # the API's errors name their field
            return JsonResponse({field: [text]}, status=400)
        return HttpResponseBadRequest(text, content_type="text/plain; charset=utf-8")


def parameter_with_control(request: HttpRequest) -> str | None:
    """The name of the first query parameter whose name or a value holds a control character
    (its name printable: control characters shown as ``\\xNN``), or None."""
    for name, values in request.GET.lists():
        if CONTROL.search(name) or any(CONTROL.search(value) for value in values):
            return CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", name)
    return None
