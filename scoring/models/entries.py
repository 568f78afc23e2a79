"""Online entries: a tournament's entry settings and the entries players make on the site."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from .entrants import Pair, Player
from .people import Profile
from .seasons import Season
from .tournament import Tournament

MAIL_KINDS = (
    ("entry_received", _("Entry received")),
    ("entry_accepted", _("Entry accepted")),
    ("entry_refused", _("Entry refused")),
    ("entry_promoted", _("Moved up from the waiting list")),
    ("partner_confirm", _("Partner asked to confirm")),
    ("signup_confirm", _("Sign-up: confirm the address")),
    ("draw_published", _("The draw is out: your table")),
    ("checkin_open", _("Check-in is open")),
)
"""Every kind of mail the site sends a tournament's players (each can be switched off)."""


class EntrySettings(models.Model):
    """How a tournament takes entries on the site, and which mails it sends."""

    class Mode(models.TextChoices):
        PAIRS = "pairs", _("A pair enters together (both partners confirm)")
        ALONE = "alone", _("Players enter alone (the organizer pairs them)")

    tournament = models.OneToOneField(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="entry_settings",
    )
    open = models.BooleanField(_("entries open on the site"), default=False)
    opens_at = models.DateTimeField(_("entries open at"), null=True, blank=True)
    closes_at = models.DateTimeField(_("entries close at"), null=True, blank=True)
    mode = models.CharField(_("who enters"), max_length=10, choices=Mode.choices,
                            default=Mode.PAIRS)
    capacity = models.PositiveIntegerField(
        _("places"), default=16, validators=[MinValueValidator(1), MaxValueValidator(10000)],
        help_text=_("Pairs when a pair enters together, players otherwise; beyond it entries "
                    "wait."),
    )
    rating_min = models.IntegerField(_("lowest rating"), null=True, blank=True)
    rating_max = models.IntegerField(_("highest rating"), null=True, blank=True)
    season = models.ForeignKey(
        Season, verbose_name=_("season"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", help_text=_("Only players who played a tournament of this season."),
    )
    confirm_hours = models.PositiveIntegerField(
        _("hours for the partner to confirm"), default=48,
        validators=[MinValueValidator(1), MaxValueValidator(720)],
        help_text=_("An entry whose partner has not confirmed by then expires; its place "
                    "is freed."),
    )
    disabled_mails = models.JSONField(_("mails switched off"), default=list, blank=True)

    class Meta:
        verbose_name = _("entry settings")
        verbose_name_plural = _("entry settings")

    def __str__(self) -> str:
        return str(self.tournament)


class Entry(models.Model):
    """One entry made on the site: a player (and his partner) asking for a place."""

    class Status(models.TextChoices):
        SIGNUP = "signup", _("Address not confirmed yet")
        PARTNER = "partner", _("Waiting for the partner")
        RECEIVED = "received", _("Received")
        WAITING = "waiting", _("On the waiting list")
        ACCEPTED = "accepted", _("Accepted")
        REFUSED = "refused", _("Refused")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        EXPIRED = "expired", _("Expired")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="entries",
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.SIGNUP)
    name = models.CharField(_("name"), max_length=200)
    email = models.EmailField(_("email"), max_length=254)
    club = models.CharField(_("club"), max_length=200, blank=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    birth_year = models.PositiveSmallIntegerField(
        _("birth year"), null=True, blank=True,
        validators=[MinValueValidator(1900), MaxValueValidator(2100)])
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user account"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    profile = models.ForeignKey(
        Profile, verbose_name=_("player profile"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    partner_name = models.CharField(_("partner's name"), max_length=200, blank=True)
    partner_email = models.EmailField(_("partner's email"), max_length=254, blank=True)
    partner_profile = models.ForeignKey(
        Profile, verbose_name=_("partner's profile"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    partner_confirmed_at = models.DateTimeField(_("partner confirmed at"), null=True, blank=True)
    doubts = models.JSONField(
        _("profiles to choose"), default=dict, blank=True,
        help_text=_("A doubtful match: the candidate profiles of the player or the partner, "
                    "left to the organizer."),
    )
    email_confirmed_at = models.DateTimeField(_("address confirmed at"), null=True, blank=True)
    created_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    queued_at = models.DateTimeField(_("in line since"), null=True, blank=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("decided by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    note = models.CharField(_("organizer's note"), max_length=300, blank=True)
    pair = models.ForeignKey(Pair, verbose_name=_("pair"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="+")
    player = models.ForeignKey(Player, verbose_name=_("player"), null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="+")

    HOLDING = (Status.PARTNER, Status.RECEIVED)
    """Statuses that hold a place before the organizer's decision (accepted ones are entrants)."""
    LIVE = (Status.SIGNUP, Status.PARTNER, Status.RECEIVED, Status.WAITING, Status.ACCEPTED)
    """Statuses of an entry still in play (a person is in at most one of them)."""

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "created_at", "pk"]
        indexes = [models.Index(fields=["tournament", "status"], name="entry_status_idx")]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """The entry as pages name it: "Игрок 1 / Игрок 2" (one name alone)."""
        return Pair.label("", self.name, self.partner_name or None)
