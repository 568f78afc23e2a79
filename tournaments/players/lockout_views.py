"""The lockout pages: what a locked login sees, and the organizer's log of lockouts with the
button that lifts one (``scoring.people.lockouts`` does the work)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scoring.access import permissions
from scoring.core.errors import ServiceError
from scoring.people import lockouts


def lockout_response(request: HttpRequest, original_response: Any = None,
                     credentials: dict[str, Any] | None = None) -> HttpResponse:
    """What django-axes answers a locked login (``AXES_LOCKOUT_CALLABLE``): the login page
    again with the translated message and the minutes left, status 429; JSON under /api/."""
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    address = getattr(request, "axes_ip_address", None) or lockouts.client_address(request)
    message, seconds = lockouts.login_refusal(username, address)
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": message}, status=429)
    else:
        response = render(request, "registration/locked_out.html",
                          {"message": message, "username": username}, status=429)
    response["Retry-After"] = str(seconds)
    return response


@login_required
def lockout_log(request: HttpRequest) -> HttpResponse:
    """The lockouts an organizer may see (his tournaments' people and PINs; staff: all), the
    active ones first; POST ``lockout`` lifts one."""
    if not (permissions.is_organizer(request.user) or request.user.is_staff):
        raise PermissionDenied
    if request.method == "POST":
        try:
            lockouts.unlock(int(request.POST.get("lockout") or 0), actor=request.user)
        except (ServiceError, ValueError):
            messages.error(request, _("No such lockout."))
        else:
            messages.success(request, _("The lockout was lifted."))
        return redirect("tournaments:lockouts")
    rows = list(lockouts.visible_lockouts(request.user)[:200])
    rows.sort(key=lambda row: not row.active)
    return render(request, "tournaments/lockouts.html", {"lockouts": rows})
