"""One person across tournaments: the player profile that each tournament's entry links to."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


def clean_text(text: str) -> str:
    """A name, club or city as stored: Unicode NFC, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFC", text or "").split())


def person_key(text: str) -> str:
    """A name, club or city as compared: case, ё/е and runs of spaces do not matter."""
    return clean_text(text).casefold().replace("ё", "е")


class Profile(models.Model):
    """A person who plays domino, whatever tournaments he enters.

    A tournament's ``Player`` links to it (``Player.profile``); the profile's record page,
    season tables and rating lists gather every linked entry. Merging two profiles of one
    person moves every entry to one of them and keeps the other as a pointer
    (``merged_into``), so old links still lead to the person.
    """

    name = models.CharField(_("name"), max_length=200)
    name_key = models.CharField(
        _("name as compared"),
        max_length=200,
        blank=True,
        editable=False,
        help_text=_("The name in lower case, ё read as е, spaces collapsed: what matching uses."),
    )
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
        indexes = [
            models.Index(fields=["name"], name="profile_name_idx"),
            models.Index(fields=["name_key"], name="profile_name_key_idx"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, keeping ``name_key`` the compared form of ``name``."""
        self.name_key = person_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        """The profile's public record page."""
        return reverse("tournaments:profile", args=[self.pk])


class ProfileMerge(models.Model):
    """One merge of two profiles, with everything it moved: the log an unmerge restores from.

    ``moved`` names the rows re-pointed at the kept profile: ``entries`` (players),
    ``rating_rows`` and ``rating_partner_rows`` (rating-list rows as subject and as partner),
    ``pointers`` (profiles merged into the merged one before, now pointing at the kept one) and
    ``user`` (the login the kept profile took over, or null). ``merged_before`` holds the
    merged profile's field values as they were; ``kept_before`` the kept profile's fields the
    merge filled, as they were (empty).
    """

    kept = models.ForeignKey(
        Profile, verbose_name=_("profile kept"), on_delete=models.CASCADE,
        related_name="merges_kept",
    )
    merged = models.ForeignKey(
        Profile, verbose_name=_("profile merged into it"), on_delete=models.CASCADE,
        related_name="merges_merged",
    )
    moved = models.JSONField(_("what moved"), default=dict)
    merged_before = models.JSONField(_("the merged profile before"), default=dict)
    kept_before = models.JSONField(_("the kept profile's filled fields before"), default=dict)
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("merged by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    merged_at = models.DateTimeField(_("merged at"), auto_now_add=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("unmerged by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    undone_at = models.DateTimeField(_("unmerged at"), null=True, blank=True)

    class Meta:
        verbose_name = _("profile merge")
        verbose_name_plural = _("profile merges")
        ordering = ["-merged_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.merged_id} → {self.kept_id}"

    @property
    def undone(self) -> bool:
        """Whether the merge was undone (unmerged)."""
        return self.undone_at is not None
