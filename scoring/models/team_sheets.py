"""A team match's sheet: the two captains' signatures, the referee's countersignature and the
signed PDF (``scoring.signoff.team_sheets``)."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .protocols import Signature, _random_pdf_path
from .teams import Team, TeamMatch


def team_sheet_upload_to(instance: Any, filename: str) -> str:
    """Where a signed team match sheet is stored (a random path; files are served by views)."""
    return _random_pdf_path("team-sheets")


def new_public_id() -> str:
    """A fresh unguessable public id of a sheet."""
    return secrets.token_hex(16)


class TeamSheet(models.Model):
    """The sheet of one team match: awaiting the captains' signatures, then countersigned by
    the referee and kept for good as a signed PDF with its SHA-256 and the data it shows.

    Signatures confirm content: when the parties change before the countersignature, the
    version goes up and the signatures given so far are dropped."""

    class Status(models.TextChoices):
        AWAITING = "awaiting", _("Awaiting signatures")
        SIGNED = "signed", _("Signed")

    team_match = models.OneToOneField(
        TeamMatch, verbose_name=_("team match"), on_delete=models.CASCADE, related_name="sheet"
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.AWAITING
    )
    version = models.PositiveIntegerField(_("version"), default=1)
    public_id = models.CharField(_("public id"), max_length=32, unique=True,
                                 default=new_public_id)
    fingerprint = models.CharField(_("data SHA-256"), max_length=64, blank=True)
    sha256 = models.CharField(_("file SHA-256"), max_length=64, blank=True, db_index=True)
    file = models.FileField(_("signed PDF"), upload_to=team_sheet_upload_to, blank=True)
    data = models.JSONField(_("signed data"), null=True, blank=True)
    created_at = models.DateTimeField(_("opened at"), auto_now_add=True)
    signed_at = models.DateTimeField(_("signed at"), null=True, blank=True)

    class Meta:
        db_table = "scoring_team_sheet"
        verbose_name = _("team match sheet")
        verbose_name_plural = _("team match sheets")

    def __str__(self) -> str:
        return str(_("Team match sheet %(id)s, version %(version)s") % {
            "id": self.public_id[:8], "version": self.version})


class TeamSheetSignature(models.Model):
    """A captain's signature for his team (``team`` set), or the referee's countersignature."""

    class Role(models.TextChoices):
        CAPTAIN = "captain", _("Captain")
        REFEREE = "referee", _("Referee")

    sheet = models.ForeignKey(
        TeamSheet, verbose_name=_("team match sheet"), on_delete=models.CASCADE,
        related_name="signatures",
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    team = models.ForeignKey(
        Team, verbose_name=_("team"), null=True, blank=True, on_delete=models.CASCADE,
        related_name="+",
    )
    player = models.ForeignKey(
        "scoring.Player", verbose_name=_("player"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="+",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("signed by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    method = models.CharField(_("how"), max_length=10, choices=Signature.Method.choices)
    content_fingerprint = models.CharField(_("content confirmed (SHA-256)"), max_length=64)
    signed_at = models.DateTimeField(_("signed at"), auto_now_add=True)

    class Meta:
        db_table = "scoring_team_sheet_signature"
        verbose_name = _("team match sheet signature")
        verbose_name_plural = _("team match sheet signatures")
        ordering = ["sheet_id", "signed_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["sheet", "team"], condition=Q(team__isnull=False),
                name="one_captain_signature_per_team",
            ),
            models.UniqueConstraint(
                fields=["sheet"], condition=Q(role="referee"),
                name="one_team_sheet_countersignature",
            ),
        ]

    def __str__(self) -> str:
        who = self.player.name if self.player is not None else str(self.user or "")
        return f"{self.get_role_display()}: {who}"
