"""DRF exception handling: service errors become 400/409/503 responses naming the field."""

from __future__ import annotations

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler

from scoring.core.errors import BusyError, ServiceError


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Answer a ServiceError with its status and {field: [message]}; else DRF's default."""
    if isinstance(exc, BusyError):  # the party's row is held by another change: retry soon
        return Response(exc.as_dict(), status=exc.status_code, headers={"Retry-After": "2"})
    if isinstance(exc, ServiceError):
        return Response(exc.as_dict(), status=exc.status_code)
    return exception_handler(exc, context)
