"""JSON a request sends: how deep it nests, read from the text before it is parsed and without
recursion (past ``JSON_MAX_DEPTH`` it is refused before ``json.loads`` could exhaust the
interpreter's stack: a ``RecursionError``, a 500, near 1,000 levels), and the API's JSON field,
which refuses such text and a ``null`` where none may be stored."""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

TOKENS = re.compile(rb'"(?:[^"\\]+|\\.)*"?|[\[\]{}]', re.DOTALL)
"""A string (skipped whole, brackets in it included; an unclosed one runs to the end) or a
bracket. The string's body is matched once, so the scan stays linear on any input."""

OPENING = frozenset(b"[{")
QUOTE = ord('"')


def text_depth(text: bytes | str, limit: int) -> int:
    """How deep lists and objects nest in the JSON ``text`` (``{}`` is 1, ``{"a": [1]}`` 2);
    it stops counting once past ``limit``, so the answer is at most ``limit + 1``.

    Invalid JSON is measured as far as its brackets go; parsing refuses it afterwards.
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    depth = deepest = 0
    for token in TOKENS.finditer(data):
        first = token.group()[0]
        if first in OPENING:
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif first != QUOTE:  # a closing bracket
            depth = max(depth - 1, 0)
    return deepest


def too_deep(text: bytes | str) -> str:
    """Why JSON ``text`` is refused: it nests deeper than ``settings.JSON_MAX_DEPTH`` ("" when
    it does not)."""
    limit = settings.JSON_MAX_DEPTH
    if text_depth(text, limit) <= limit:
        return ""
    return _("The JSON nests deeper than %(depth)s levels.") % {"depth": limit}


def nul_field(value: Any) -> str | None:
    """Where a parsed JSON body holds a NUL character (U+0000, which PostgreSQL stores nowhere,
    text or jsonb): the top-level key it is under ("body" for a body that is not an object),
    or None. Walked without recursion."""
    if not isinstance(value, dict):
        return "body" if _holds_nul(value) else None
    for key, item in value.items():
        if "\x00" in str(key) or _holds_nul(item):
            return str(key).replace("\x00", "\ufffd")
    return None


def _holds_nul(value: Any) -> bool:
    """Whether a string, or any key or string nested in ``value``, holds a NUL character."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


NUL_MESSAGE = gettext_lazy("The text holds a NUL character (U+0000), which cannot be stored.")


class JSONInputField(serializers.JSONField):
    """DRF's JSON field with the refusals it lacks for a form or multipart value (JSON text,
    which DRF parses itself): text nested past ``JSON_MAX_DEPTH`` (a ``RecursionError``), and
    ``null`` where the field may not be null (DRF took the text ``null`` as ``None``: a NOT
    NULL violation, a 500). Every writable JSON field of the API is one."""

    def to_internal_value(self, data: Any) -> Any:
        """The value, JSON text parsed within the depth limit; ``null`` only if allowed."""
        if self.binary or getattr(data, "is_json_string", False):
            reason = too_deep(data)
            if reason:
                raise serializers.ValidationError(reason, code="too_deep")
        value = super().to_internal_value(data)
        if value is None and not self.allow_null:
            self.fail("null")
        return value
