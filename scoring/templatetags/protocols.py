"""The protocol section of the party page: ``{% load protocols %}{% protocol_section party %}``."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.models import Party
from scoring.signoff.section import section_context

register = template.Library()


@register.inclusion_tag("scoring/_protocol.html", takes_context=True)
def protocol_section(context: dict[str, Any], party: Party) -> dict[str, Any]:
    """Status, who signed, sign buttons for the table device, downloads and versions."""
    return {**section_context(context["request"], party), "csrf_token": context.get("csrf_token")}
