"""Logs that name the request and the party, and error reports to Sentry when configured."""

from __future__ import annotations

import contextvars
import logging
import re
import uuid
from collections.abc import Callable

from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse

REQUEST_ID_HEADER = "X-Request-ID"
_REQUEST_ID_SHAPE = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
"""The id of the request being served ("-" outside a request)."""
party_id: contextvars.ContextVar[str] = contextvars.ContextVar("party_id", default="-")
"""The party the request is about ("-" when it names none)."""


def logging_settings(level: str) -> dict[str, object]:
    """The ``LOGGING`` setting: one console handler whose lines name the request and the party,
    at ``level`` (``LOG_LEVEL``)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "config.observability.RequestContextFilter"}},
        "formatters": {
            "context": {
                "format": "%(asctime)s %(levelname)s %(name)s [request=%(request_id)s "
                "party=%(party)s] %(message)s",
            },
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler", "filters": ["context"], "formatter": "context",
            },
        },
        "root": {"handlers": ["console"], "level": level},
    }


class RequestContextFilter(logging.Filter):
    """Give every log record ``request_id`` and ``party`` (for the log format)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Stamp the record; never drop it."""
        record.request_id = request_id.get()
        record.party = party_id.get()
        return True


def incoming_request_id(request: HttpRequest) -> str:
    """The client's or proxy's ``X-Request-ID`` when it is a sane token, else a new one."""
    given = request.headers.get(REQUEST_ID_HEADER, "")
    return given if _REQUEST_ID_SHAPE.match(given) else uuid.uuid4().hex


class IdentifiedRequest(HttpRequest):
    """A request ``RequestIdMiddleware`` named: its id is ``request.request_id``."""

    request_id: str


class RequestIdMiddleware:
    """Name each request (``X-Request-ID``, taken or made, sent back) and its party in logs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: IdentifiedRequest) -> HttpResponse:
        """Serve the request with its id (and later its party) in the logging context."""
        rid = incoming_request_id(request)
        request.request_id = rid
        request_id.set(rid)
        party_id.set("-")
        _tag_sentry("request_id", rid)
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = rid
        return response

    def process_view(self, request: HttpRequest, view: Callable[..., HttpResponse],
                     args: tuple[object, ...], kwargs: dict[str, object]) -> None:
        """Note the party of a party's address (desk pages, ``/api/v1/parties/<pk>/``)."""
        match = request.resolver_match
        party = kwargs.get("party_id")
        if party is None and match is not None and "part" in match.route:
            party = kwargs.get("pk")
        if party is not None:
            party_id.set(str(party))
            _tag_sentry("party", str(party))


def forget_request(**_kwargs: object) -> None:
    """After the answer is sent (``request_finished``): log lines name no request again.

    Not at the end of the middleware: Django logs a 4xx or 5xx answer after it, and that line
    should name the request too.
    """
    request_id.set("-")
    party_id.set("-")


request_finished.connect(forget_request, dispatch_uid="config.observability.forget_request")


def _tag_sentry(key: str, value: str) -> None:
    """Tag the current Sentry scope (nothing when sentry-sdk is not set up)."""
    try:
        import sentry_sdk
    except ImportError:  # pragma: no cover - a pinned dependency
        return
    sentry_sdk.set_tag(key, value)


def init_sentry(dsn: str, environment: str, release: str) -> bool:
    """Report errors of Django and Celery to Sentry; only when a DSN is given."""
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn, environment=environment or None, release=release or None,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        send_default_pii=False, traces_sample_rate=0.0,
    )
    return True
