"""The OpenAPI schema: every operation documents the errors DRF really answers, and shows the
recorded example of its request and response (``docs/openapi/<version>-examples.json``)."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from drf_spectacular import openapi
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework.settings import api_settings

from scoring.access.idempotency import IdempotentMixin

if TYPE_CHECKING:
    from drf_spectacular.generators import SchemaGenerator
    from rest_framework.request import Request

ERRORS = {
    "400": "Invalid input or refused by the regulations: {field: [message]}.",
    "403": "Not logged in, or not allowed for this user: {detail: message}.",
    "404": "No such record, not visible to the user, or no such page: {detail: message}.",
    "429": "Too many requests from this address without a user (API_THROTTLE_ANON_RATE) or "
    "from this user (API_THROTTLE_USER_RATE): {detail: message}, Retry-After (seconds); "
    "nothing was done, send it again then.",
}
"""Errors any operation may answer (a filter or page number in the query is input too)."""

UNSAFE_ERRORS = {
    "409": "The record changed meanwhile (a stale version), or the same Idempotency-Key "
    "is still being processed.",
    "422": "The Idempotency-Key was already used for a different request.",
    "503": "The party is held by another change longer than the lock timeout: nothing was "
    "written; send the request again (Retry-After).",
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


def _examples_file(version: str) -> Path:
    """Where the recorded examples of an API version are (``manage.py api_examples``)."""
    return Path(settings.API_EXAMPLES_DIR) / f"{version}-examples.json"


@functools.lru_cache(maxsize=4)
def _read_examples(path: str, mtime_ns: int) -> dict[str, Any]:
    """The recorded examples by operation id, read once per version of the file."""
    return json.loads(Path(path).read_text(encoding="utf-8"))["operations"]


def recorded_examples(version: str) -> dict[str, Any]:
    """The recorded examples of an API version by operation id (none without the file)."""
    path = _examples_file(version)
    try:
        mtime_ns = path.stat().st_mtime_ns
    except FileNotFoundError:
        return {}
    return _read_examples(str(path), mtime_ns)


def _example(call: dict[str, Any], body: Any) -> dict[str, Any]:
    """An OpenAPI Example Object of a recorded call."""
    query = "&".join(f"{k}={v}" for k, v in call.get("query", {}).items())
    target = call["path"] + (f"?{query}" if query else "")
    status = call["response"]["status"]
    return {"summary": f"{call['method']} {target} → {status}", "value": copy.deepcopy(body)}


def _attach(content: dict[str, Any] | None, content_type: str, name: str,
            example: dict[str, Any]) -> None:
    """Add an example to a request or response body of the given content type, if declared."""
    media = (content or {}).get(content_type)
    if media is not None:
        media.setdefault("examples", {})[name] = example


def attach_examples(result: dict[str, Any], generator: SchemaGenerator,
                    request: Request | None, public: bool, **kwargs: object) -> dict[str, Any]:
    """Postprocessing hook: each operation's recorded request and response as its examples.

    The request body's example goes under its content type; the response's under its status
    (a recorded refusal under its error status too). An operation without a recorded example
    is left as it is (``tests/api/test_examples.py`` refuses that).
    """
    version = generator.api_version or api_settings.DEFAULT_VERSION
    if version is None:
        raise ImproperlyConfigured("The API has no version (REST_FRAMEWORK's DEFAULT_VERSION).")
    examples = recorded_examples(version)
    for item in result.get("paths", {}).values():
        for operation in item.values():
            recorded = examples.get(operation.get("operationId", "")) if isinstance(
                operation, dict) else None
            if not recorded:
                continue
            for number, call in enumerate([recorded, *recorded.get("errors", [])]):
                name = "recorded" if number == 0 else f"refused-{number}"
                response = call["response"]
                if "request" in call and "requestBody" in operation:
                    _attach(operation["requestBody"].get("content"),
                            call["request"]["content_type"], name,
                            _example(call, call["request"]["body"]))
                declared = operation["responses"].get(str(response["status"]), {})
                _attach(declared.get("content"), response["content_type"], name,
                        _example(call, response["body"]))
    return result
