"""The 400 (a query parameter it cannot take), 403 (a closed page, a failed form token) and
404 pages: styled, translated, with the way back (the role's home, the page before); under
/api/ the same errors stay JSON as the API answers them."""

from __future__ import annotations

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from rest_framework.exceptions import NotFound
from rest_framework.exceptions import PermissionDenied as ApiPermissionDenied

from scoring.core.errors import BadQueryParameter
from tournaments.public.home import home_for

API_PREFIX = "/api/"


def previous_page(request: HttpRequest) -> str:
    """The page the visitor came from, if it is on this site and not this page ("" else)."""
    referer = request.META.get("HTTP_REFERER", "")
    if not referer or referer == request.build_absolute_uri():
        return ""
    try:
        host = request.get_host()
    except DisallowedHost:
        return ""
    safe = url_has_allowed_host_and_scheme(
        referer, allowed_hosts={host}, require_https=request.is_secure()
    )
    return referer if safe else ""


def _error_page(request: HttpRequest, template: str, status: int, **more: object) -> HttpResponse:
    """An error page in the site's layout, with links to the user's home and back."""
    home_url, home_name = home_for(getattr(request, "user", None))
    context = {"home_url": home_url, "home_name": home_name, "back_url": previous_page(request),
               **more}
    return render(request, template, context, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """400: a query parameter the page cannot take, named with its message (JSON under /api/);
    other bad requests (a suspicious operation) say nothing of the cause."""
    body: dict[str, object]
    if isinstance(exception, BadQueryParameter):
        body = dict(exception.as_dict())
        message = f"{exception.field}: {exception.message}"
    else:
        body, message = {"detail": _("Bad request.")}, ""
    if request.path.startswith(API_PREFIX):
        return JsonResponse(body, status=400)
    return _error_page(request, "400.html", 400, message=message)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """403: the page is not open to this account (JSON under /api/)."""
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": str(ApiPermissionDenied.default_detail)}, status=403)
    return _error_page(request, "403.html", 403)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """403 of a form whose security token failed (an old page, cookies off): nothing was saved.

    The referee desk's queue and the API get JSON that the queue shows as the reason.
    """
    text = _(
        "The form's security check failed, so nothing was saved: the page is older than your "
        "login, or the browser refused its cookie. Reload the page and enter it again."
    )
    accept = request.headers.get("Accept", "")
    if request.path.startswith(API_PREFIX) or "application/json" in accept:
        body = {"ok": False, "status": 403, "busy": False, "conflict": False,
                "detail": text, "error": text, "errors": {"csrf": [text]}}
        return JsonResponse(body, status=403)
    return _error_page(request, "403_csrf.html", 403)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: no such page, or one hidden from this account (JSON under /api/)."""
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": str(NotFound.default_detail)}, status=404)
    return _error_page(request, "404.html", 404)
