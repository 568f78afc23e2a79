"""The OpenAPI schema class: every operation also documents the errors DRF really answers."""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse

from scoring.idempotency import IdempotentMixin

ERRORS = {
    "400": "Invalid input or refused by the regulations: {field: [message]}.",
    "403": "Not logged in, or not allowed for this user: {detail: message}.",
    "404": "No such record, not visible to the user, or no such page: {detail: message}.",
}
"""Errors any operation may answer (a filter or page number in the query is input too)."""

UNSAFE_ERRORS = {
    "409": "The record changed meanwhile (a stale version), or the same Idempotency-Key "
    "is still being processed.",
    "422": "The Idempotency-Key was already used for a different request.",
}
"""Further errors of the operations that change something."""


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's schema, with the error answers each operation can give."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        """The operation's own answers, plus the documented errors it does not declare."""
        responses = super()._get_response_bodies(direction)
        errors = dict(ERRORS)
        if self.method not in ("GET", "HEAD", "OPTIONS") and isinstance(
            self.view, IdempotentMixin
        ):
            errors.update(UNSAFE_ERRORS)
        for code, description in errors.items():
            if code not in responses:
                responses[code] = self._get_response_for_code(
                    OpenApiResponse(OpenApiTypes.OBJECT, description=description),
                    code,
                    direction=direction,
                )
        return responses
