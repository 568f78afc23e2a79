"""Accounts an organizer made for the people of his tournament (referees, players)."""

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
