"""The party's protocols: versions, signatures, signing PINs and round prints."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


def _random_pdf_path(folder: str) -> str:
    """A random, unguessable storage path for a generated PDF under ``folder``."""
    token = secrets.token_urlsafe(24)
    return f"{folder}/{token[:2]}/{token}.pdf"


def protocol_upload_to(instance: Any, filename: str) -> str:
    """Where a signed protocol PDF is stored (a random path; files are served by views)."""
    return _random_pdf_path("protocols")


def print_upload_to(instance: Any, filename: str) -> str:
    """Where a round print PDF is stored (a random path; files are served by views)."""
    return _random_pdf_path("prints")


class Protocol(models.Model):
    """One version of a party's protocol: signed off by the players, countersigned, locked.

    A party has at most one version that is not superseded. Its content is built from the
    party's records until the referee countersigns; then the signed PDF, its SHA-256 and the
    data it was rendered from are kept for good.
    """

    class Status(models.TextChoices):
        AWAITING = "awaiting", _("Awaiting signatures")
        SIGNED = "signed", _("Signed")
        SUPERSEDED = "superseded", _("Superseded")

    class Problem(models.TextChoices):
        """Why a stored or uploaded file is not an authentic protocol (an unverified copy)."""

        MISSING = "missing", _("The signed file is missing.")
        ALTERED = "altered", _("The file does not match the SHA-256 recorded when it was signed.")
        UNSIGNED = "unsigned", _("The file carries no signature that can be checked.")
        MODIFIED = "modified", _("The file was changed after it was signed.")
        UNTRUSTED = "untrusted", _(
            "The file was not signed by a certificate this installation trusts.")
        OTHER = "other", _("The signed file belongs to another protocol.")
        DATA = "data", _(
            "The signed data kept here does not match the data fingerprint of the signed file.")
        RECORDS = "records", _("The imported records differ from what was signed.")

    party = models.ForeignKey(
        "scoring.Party",
        verbose_name=_("party"),
        on_delete=models.CASCADE,
        related_name="protocols",
    )
    version = models.PositiveIntegerField(_("version"), validators=[MinValueValidator(1)])
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.AWAITING
    )
    public_id = models.CharField(_("public id"), max_length=32, unique=True)
    short_code = models.CharField(_("short code"), max_length=9, unique=True)
    reason = models.CharField(_("why this version"), max_length=300, blank=True)
    fingerprint = models.CharField(_("data SHA-256"), max_length=64, blank=True)
    sha256 = models.CharField(_("file SHA-256"), max_length=64, blank=True, db_index=True)
    file = models.FileField(_("signed PDF"), upload_to=protocol_upload_to, blank=True)
    data = models.JSONField(_("signed data"), null=True, blank=True)
    unverified = models.CharField(
        _("unverified copy"), max_length=20, choices=Problem.choices, blank=True,
        help_text=_("Set on import when the file's signature did not validate here, or the "
                    "imported records differ from what it signed: why."))
    unverified_parts = models.JSONField(
        _("parts that differ"), default=list, blank=True,
        help_text=_("Of an unverified copy whose imported records differ from what was signed: "
                    "which parts of the protocol (tournament, players, points…)."))
    created_at = models.DateTimeField(_("opened at"), auto_now_add=True)
    signed_at = models.DateTimeField(_("signed at"), null=True, blank=True)
    superseded_at = models.DateTimeField(_("superseded at"), null=True, blank=True)
    superseded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("superseded by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("protocol")
        verbose_name_plural = _("protocols")
        ordering = ["party_id", "version"]
        constraints = [
            models.UniqueConstraint(fields=["party", "version"], name="unique_protocol_version"),
            models.UniqueConstraint(
                fields=["party"],
                condition=~Q(status="superseded"),
                name="one_current_protocol_per_party",
            ),
        ]

    def __str__(self) -> str:
        return str(_("Protocol %(code)s, version %(version)s") % {
            "code": self.short_code, "version": self.version})

    def get_absolute_url(self) -> str:
        """The public verification page of this version."""
        return reverse("scoring:verify_protocol", args=[self.public_id])

    @property
    def is_signed(self) -> bool:
        """Whether this version was signed (it may since have been superseded)."""
        return bool(self.sha256)


class Signature(models.Model):
    """A player's confirmation (or refusal) of a protocol version, or the referee's countersign."""

    class Role(models.TextChoices):
        PLAYER = "player", _("Player")
        REFEREE = "referee", _("Referee")

    class Method(models.TextChoices):
        LOGIN = "login", _("Logged in")
        PIN = "pin", _("PIN on the table device")
        REFUSAL = "refusal", _("Refusal recorded by the referee")

    protocol = models.ForeignKey(
        Protocol, verbose_name=_("protocol"), on_delete=models.CASCADE, related_name="signatures"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    player = models.ForeignKey(
        "scoring.Player",
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="protocol_signatures",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("signed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    method = models.CharField(_("how"), max_length=10, choices=Method.choices)
    refused = models.BooleanField(_("refused"), default=False)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    content_fingerprint = models.CharField(_("content confirmed (SHA-256)"), max_length=64)
    signed_at = models.DateTimeField(_("signed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("signature")
        verbose_name_plural = _("signatures")
        ordering = ["protocol_id", "signed_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["protocol", "player"],
                condition=Q(player__isnull=False),
                name="one_signature_per_player",
            ),
            models.UniqueConstraint(
                fields=["protocol"], condition=Q(role="referee"), name="one_countersignature"
            ),
        ]

    def __str__(self) -> str:
        who = self.player.name if self.player is not None else str(self.user or "")
        return f"{self.get_role_display()}: {who}"


class SigningPin(models.Model):
    """A player's personal PIN for signing protocols on the table device (stored hashed)."""

    player = models.OneToOneField(
        "scoring.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="signing_pin",
    )
    pin_hash = models.CharField(_("PIN hash"), max_length=128)
    failed_attempts = models.PositiveIntegerField(_("failed attempts"), default=0)
    locked_until = models.DateTimeField(_("locked until"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("signing PIN")
        verbose_name_plural = _("signing PINs")

    def __str__(self) -> str:
        return str(self.player)


class PrintJob(models.Model):
    """One PDF of a whole round (blank or signed protocols), made in the background."""

    class Kind(models.TextChoices):
        BLANK = "blank", _("Blank protocols")
        SIGNED = "signed", _("Signed protocols")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Failed")

    round = models.ForeignKey(
        "scoring.Round",
        verbose_name=_("round"),
        on_delete=models.CASCADE,
        related_name="print_jobs",
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    cache_key = models.CharField(_("input SHA-256"), max_length=64, db_index=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    done = models.PositiveIntegerField(_("protocols done"), default=0)
    total = models.PositiveIntegerField(_("protocols"), default=0)
    skipped = models.PositiveIntegerField(_("tables left out"), default=0)
    file = models.FileField(_("PDF"), upload_to=print_upload_to, blank=True)
    sha256 = models.CharField(_("file SHA-256"), max_length=64, blank=True, db_index=True)
    error = models.TextField(_("error"), blank=True)
    site_url = models.CharField(
        _("site address"), max_length=200, blank=True,
        help_text=_("The address the print was requested at; its worker has no request."),
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    expires_at = models.DateTimeField(_("expires at"))

    class Meta:
        verbose_name = _("print job")
        verbose_name_plural = _("print jobs")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.round} · {self.get_kind_display()} · {self.get_status_display()}"

    @property
    def percent(self) -> int:
        """Progress in percent (100 when ready)."""
        if self.status == self.Status.DONE:
            return 100
        return int(100 * self.done / self.total) if self.total else 0

    @property
    def finished(self) -> bool:
        """Whether the job will change no more (ready or failed)."""
        return self.status in (self.Status.DONE, self.Status.FAILED)
