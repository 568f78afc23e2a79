"""The log of lockouts: logins, API tokens, addresses trying many usernames, signing PINs and
verification uploads refused for a while after repeated failures (what the organizer sees and
lifts)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Lockout(models.Model):
    """One lockout: who or what was locked, from which address, when, until when, and who
    lifted it early."""

    class Kind(models.TextChoices):
        LOGIN = "login", _("Login form")
        TOKEN = "token", _("API token")
        ADDRESS = "address", _("Logins from one address")
        PIN = "pin", _("Signing PIN")
        VERIFY = "verify", _("Protocol uploads for verification")

    kind = models.CharField(_("where"), max_length=10, choices=Kind.choices)
    username = models.CharField(_("username"), max_length=255, blank=True)
    player = models.ForeignKey(
        "scoring.Player", verbose_name=_("player"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="lockouts",
    )
    address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    tried = models.JSONField(
        _("usernames tried"), default=list, blank=True,
        help_text=_("An address's lockout: the usernames tried from it (they decide which "
                    "organizers see it)."),
    )
    locked_at = models.DateTimeField(_("locked at"), default=timezone.now, db_index=True)
    locked_until = models.DateTimeField(_("locked until"))
    unlocked_at = models.DateTimeField(_("unlocked at"), null=True, blank=True)
    unlocked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("unlocked by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )

    class Meta:
        verbose_name = _("lockout")
        verbose_name_plural = _("lockouts")
        ordering = ["-locked_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.username or self.player or self.address}"

    @property
    def active(self) -> bool:
        """Whether it still holds (not lifted, and its cool-off not over)."""
        return self.unlocked_at is None and self.locked_until > timezone.now()
