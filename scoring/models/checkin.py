"""Check-in at the hall: a window before a round, and who confirmed he is there during it."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .entrants import Pair, Player
from .tournament import Tournament


class CheckInWindow(models.Model):
    """A time before a round's draw in which the entrants confirm they are in the hall.

    Once it has opened, the draw of its round seats only the entrants checked in
    (``tournaments.checkin.services.checked_in_field``); one window per round.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="checkin_windows",
    )
    round_number = models.PositiveIntegerField(
        _("round"), default=1,
        help_text=_("The round whose draw seats only the entrants checked in."),
    )
    opens_at = models.DateTimeField(_("opens at"), default=timezone.now)
    closes_at = models.DateTimeField(_("closes at"))
    closed = models.BooleanField(_("closed"), default=False)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    announced_at = models.DateTimeField(
        _("\"check-in open\" mailed at"), null=True, blank=True,
        help_text=_("When the entrants were mailed that the window is open (once)."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("check-in window")
        verbose_name_plural = _("check-in windows")
        ordering = ["tournament", "round_number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round_number"],
                                    name="one_checkin_window_per_round"),
            models.CheckConstraint(condition=Q(closes_at__gt=models.F("opens_at")),
                                   name="checkin_window_closes_after_opening"),
        ]

    def __str__(self) -> str:
        return str(_("Check-in before round %(number)s") % {"number": self.round_number})

    def is_open(self, now: datetime | None = None) -> bool:
        """Whether entrants may check in now (opened, not yet closed or past its end)."""
        moment = now or timezone.now()
        return not self.closed and self.opens_at <= moment < self.closes_at

    def has_opened(self, now: datetime | None = None) -> bool:
        """Whether the window has opened (then its round's draw counts the check-ins)."""
        return self.opens_at <= (now or timezone.now())


class CheckIn(models.Model):
    """One entrant (a pair, or a player of an individual event) confirmed in the hall."""

    class How(models.TextChoices):
        PHONE = "phone", _("on his phone")
        QR = "qr", _("by QR at the door")
        ORGANIZER = "organizer", _("by the organizer")

    window = models.ForeignKey(
        CheckInWindow, verbose_name=_("check-in window"), on_delete=models.CASCADE,
        related_name="checkins",
    )
    pair = models.ForeignKey(
        Pair, verbose_name=_("pair"), null=True, blank=True, on_delete=models.CASCADE,
        related_name="checkins",
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), null=True, blank=True, on_delete=models.CASCADE,
        related_name="checkins",
    )
    how = models.CharField(_("how"), max_length=10, choices=How.choices)
    at = models.DateTimeField(_("checked in at"), default=timezone.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("checked in by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        ordering = ["window", "at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["window", "pair"], name="one_checkin_per_pair"),
            models.UniqueConstraint(fields=["window", "player"], name="one_checkin_per_player"),
            models.CheckConstraint(
                condition=Q(pair__isnull=True, player__isnull=False)
                | Q(pair__isnull=False, player__isnull=True),
                name="checkin_of_one_entrant",
            ),
        ]

    def __str__(self) -> str:
        return str(self.pair or self.player)

    @property
    def entrant_id(self) -> int:
        """The id of the pair, or of the player in an individual event."""
        return int(self.pair_id or self.player_id or 0)
