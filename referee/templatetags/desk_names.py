"""Names on the referee's screen: ``{% load desk_names %}{% who key %}``.

A pair or player is shown by name, with its side or seat ("A", "B1") as a small badge; the
name wraps on a narrow screen and its full text stays in the ``title``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag(takes_context=True)
def who(context: Mapping[str, Any], key: str, fallback: str = "") -> SafeString:
    """The badge and name of a side or seat (``names`` of the context); ``fallback`` when
    the name is unknown."""
    key = str(key or "")
    name = (context.get("names") or {}).get(key) or fallback
    if not name:
        return format_html('<span class="ref-badge">{}</span>', key.upper())
    return format_html(
        '<span class="ref-who"><span class="ref-badge">{}</span> '
        '<span class="ref-name" title="{}">{}</span></span>',
        key.upper(),
        name,
        name,
    )
