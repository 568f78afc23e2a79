"""The party page's correction link: shown only where the desk's rule lets the user correct."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.access import permissions
from scoring.models import Deal

register = template.Library()


@register.filter
def correctable_by(deal: Deal, user: Any) -> bool:
    """Whether ``user`` may correct or annul ``deal`` (his own; the chief's amendment if locked)."""
    return permissions.can_correct_record(user, deal.party, deal.recorded_by_id)
