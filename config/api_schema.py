"""The OpenAPI schema: every write declares the Idempotency-Key, every operation documents the
errors DRF really answers as typed bodies (``ErrorDetail``, ``FieldErrors``), and shows the
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
from drf_spectacular.plumbing import ResolvedComponent, force_instance
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers
from rest_framework.settings import api_settings

from scoring.access.idempotency import HEADER, IdempotentMixin

if TYPE_CHECKING:
    from drf_spectacular.generators import SchemaGenerator
    from rest_framework.request import Request

IDEMPOTENCY_HEADER = OpenApiParameter(
    HEADER,
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="A key per intended request (at most 100 characters): the same request sent "
    "again with the same key within 24 hours gets the stored answer (Idempotent-Replayed: "
    "true); the same key with another request is 422. See docs/api.md.",
)
"""Declared on every operation that changes something."""

LOGIN_KEY = OpenApiParameter(
    HEADER,
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Accepted and not stored: a login sent again answers the same token.",
)
"""The token login's: logging in again is harmless, so it keeps no answer."""

ERROR_DETAIL = {
    "type": "object",
    "description": "An error not about one field: {detail: message}.",
    "properties": {"detail": {
        "type": "string",
        "description": "The message, in the request's language: show it, do not parse it."}},
    "required": ["detail"],
}
FIELD_ERRORS = {
    "type": "object",
    "description": "Errors by what is at fault: a body field, a query parameter, the "
    "Idempotency-Key header, or the thing the state refuses (round, party, protocol); the "
    "errors of a list's items under the item's index. Each holds its messages, or the errors "
    "of what it nests.",
    "additionalProperties": {"oneOf": [
        {"type": "array", "items": {"type": "string"}},
        {"$ref": "#/components/schemas/FieldErrors"},
    ]},
}
COMPONENTS = {"ErrorDetail": ERROR_DETAIL, "FieldErrors": FIELD_ERRORS}
"""The error bodies: docs/api.md, Errors."""

DETAIL = "ErrorDetail"
FIELDS = "FieldErrors"
EITHER = (DETAIL, FIELDS)

ERRORS: dict[str, tuple[tuple[str, ...], str]] = {
    "400": (EITHER, "Invalid input (a body field, a query parameter, a body that is not "
            "JSON), or refused by the regulations or the state: {field: [message]}."),
    "403": ((DETAIL,), "Not logged in, or not allowed for this user: {detail: message}."),
    "404": ((DETAIL,), "No such record, not visible to the user, or no such page: "
            "{detail: message}."),
}
"""Errors any operation may answer (a filter or page number in the query is input too)."""

BODY_ERRORS = {
    "415": ((DETAIL,), "The body is not JSON (Content-Type): {detail: message}."),
}
"""Further errors of the operations that take a JSON body."""

UNSAFE_ERRORS = {
    "409": (EITHER, "The record changed meanwhile (a stale version: {version: [message]}), or "
            "the same Idempotency-Key is still being processed ({detail: message})."),
    "422": ((DETAIL,), "The Idempotency-Key was already used for a different request: "
            "{detail: message}."),
    "503": ((FIELDS,), "The party is held by another change longer than the lock timeout: "
            "nothing was written; send the request again (Retry-After): {party: [message]}."),
}
"""Further errors of the operations that change something."""

THROTTLED = {
    "429": (EITHER, "Too many requests (API_THROTTLE_ANON_RATE per address without a user, "
            "API_THROTTLE_USER_RATE per user), or locked after repeated failures; nothing was "
            "done: wait Retry-After seconds and send it again: {detail: message} (a locked "
            "PIN: {pin: [message]})."),
}
"""The error of an operation with a rate limit."""

KNOWN_ERRORS = {**ERRORS, **BODY_ERRORS, **UNSAFE_ERRORS, **THROTTLED}
"""Every documented error status with its body."""

RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer"},
                               "description": "Seconds to wait before sending it again."}}
REPLAYED = {"Idempotent-Replayed": {
    "schema": {"type": "string", "enum": ["true"]},
    "description": "Present on an answer stored for the Idempotency-Key and sent again."}}

UNTYPED = {"type": "object", "additionalProperties": {}}
"""What an error documented as ``OpenApiTypes.OBJECT`` becomes: typed by its status here."""


def error_schema(names: tuple[str, ...]) -> dict[str, Any]:
    """The body schema of an error: one component, or either of them."""
    refs = [{"$ref": f"#/components/schemas/{name}"} for name in names]
    return refs[0] if len(refs) == 1 else {"oneOf": refs}


def worded_defaults(schema: dict[str, Any]) -> None:
    """A request's optional properties say their default in words, not as ``default``.

    openapi-typescript (default flags) makes a property with a default required, so a client
    would have to send what it may leave out; the words keep what the server uses then.
    """
    required = set(schema.get("required", []))
    for name, prop in (schema.get("properties") or {}).items():
        if name in required or not isinstance(prop, dict) or "default" not in prop:
            continue
        value = json.dumps(prop.pop("default"), ensure_ascii=False)
        said = f"Default when left out: {value}."
        prop["description"] = f"{prop['description']} {said}" if prop.get("description") \
            else said


def whole_record(serializer: Any) -> bool:
    """Whether a serializer answers every field of a record: a model's, with DRF's own
    choice of fields and representation."""
    kind = type(serializer)
    return (isinstance(serializer, serializers.ModelSerializer)
            and kind.get_fields is serializers.ModelSerializer.get_fields
            and kind.to_representation is serializers.ModelSerializer.to_representation)


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's schema, with the Idempotency-Key on every write and the typed error
    answers each operation can give."""

    def _changes(self) -> bool:
        """Whether the operation is a write."""
        return self.method not in ("GET", "HEAD", "OPTIONS")

    def _idempotent(self) -> bool:
        """Whether the operation honours an Idempotency-Key (every write but the login)."""
        return self._changes() and isinstance(self.view, IdempotentMixin)

    def get_override_parameters(self) -> list[Any]:
        """The operation's own parameters, and the Idempotency-Key header on a write."""
        parameters = list(super().get_override_parameters())
        if self._changes():
            parameters.append(IDEMPOTENCY_HEADER if self._idempotent() else LOGIN_KEY)
        return parameters

    def _map_basic_serializer(self, serializer: Any, direction: Any) -> dict[str, Any]:
        """A serializer's component; a record's answer names every field as present (it always
        is, unless its serializer chooses its fields), so a generated client need not test."""
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "response" and whole_record(force_instance(serializer)):
            schema["required"] = list(schema.get("properties", {}))
        if direction == "request":
            worded_defaults(schema)
        return schema

    def page_parameters(self) -> list[str]:
        """The names of a list's page parameters (``scoring.access.query`` takes them)."""
        return [parameter["name"] for parameter in self._get_pagination_parameters()]

    def _register_errors(self) -> None:
        """The error components, once in the document."""
        for name, schema in COMPONENTS.items():
            self.registry.register_on_missing(ResolvedComponent(
                name=name, type=ResolvedComponent.SCHEMA, object=name,
                schema=copy.deepcopy(schema)))

    def _errors(self) -> dict[str, tuple[tuple[str, ...], str]]:
        """The errors the operation can answer, by status."""
        errors = dict(ERRORS)
        if self._changes() and self._get_request_body() is not None:
            errors.update(BODY_ERRORS)
        if self._idempotent():
            errors.update(UNSAFE_ERRORS)
        if self.view.get_throttles():
            errors.update(THROTTLED)
        return errors

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        """The operation's own answers, its untyped errors typed, the others it can give."""
        responses = super()._get_response_bodies(direction)
        self._register_errors()
        errors = self._errors()
        for code, response in responses.items():
            for media in (response.get("content") or {}).values():
                if code >= "400" and media.get("schema") == UNTYPED:
                    media["schema"] = error_schema(KNOWN_ERRORS.get(code, (EITHER, ""))[0])
        for code, (names, description) in errors.items():
            if code not in responses:
                responses[code] = self._get_response_for_code(
                    OpenApiResponse(error_schema(names), description=description),
                    code, direction=direction)
        return responses

    def _get_response_headers_for_code(self, status_code: str,
                                       direction: Any = "response") -> dict[str, Any]:
        """Retry-After on a 429 or 503; Idempotent-Replayed on a write's success."""
        headers = dict(super()._get_response_headers_for_code(status_code, direction))
        if status_code in ("429", "503"):
            headers.update(RETRY_AFTER)
        elif status_code.startswith("2") and self._idempotent():
            headers.update(REPLAYED)
        return headers


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
