"""Penalties given by referees and the append-only party event log."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Penalty(models.Model):
    """A warning, fine or disqualification given to a pair (and player) in a party."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("Warning")
        FINE = "fine", _("Fine")
        DISQUALIFICATION = "disqualification", _("Disqualification")

    class Category(models.TextChoices):
        MOVE_TIME = "move_time", _("Move time")
        TALKING = "talking", _("Talking")
        SIGNS = "signs", _("Signs")
        CONDUCT = "conduct", _("Eating, drinking or smoking")
        TOUCHED_TILE = "touched_tile", _("Touched tile")
        OUT_OF_TURN = "out_of_turn", _("Out of turn")
        FALSE_PASS = "false_pass", _("False pass")
        OTHER = "other", _("Other")

    class Mode(models.TextChoices):
        DEDUCT = "deduct", _("Deducted from the offender")
        AWARD = "award", _("Awarded to the opponents")

    party = models.ForeignKey(
        "tournaments.Party",
        verbose_name=_("party"),
        on_delete=models.CASCADE,
        related_name="penalties",
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    category = models.CharField(_("violation"), max_length=20, choices=Category.choices)
    side = models.CharField(_("pair"), max_length=1, choices=[("a", "A"), ("b", "B")])
    player = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="penalties",
    )
    points = models.PositiveIntegerField(_("points"), default=0)
    mode = models.CharField(_("fine mode"), max_length=10, choices=Mode.choices, blank=True)
    deal_number = models.PositiveIntegerField(_("deal"), null=True, blank=True)
    escalated_from = models.ForeignKey(
        "self",
        verbose_name=_("escalated from"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    cancelled = models.BooleanField(_("cancelled"), default=False)
    client_id = models.CharField(_("client id"), max_length=64, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("given by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("given at"), auto_now_add=True)

    class Meta:
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        ordering = ["party", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["party", "client_id"],
                condition=~Q(client_id=""),
                name="unique_penalty_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.get_category_display()} ({self.side.upper()})"


class AppendOnlyError(Exception):
    """Raised when code tries to change or delete a logged event."""


class PartyEvent(models.Model):
    """One entry of a party's append-only event log: who, when, what, why."""

    party = models.ForeignKey(
        "tournaments.Party",
        verbose_name=_("party"),
        on_delete=models.CASCADE,
        related_name="events",
    )
    seq = models.PositiveIntegerField(_("sequence"))
    at = models.DateTimeField(_("at"), auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    kind = models.CharField(_("what"), max_length=40)
    data = models.JSONField(_("details"), default=dict, blank=True)
    reason = models.CharField(_("why"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("party event")
        verbose_name_plural = _("party events")
        ordering = ["party", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["party", "seq"], name="unique_event_seq"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"

    def save(self, *args: object, **kwargs: object) -> None:
        """Insert only: a logged event is never changed."""
        if self.pk is not None:
            raise AppendOnlyError("party events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        """Refuse: a logged event is never deleted."""
        raise AppendOnlyError("party events are append-only")
