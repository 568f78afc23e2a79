"""Errors and warnings of the draw engine, with English message templates.

Messages are templates with ``%(name)s`` placeholders and a separate ``params`` dict, so the
Django layer can translate the template (``gettext(err.message) % err.params``). ``_`` only
marks the strings for ``makemessages``; it translates nothing here.
"""

from __future__ import annotations

from collections.abc import Mapping


def _(message: str) -> str:
    """Mark ``message`` for translation; return it unchanged (the Django layer translates)."""
    return message


class DrawUserError(Exception):
    """A problem the organizer can fix (too few entrants, an entrant listed twice, ...).

    Anything else the engine raises (``ValueError``, ``TypeError``) is a bug in the caller.
    """

    def __init__(
        self, message: str, params: Mapping[str, object] | None = None, **kwargs: object
    ) -> None:
        self.message = message
        self.params = {**(params or {}), **kwargs}
        super().__init__(str(self))

    def __str__(self) -> str:
        """Return the English message with its parameters filled in."""
        return self.message % self.params if self.params else self.message


class DrawWarning(str):
    """A warning about a draw: a ``str`` (English, filled in) that keeps its template.

    ``warning.message`` is the untranslated template and ``warning.params`` its parameters, so
    ``gettext(warning.message) % warning.params`` gives the translated text.
    """

    message: str
    params: dict[str, object]

    def __new__(
        cls, message: str, params: Mapping[str, object] | None = None, **kwargs: object
    ) -> DrawWarning:
        """Build the warning from a template and its parameters."""
        merged = {**(params or {}), **kwargs}
        obj = super().__new__(cls, message % merged if merged else message)
        obj.message = message
        obj.params = merged
        return obj

    def __reduce__(self) -> tuple[type[DrawWarning], tuple[str, dict[str, object]]]:
        """Keep pickling (e.g. through Celery) working."""
        return (DrawWarning, (self.message, self.params))


class FieldError(DrawUserError):
    """A draw's problem tied to one setting or input (``field``: "bracket_size", "group_count"
    …), so a form or the API shows it on that field."""

    def __init__(
        self, field: str, message: str, params: Mapping[str, object] | None = None,
        **kwargs: object,
    ) -> None:
        self.field = field
        super().__init__(message, params, **kwargs)
