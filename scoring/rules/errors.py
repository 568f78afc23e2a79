"""The rule engine's one error type: a refused input, naming the field at fault.

The engine has no Django in it, so it cannot translate. Messages are English templates with
``%(name)s`` placeholders, marked with :func:`_` so that ``makemessages`` extracts them; the
Django layer translates ``err.message`` and then fills in ``err.params``.
"""

from __future__ import annotations

import functools


def _(message: str) -> str:
    """Mark ``message`` for translation and return it unchanged (the Django layer translates)."""
    return message


class RuleError(ValueError):
    """Input that the rules refuse.

    ``field`` names the input at fault (``"pips"``, ``"points_a"``, ``"went_out"`` ...),
    ``message`` is the untranslated template and ``params`` fills its placeholders.
    """

    def __init__(self, field: str, message: str, /, **params: object) -> None:
        self.field = field
        self.message = message
        self.params = params
        super().__init__(self.__str__())

    def __str__(self) -> str:
        """The English message with its parameters filled in."""
        return self.message % self.params if self.params else self.message

    def __repr__(self) -> str:
        return f"RuleError({self.field!r}, {self.__str__()!r})"

    def __reduce__(self) -> tuple[functools.partial[RuleError], tuple[str, str]]:
        # Pickle-safe (keyword params are not part of ``args``).
        return functools.partial(type(self), **self.params), (self.field, self.message)
