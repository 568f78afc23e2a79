"""A tournament's timetable besides its rounds: the hall's opening, breaks, the prize-giving."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .tournament import Tournament


class TimetableItem(models.Model):
    """One entry of the timetable that is not a round (a round's start: ``scheduled_start``)."""

    class Kind(models.TextChoices):
        OPENING = "opening", _("Opening of the hall")
        BREAK = "break", _("Break")
        PRIZES = "prizes", _("Prize-giving")
        OTHER = "other", _("Other")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="timetable_items",
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.OTHER)
    title = models.CharField(
        _("title"), max_length=200, blank=True,
        help_text=_("Free text; empty: the kind's name (e.g. “Break”)."),
    )
    starts_at = models.DateTimeField(_("starts at"))
    ends_at = models.DateTimeField(_("ends at"), null=True, blank=True)

    class Meta:
        db_table = "scoring_timetable_item"
        verbose_name = _("timetable item")
        verbose_name_plural = _("timetable items")
        ordering = ["tournament", "starts_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__isnull=True) | Q(ends_at__gte=models.F("starts_at")),
                name="timetable_item_ends_after_start",
            )
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """What the timetable calls it: its title, else its kind's name."""
        return self.title or str(self.get_kind_display())
