"""Seasons and series: tournaments grouped under one scoring rule and one table."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .tournament import Tournament


class Season(models.Model):
    """Tournaments an organizer groups into one season table."""

    class Scoring(models.TextChoices):
        BEST_N = "best_n", _("Sum of the best N results")
        PLACE_POINTS = "place_points", _("Points by place")
        RATING_POINTS = "rating_points", _("Sum of the parties' rating points (Kozel evenings)")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=80, unique=True, allow_unicode=True)
    scoring = models.CharField(
        _("scoring"), max_length=20, choices=Scoring.choices, default=Scoring.PLACE_POINTS
    )
    best_n = models.PositiveIntegerField(
        _("results counted"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Only the best N tournaments of each player count; empty counts all."),
    )
    place_points = models.JSONField(
        _("points by place"),
        default=list,
        blank=True,
        help_text=_("Season points for 1st, 2nd, 3rd… place; places beyond the list score 0."),
    )
    tie_breaks = models.JSONField(
        _("tie-breaks"),
        default=list,
        blank=True,
        help_text=_("The season table's tie-breaks, in order."),
    )
    tournaments = models.ManyToManyField(
        Tournament, verbose_name=_("tournaments"), blank=True, related_name="seasons"
    )
    public = models.BooleanField(_("public page"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-created_at", "name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        """The season's public table."""
        return reverse("tournaments:season", args=[self.slug])


class TournamentPlacing(models.Model):
    """A person's stored result in one tournament, as its standings give it.

    Written by ``scoring.ranking.seasons.refresh_placings`` whenever the tournament's results change
    (a task sent on commit) and rebuilt by ``manage.py rebuild_placings``, so a season table
    reads every result of its tournaments in one query. Both players of a pair get the pair's
    line.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="placings",
    )
    profile = models.ForeignKey(
        "scoring.Profile", verbose_name=_("player profile"), on_delete=models.CASCADE,
        related_name="placings",
    )
    place = models.PositiveIntegerField(_("place"))
    shared = models.BooleanField(_("shared place"), default=False)
    score = models.FloatField(
        _("score"), help_text=_("The tournament's main standings figure: match points, or "
                                "rating points where the standings rank by them.")
    )
    rating_points = models.FloatField(_("rating points"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("tournament placing")
        verbose_name_plural = _("tournament placings")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "profile"], name="unique_placing_per_profile"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.profile_id} #{self.place}"
