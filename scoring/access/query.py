"""Query parameters of the API: one an operation does not take is a 400 naming it, never ignored.

What an operation takes is what its schema documents, read from the same inspector
drf-spectacular documents it with: ``format`` everywhere; on a list, the page (``page``) and
its filters (django-filter's); and the query parameters its ``extend_schema`` declares. A
declared parameter with an enum takes only its values (a 400 naming it lists them).
``tests/api/test_query_parameters.py`` holds the schema and these checks to the same list.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any, cast

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.schemas.inspectors import DefaultSchema
from rest_framework.settings import api_settings

FORMAT = api_settings.URL_FORMAT_OVERRIDE
ALWAYS = (FORMAT,)
"""Taken by every operation: ``?format=json`` chooses the answer's format."""


def _schema_class(view: Any, method: str) -> type:
    """The schema class drf-spectacular documents the operation with: the handler's
    (``extend_schema`` on the method or action), else the view class's."""
    action = getattr(view, "action", None)
    handler = getattr(view, action or method.lower(), None)
    found = getattr(handler, "kwargs", {}).get("schema")
    if isinstance(found, type):
        return found
    for klass in type(view).__mro__:  # the class's own (``extend_schema`` on the class)
        schema = klass.__dict__.get("schema")
        if schema is not None and not isinstance(schema, DefaultSchema):
            return type(schema)
    return cast(type, api_settings.DEFAULT_SCHEMA_CLASS)  # the class, though typed as its path


def _schema(view: Any, method: str) -> Any:
    """The operation's schema inspector, as the generator makes it."""
    schema = _schema_class(view, method)()  # a fresh one: the class's is shared by requests
    schema.method, schema.path = method, ""
    schema.view = view
    return schema


def _serializer_fields(parameter: Any) -> Iterable[str]:
    """The query fields of a serializer given as parameters."""
    serializer = parameter() if isinstance(parameter, type) else parameter
    return [name for name, field in serializer.fields.items() if not field.read_only]


def _filters(view: Any, backends: Iterable[type]) -> Iterable[str]:
    """The filters of a collection (django-filter's filtersets)."""
    names: list[str] = []
    for backend_class in backends:
        backend = backend_class()
        if hasattr(backend, "get_filterset_class"):
            filterset = backend.get_filterset_class(view, view.get_queryset())
            names += list(getattr(filterset, "base_filters", {}) or {})
        else:
            names += [getattr(backend, name) for name in ("search_param", "ordering_param")
                      if hasattr(backend, name)]
    return names


def known_parameters(view: Any, method: str) -> dict[str, tuple[str, ...] | None]:
    """The query parameters an operation takes, each with its allowed values (None: any):
    ``format``; a list's page and filters (drf-spectacular's test of a list); the parameters
    its ``extend_schema`` declares."""
    known: dict[str, tuple[str, ...] | None] = dict.fromkeys(ALWAYS)
    schema = _schema(view, method)
    known.update(dict.fromkeys(schema.page_parameters()))  # config.api_schema.AutoSchema's
    known.update(dict.fromkeys(_filters(view, schema.get_filter_backends())))
    for parameter in schema.get_override_parameters():
        if hasattr(parameter, "location"):
            if parameter.location == "query" and not parameter.exclude:
                enum = parameter.enum
                known[parameter.name] = tuple(str(v) for v in enum) if enum else None
        else:
            known.update(dict.fromkeys(_serializer_fields(parameter)))
    return known


def check_query(view: Any, request: Request) -> None:
    """Refuse a query parameter the operation does not take, or a value not in its enum: 400
    ``{name: [message]}`` for each, the message naming what is taken."""
    if not request.query_params:
        return
    known = known_parameters(view, request.method or "GET")
    taken = ", ".join(sorted(known))
    errors: dict[str, list[str]] = {}
    for name in request.query_params:
        if name not in known:
            errors[name] = [_("Unknown query parameter; this endpoint takes: %(names)s.")
                            % {"names": taken}]
            continue
        allowed = known[name]
        for value in request.query_params.getlist(name):
            if allowed is not None and value not in allowed:
                errors[name] = [_("“%(value)s” is not one of: %(values)s.")
                                % {"value": value, "values": ", ".join(allowed)}]
    if errors:
        raise ValidationError(errors)


class FormatFilterNegotiation(DefaultContentNegotiation):
    """For a collection with a filter named ``format`` (the tournaments' own): a ``?format=``
    value that is no answer format (``json``, ``api``) is the filter's, and the answer's format
    comes from Accept (DRF would answer 404 for a format it cannot render)."""

    def select_renderer(self, request: Request, renderers: Iterable[BaseRenderer],
                        format_suffix: str | None = None) -> tuple[BaseRenderer, str]:
        """DRF's choice, without the override when the value is the filter's."""
        offered = list(renderers)
        value = request.query_params.get(FORMAT or "")
        if value is not None and value not in {renderer.format for renderer in offered}:
            self.settings = SimpleNamespace(URL_FORMAT_OVERRIDE=None)  # type: ignore[assignment]
        return super().select_renderer(request, offered, format_suffix)


class KnownQueryMixin:
    """For DRF views: a query parameter the operation does not document is refused with 400."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """After authentication and permissions, check the query's parameters."""
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        check_query(self, request)
