"""Rating lists: a rating per player (or fixed pair) updated after each rated tournament."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .people import Profile
from .tournament import Tournament


class RatingList(models.Model):
    """A list of ratings kept by one published system over its rated tournaments."""

    class System(models.TextChoices):
        ELO = "elo", _("Elo")
        GLICKO2 = "glicko2", _("Glicko-2")

    class Subject(models.TextChoices):
        PLAYERS = "players", _("Players")
        PAIRS = "pairs", _("Fixed pairs")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=80, unique=True, allow_unicode=True)
    system = models.CharField(
        _("rating system"), max_length=10, choices=System.choices, default=System.GLICKO2
    )
    subject = models.CharField(
        _("rated"), max_length=10, choices=Subject.choices, default=Subject.PLAYERS
    )
    parameters = models.JSONField(
        _("parameters"),
        default=dict,
        blank=True,
        help_text=_("The system's constants (initial rating, K factors, tau); empty: defaults."),
    )
    tournaments = models.ManyToManyField(
        Tournament, verbose_name=_("rated tournaments"), blank=True, related_name="rating_lists"
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
    periods = models.JSONField(
        _("rated periods"),
        default=list,
        editable=False,
        help_text=_("The tournaments' ids in rating-period order as the stored rows rate them."),
    )
    recompute_from = models.PositiveIntegerField(
        _("recompute from period"),
        null=True,
        editable=False,
        help_text=_("A result changed: the first rating period to recompute (lowered, never "
                    "raised, until a run takes it)."),
    )
    recompute_queued_at = models.DateTimeField(
        _("recompute queued at"),
        null=True,
        editable=False,
        help_text=_("When the one pending recompute of the list was queued."),
    )

    class Meta:
        verbose_name = _("rating list")
        verbose_name_plural = _("rating lists")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        """The list's public page."""
        return reverse("tournaments:rating_list", args=[self.slug])


class RatingEntry(models.Model):
    """A subject's rating after one rated tournament: one row of his rating history.

    The subject is a profile (players' lists) or two profiles (fixed pairs, ``profile`` the
    lower id); ``subject`` is their key ("12" or "12+34"). The rows are derived: recomputing
    the list from the stored results rewrites them with the same numbers. ``mu`` and ``phi``
    keep Glicko-2's state exactly as the engine does, so a recompute from a later period
    starts from them and equals a recompute from scratch to the last bit.
    """

    # the list's and the profile's own indexes below serve these keys (db_index=False): a
    # recompute of a federation's list writes tens of thousands of rows past every index
    rating_list = models.ForeignKey(
        RatingList, verbose_name=_("rating list"), on_delete=models.CASCADE,
        related_name="entries", db_index=False,
    )
    # on PostgreSQL in the "C" collation (migration 0046; an AlterField of it must keep it)
    subject = models.CharField(_("subject key"), max_length=40)
    profile = models.ForeignKey(
        Profile, verbose_name=_("player"), on_delete=models.CASCADE, related_name="+",
        db_index=False,
    )
    partner = models.ForeignKey(
        Profile,
        verbose_name=_("partner"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="+"
    )
    sequence = models.PositiveIntegerField(_("rating period"))
    rating = models.FloatField(_("rating"))
    deviation = models.FloatField(_("rating deviation"), null=True, blank=True)
    volatility = models.FloatField(_("volatility"), null=True, blank=True)
    games = models.PositiveIntegerField(_("parties rated"), default=0)
    score = models.FloatField(_("score"), default=0)
    mu = models.FloatField(_("Glicko-2 rating"), null=True, blank=True, editable=False)
    phi = models.FloatField(_("Glicko-2 deviation"), null=True, blank=True, editable=False)
    current = models.BooleanField(
        _("current rating"),
        default=False,
        help_text=_("The subject's last row in the list: his rating now."),
    )

    class Meta:
        verbose_name = _("rating entry")
        verbose_name_plural = _("rating entries")
        ordering = ["rating_list", "subject", "sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["rating_list", "subject", "tournament"], name="unique_rating_entry"
            )
        ]
        indexes = [
            models.Index(fields=["rating_list", "sequence"], name="rating_entry_period_idx"),
            models.Index(fields=["profile"], name="rating_entry_profile_idx"),
            # a page of a published list: its current rows, sorted best first (rating_pages).
            # No index holds a rating: a run updates its changed rows in place, beside the old
            # ones (HOT updates on PostgreSQL, the table's fillfactor: migration 0046)
            models.Index(fields=["rating_list", "current", "subject"],
                         name="rating_entry_current_idx"),
            # a subject's rows in period order: a run's subjects' last rows before its first
            # period, one step back each (rating_updates)
            models.Index(fields=["rating_list", "subject", "sequence"],
                         name="rating_entry_subject_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.subject} @ {self.sequence}: {self.rating:.0f}"
