"""The party screen's offline helpers in templates: the server's time for the device's clock."""

from __future__ import annotations

from django import template

from referee.offline import server_ms

register = template.Library()


@register.simple_tag
def server_time_ms() -> int:
    """The server's time in milliseconds since the epoch, when the page was rendered."""
    return server_ms()
