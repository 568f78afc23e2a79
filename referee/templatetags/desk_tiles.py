"""The tile pickers of the referee's screen: ``{% load desk_tiles %}{% tile_grid name %}``.

A picker is the same 28 checkboxes for every party and rendering (only its field name
differs), so its HTML is made once per name and process instead of through a template loop
of 28 tiles six times per panel.
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from referee.rulings import ALL_TILES

register = template.Library()


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
