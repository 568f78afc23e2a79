"""Deals: one shuffle played out to a domino or a fish, as the referee entered it."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

MAX_DEAL_POINTS = 168


class Deal(models.Model):
    """One deal of a party with its score per pair."""

    class Outcome(models.TextChoices):
        DOMINO = "domino", _("Domino")
        FISH = "fish", _("Fish")
        DRAWN_FISH = "drawn_fish", _("Fish, equal pips")
        ANNULLED = "annulled", _("Annulled")
        REFEREE = "referee", _("Ended by the referee")

    party = models.ForeignKey(
        "tournaments.Party",
        verbose_name=_("party"),
        on_delete=models.CASCADE,
        related_name="deals",
    )
    number = models.PositiveIntegerField(_("number"), validators=[MinValueValidator(1)])
    outcome = models.CharField(_("how it ended"), max_length=20, choices=Outcome.choices)
    winner = models.CharField(
        _("winning pair"), max_length=1, blank=True, choices=[("a", "A"), ("b", "B")]
    )
    points_a = models.PositiveIntegerField(
        _("points of pair A"), default=0, validators=[MaxValueValidator(MAX_DEAL_POINTS)]
    )
    points_b = models.PositiveIntegerField(
        _("points of pair B"), default=0, validators=[MaxValueValidator(MAX_DEAL_POINTS)]
    )
    went_out = models.CharField(_("went out"), max_length=2, blank=True)
    pips = models.JSONField(_("pips left per player"), null=True, blank=True)
    tiles = models.JSONField(_("tiles left per player"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)
    client_id = models.CharField(_("client id"), max_length=64, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["party", "number"]
        constraints = [
            models.UniqueConstraint(fields=["party", "number"], name="unique_deal_number"),
            models.UniqueConstraint(
                fields=["party", "client_id"],
                condition=~Q(client_id=""),
                name="unique_deal_client_id",
            ),
            models.CheckConstraint(
                condition=Q(points_a__lte=MAX_DEAL_POINTS - models.F("points_b")),
                name="deal_points_at_most_168",
            ),
        ]

    def __str__(self) -> str:
        return str(_("Deal %(number)s") % {"number": self.number})
