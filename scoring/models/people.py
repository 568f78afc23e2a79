"""One person across tournaments: the player profile that each tournament's entry links to."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    """A person who plays domino, whatever tournaments he enters.

    A tournament's ``Player`` links to it (``Player.profile``); the profile's record page,
    season tables and rating lists gather every linked entry. Merging two profiles of one
    person moves every entry to one of them and keeps the other as a pointer
    (``merged_into``), so old links still lead to the person.
    """

    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    birth_year = models.PositiveSmallIntegerField(
        _("birth year"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1900), MaxValueValidator(2100)],
    )
    federation_id = models.CharField(
        _("federation id"),
        max_length=40,
        blank=True,
        help_text=_("A federation's or club's id of the player; rosters are matched on it."),
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="profile",
    )
    merged_into = models.ForeignKey(
        "self",
        verbose_name=_("merged into"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="merged_profiles",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("player profile")
        verbose_name_plural = _("player profiles")
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation_id"],
                condition=~Q(federation_id=""),
                name="unique_profile_federation_id",
            )
        ]
        indexes = [models.Index(fields=["name"], name="profile_name_idx")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        """The profile's public record page."""
        return reverse("tournaments:profile", args=[self.pk])
