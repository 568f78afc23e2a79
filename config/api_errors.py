"""DRF exception handling: service errors become 400/409/503 responses naming the field; a
throttled request 429 with the seconds to wait."""

from __future__ import annotations

import math
from typing import Any

from django.utils.translation import ngettext
from rest_framework.exceptions import Throttled
from rest_framework.response import Response
from rest_framework.views import exception_handler

from scoring.core.errors import BusyError, ServiceError


def throttled_response(exc: Throttled) -> Response:
    """429 ``{detail}`` naming the seconds to wait, and ``Retry-After`` with them."""
    seconds = max(1, math.ceil(getattr(exc, "wait", None) or 1))
    message = ngettext("Too many requests: try again in %(seconds)s second.",
                       "Too many requests: try again in %(seconds)s seconds.", seconds)
    return Response({"detail": message % {"seconds": seconds}}, status=429,
                    headers={"Retry-After": str(seconds)})


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Answer a ServiceError with its status and {field: [message]}, a throttled request 429
    with ``Retry-After``; else DRF's default."""
    if isinstance(exc, Throttled):
        return throttled_response(exc)
    if isinstance(exc, BusyError):  # the party's row is held by another change: retry soon
        return Response(exc.as_dict(), status=exc.status_code, headers={"Retry-After": "2"})
    if isinstance(exc, ServiceError):
        return Response(exc.as_dict(), status=exc.status_code)
    return exception_handler(exc, context)
