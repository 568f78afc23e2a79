"""Errors the services raise: a user can fix them, and each names the field at fault."""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import BadRequest
from django.utils.translation import gettext


class ServiceError(Exception):
    """A request the regulations or the current state refuse; nothing was changed."""

    status_code = 400

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.template = ""
        """An engine error's untranslated message template (``translate_engine_error``)."""
        self.params: dict[str, object] = {}
        """Its parameters (a seat, a side): the desk words them with the players' names."""

    def as_dict(self) -> dict[str, list[str]]:
        """The error as DRF and forms expect it: {field: [message]}."""
        return {self.field: [str(self.message)]}


class ConflictError(ServiceError):
    """The record changed since the client read it (a stale edit): HTTP 409."""

    status_code = 409


class LockedOut(ServiceError):
    """Locked for a while after repeated failures (a signing PIN): HTTP 429; the message says
    for how long."""

    status_code = 429


class BusyError(ServiceError):
    """The record is held by another change longer than the lock timeout: HTTP 503, retry."""

    status_code = 503


class BadQueryParameter(ServiceError, BadRequest):
    """A query parameter the page or endpoint cannot take: 400 naming it (the API's
    ``{name: [message]}``, the pages' 400 page with the message)."""


def number_parameter(params: Mapping[str, str], name: str) -> int | None:
    """A query parameter that is a whole number (a round's number): None when absent or empty,
    ``BadQueryParameter`` naming it when it is not a number."""
    value = params.get(name) or ""
    if not value:
        return None
    if not (value.isascii() and value.isdigit()):
        raise BadQueryParameter(name, gettext("A round's number, like 2."))
    return int(value)


def translate_engine_error(err: Exception) -> ServiceError:
    """Turn a plain-Python engine error (message template + params) into a translated one."""
    field = getattr(err, "field", "__all__")
    template = getattr(err, "message", str(err))
    params = getattr(err, "params", {}) or {}
    text = gettext(template)
    if params:
        text = text % params
    error = ServiceError(field, text)
    error.template, error.params = template, dict(params)
    return error
