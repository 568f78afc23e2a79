"""A party's figures in templates: ``{% load figures %}{{ fines|signed_points }}``,
``{% deal_points points uncollected %}``; the same functions the protocol PDF writes with."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from scoring.protocols import figures

register = template.Library()


@register.filter
def signed_points(value: int | None) -> str:
    """Fine points as given (``+20``) or taken (``−10``), as the protocol writes them."""
    return figures.signed_points(int(value or 0))


@register.simple_tag
def deal_points(points: int | None, uncollected: int | None = 0) -> SafeString | str:
    """A deal's points for a side; points scored but not collected are struck through and
    followed by what counted (UDL: a domino's count with nothing on the board)."""
    points = int(points or 0)
    if not uncollected:
        return str(points)
    return format_html(
        '<s class="uncollected" title="{}">{}</s>&nbsp;{}',
        _("Not collected: no points on the board before the domino"),
        points, points - int(uncollected),
    )
