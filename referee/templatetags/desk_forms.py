"""The repeated parts of the referee screen's forms: ``{% load desk_forms %}``.

``{% tile_grid name %}``: a tile picker is the same 28 checkboxes for every party and
rendering (only its field name differs), so its HTML is made once per name and process
instead of through a template loop of 28 tiles six times per panel. ``{% desk_hidden %}``:
the CSRF token and the party's version that every action form of the panel (about fifty)
carries, as ``{% csrf_token %}`` and an include of them made it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from referee.rulings import ALL_TILES

register = template.Library()
_VERSION = template.Variable("s.version")


@register.simple_tag
def tile_grid(name: str) -> SafeString:
    """The checkboxes of the 28 tiles, each named ``name`` with the tile as its value."""
    return _grid(str(name))


@lru_cache(maxsize=64)
def _grid(name: str) -> SafeString:
    """The picker's HTML for one field name (the names are the desk's own few)."""
    tiles = format_html_join(
        "",
        '<label class="ref-tile"><input type="checkbox" name="{}" value="{}">'
        '<span aria-label="{}"><b>{}</b><b>{}</b></span></label>',
        ((name, f"{low}-{high}", f"{low}-{high}", low, high) for low, high in ALL_TILES),
    )
    return format_html('<div class="ref-tiles" role="group">{}</div>', tiles)


@register.simple_tag(takes_context=True)
def desk_hidden(context: Mapping[str, Any]) -> SafeString:
    """The CSRF token (as ``{% csrf_token %}`` renders it) and the party's version (``s``)."""
    token = context.get("csrf_token")
    try:
        version = _VERSION.resolve(context)
    except template.VariableDoesNotExist:  # as ``{{ s.version }}`` renders a missing value
        version = ""
    csrf = (
        format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)
        if token and token != "NOTPROVIDED" else ""
    )
    return format_html('{}<input type="hidden" name="version" value="{}">', csrf, version)
