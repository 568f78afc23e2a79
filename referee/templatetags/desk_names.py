"""Names on the referee's screen: ``{% load desk_names %}{% who key %}``.

A pair or player is shown by name, with its side or seat ("A", "B1") as a small badge; the
name wraps on a narrow screen and its full text stays in the ``title``. A pair without a name
of its own shows both its players, each on a line of his own, so that a narrow button cuts
neither of them away.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from scoring.models import Pair
from scoring.models.entrants import PLAYERS_SEPARATOR

register = template.Library()


def _members(names: Mapping[str, str], key: str, name: str) -> list[str]:
    """The two players of side ``key`` when ``name`` is only theirs ("A / B"), else none."""
    first, second = names.get(f"{key}1"), names.get(f"{key}2")
    if key not in ("a", "b") or not first or not second:
        return []
    return [first, second] if name == Pair.label("", first, second) else []


def _name(name: str, members: list[str]) -> SafeString:
    """The name's element: one text, or a pair's two players, one a line."""
    if not members:
        return format_html('<span class="ref-name" title="{}">{}</span>', name, name)
    return format_html(
        '<span class="ref-name ref-duo" title="{}"><span class="ref-member">{}</span>'
        '<span class="ref-sep">{}</span><span class="ref-member">{}</span></span>',
        name, members[0], PLAYERS_SEPARATOR, members[1],
    )


@register.simple_tag(takes_context=True)
def who(context: Mapping[str, Any], key: str, fallback: str = "") -> SafeString:
    """The badge and name of a side or seat (``names`` of the context); ``fallback`` when
    the name is unknown."""
    key = str(key or "")
    names = context.get("names") or {}
    name = names.get(key) or fallback
    if not name:
        return format_html('<span class="ref-badge">{}</span>', key.upper())
    return format_html(
        '<span class="ref-who"><span class="ref-badge">{}</span> {}</span>',
        key.upper(),
        _name(name, _members(names, key, name)),
    )
