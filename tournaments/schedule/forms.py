"""The organizer's timetable forms: an item, and a round's planned start."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.models import TimetableItem

MINUTE = "%Y-%m-%dT%H:%M"
"""What a ``datetime-local`` field sends and shows (in the tournament's time zone)."""


def _moment(label: Any, required: bool) -> forms.DateTimeField:
    """A date and time field shown as the browser's date-and-time picker."""
    return forms.DateTimeField(
        label=label, required=required, input_formats=[MINUTE],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=MINUTE))


class TimetableItemForm(forms.ModelForm):
    """An item of the timetable: its kind, title, start and optional end."""

    starts_at = _moment(_("Starts at"), True)
    ends_at = _moment(_("Ends at"), False)

    class Meta:
        model = TimetableItem
        fields = ["kind", "title", "starts_at", "ends_at"]

    def clean(self) -> dict[str, Any]:
        """An end before the start is named on the end (as the service names it)."""
        data = super().clean() or {}
        starts_at, ends_at = data.get("starts_at"), data.get("ends_at")
        if starts_at and ends_at and ends_at < starts_at:
            self.add_error("ends_at", _("It cannot end before it starts."))
        return data


class RoundStartForm(forms.Form):
    """A round's planned start, and whether the later ones move with it."""

    starts_at = _moment(_("Starts at"), False)
    shift_later = forms.BooleanField(
        label=_("Shift the later ones by the same time"), required=False,
        help_text=_("Every later round not started yet and every item from the old start on."))
