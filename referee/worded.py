"""A refused desk action in the referee's words: each message by the field he sees.

A refusal names fields as the serializers and rule engines do ("pips" of seat "a2", "side"),
and engine messages carry raw seat codes ("Player a2 went out …"). Here each message gets
the form's own field (``pips_a2``), the label the referee reads by that field ("Зоя Петрова
(A2)", "Points"), and the players' and pairs' real names in place of the codes, so the desk
can show it next to the field with the referee's values kept.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.core.errors import ServiceError
from scoring.rules import SEATS

SEAT_CODE = re.compile(r"(?<![\w(])([abAB][12])(?![\w)])")
"""A seat code standing alone in a message ("a2", "A2"), not one already named ("(A2)")."""
GROUPED = ("pips", "tiles", "points")
"""Fields the form splits by seat or side (``pips_a2``, ``points_a``)."""
FLAT = re.compile(r"^(pips|tiles|points)_([abAB][12]?)$")
"""A per-seat or per-side field named as the form names it."""
NO_FIELD = ("non_field_errors", "__all__", "")
LABELS = {
    "outcome": gettext_lazy("How it ended"),
    "winner": gettext_lazy("Won by"),
    "side": gettext_lazy("Side"),
    "seat": gettext_lazy("Player"),
    "went_out": gettext_lazy("Went out"),
    "points": gettext_lazy("Points"),
    "plays": gettext_lazy("Scoring plays"),
    "led": gettext_lazy("Who made the first move"),
    "fish_by": gettext_lazy("A fish: who made it (he leads the next deal)"),
    "category": gettext_lazy("Violation"),
    "reason": gettext_lazy("Reason"),
    "tile": gettext_lazy("Tile (optional)"),
}
"""The labels of the desk's form fields, as the forms show them."""
FORM_FIELDS = {
    "seat": ("winner", "went_out", "seat"),
    "side": ("winner", "side"),
    "went_out": ("went_out", "winner"),
}
"""The form's fields an API field stands for (the deal form's ``winner`` is a side or seat)."""


def who_label(key: str, names: Mapping[str, str]) -> str:
    """A side or seat as the referee knows it: "Зоя Петрова (A2)" (its code alone if unknown)."""
    name = names.get(key.lower())
    return f"{name} ({key.upper()})" if name else key.upper()


def name_codes(text: str, names: Mapping[str, str]) -> str:
    """The message with every lone seat code replaced by the player's name and seat."""
    return SEAT_CODE.sub(lambda found: who_label(found.group(1), names), text)


def service_errors(err: ServiceError, names: Mapping[str, str]) -> dict[str, Any]:
    """A service's refusal as errors by field, its seat and side named (the engine's
    ``params``), a per-seat or per-side field nested as the serializers nest it."""
    params = getattr(err, "params", None) or {}
    template = getattr(err, "template", "")
    message = str(err.message)
    if template and params:
        named = {
            key: who_label(str(value), names)
            if key in ("seat", "side", "other") and str(value).lower() in names else value
            for key, value in params.items()
        }
        message = _(template) % named
    message = name_codes(message, names)
    key = str(params.get("seat") or params.get("side") or "").lower()
    if err.field in GROUPED and key in names:
        return {err.field: {key: [message]}}
    return {err.field: [message]}


def _rows(errors: Any, path: tuple[str, ...]) -> list[tuple[tuple[str, ...], str]]:
    """(field path, message) of nested errors."""
    if isinstance(errors, Mapping):
        return [row for key, value in errors.items() for row in _rows(value, (*path, str(key)))]
    if isinstance(errors, list | tuple):
        return [row for value in errors for row in _rows(value, path)]
    return [(path, str(errors))]


def _field(path: tuple[str, ...], names: Mapping[str, str]) -> tuple[list[str], str]:
    """The form fields (the first found is shown) and the label of an error's field path."""
    top = path[0] if path and path[0] not in NO_FIELD else ""
    sub = path[1].lower() if len(path) > 1 else ""
    flat = FLAT.match(top)
    if flat:  # an engine's own name of the form's field: "points_a"
        top, sub = flat.group(1), flat.group(2).lower()
    if top in GROUPED and (sub in names or sub in SEATS or sub in ("a", "b")):
        fields = [f"{top}_{sub}"] + ([top] if top == "points" else [])
        return fields, who_label(sub, names)
    if not top:
        return [], ""
    return list(FORM_FIELDS.get(top, (top,))), str(LABELS.get(top, ""))


def worded(errors: Any, names: Mapping[str, str]) -> list[dict[str, Any]]:
    """Each message of a refusal: the form's fields it belongs to (the first on the form
    shows it), the field's label, the message with names, and the text to show ("label:
    message", or the message alone when it names the field already)."""
    rows = []
    for path, message in _rows(errors, ()):
        fields, label = _field(path, names)
        message = name_codes(message, names)
        text = f"{label}: {message}" if label and label not in message else message
        rows.append({"fields": fields, "label": label, "message": message, "text": text})
    return rows


def worded_line(errors: Any, names: Mapping[str, str]) -> str:
    """The refusal's messages in words, as one line."""
    return " ".join(row["text"] for row in worded(errors, names))
