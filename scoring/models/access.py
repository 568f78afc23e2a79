"""Accounts an organizer made for the people of his tournament (referees, players), and the
read-only API tokens he issued."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .tournament import Tournament


class IssuedAccount(models.Model):
    """A login made from a tournament's pages: only its organizers invite or revoke it.

    The person sets his own password through a one-time invitation link; the organizer never
    knows it. An account made elsewhere (``createsuperuser``, another tournament) is not his.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="issued_account",
    )
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="issued_accounts",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("made by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("made at"), auto_now_add=True)
    invited_at = models.DateTimeField(_("last invitation"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("access revoked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("issued account")
        verbose_name_plural = _("issued accounts")

    def __str__(self) -> str:
        return str(self.user)


class ReadOnlyToken(models.Model):
    """An organizer's API token that reads his tournaments and changes nothing.

    Only the key's SHA-256 is stored (the key is shown once, when it is issued) and its first
    characters, to tell tokens apart. Revoking keeps the row (when, for the list), not the use.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="read_only_tokens",
    )
    name = models.CharField(_("name"), max_length=100)
    prefix = models.CharField(_("key starts with"), max_length=12)
    key_hash = models.CharField(_("key SHA-256"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("read-only API token")
        verbose_name_plural = _("read-only API tokens")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def active(self) -> bool:
        """Not revoked."""
        return self.revoked_at is None
