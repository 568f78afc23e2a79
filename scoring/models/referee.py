"""Penalties, rulings, the party desk, idempotency keys and the append-only party event log."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

SIDE_CHOICES = [(key, key.upper()) for key in ("a", "b", "a1", "b1", "a2", "b2")]
"""Whom a penalty or ruling concerns: a side, or a player's seat where every player scores
for himself."""


class RefereeRecord(models.Model):
    """What every record of a referee's decision carries: why, the device's id, who and when.

    A retried request from a device carries the same client id: the party keeps one record.
    """

    reason = models.CharField(_("reason"), max_length=300, blank=True)
    client_id = models.CharField(_("client id"), max_length=64, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("given by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("given at"), auto_now_add=True)

    class Meta:
        abstract = True
        ordering = ["party_id", "created_at", "id"]  # by the column: no join to the party
        constraints = [
            models.UniqueConstraint(
                fields=["party", "client_id"],
                condition=~Q(client_id=""),
                name="unique_%(class)s_client_id",
            ),
        ]


class Penalty(RefereeRecord):
    """A warning, fine or disqualification given to a pair (and player) in a party."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("Warning")
        FINE = "fine", _("Fine")
        DISQUALIFICATION = "disqualification", _("Disqualification")

    class Category(models.TextChoices):
        MOVE_TIME = "move_time", _("Move time")
        TALKING = "talking", _("Talking")
        SIGNS = "signs", _("Signs")
        CONDUCT = "conduct", _("Eating, drinking or smoking")
        TOUCHED_TILE = "touched_tile", _("Touched tile")
        OUT_OF_TURN = "out_of_turn", _("Out of turn")
        FALSE_PASS = "false_pass", _("False pass")
        OTHER = "other", _("Other")

    class Mode(models.TextChoices):
        DEDUCT = "deduct", _("Deducted from the offender")
        AWARD = "award", _("Awarded to the opponents")

    party = models.ForeignKey(
        "scoring.Party",
        verbose_name=_("party"),
        on_delete=models.CASCADE,
        related_name="penalties",
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    category = models.CharField(_("violation"), max_length=20, choices=Category.choices)
    side = models.CharField(
        _("side"),
        max_length=2,
        choices=SIDE_CHOICES,
    )
    player = models.ForeignKey(
        "scoring.Player",
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="penalties",
    )
    points = models.PositiveIntegerField(_("points"), default=0)
    mode = models.CharField(_("fine mode"), max_length=10, choices=Mode.choices, blank=True)
    deal_number = models.PositiveIntegerField(_("deal"), null=True, blank=True)
    game = models.PositiveIntegerField(_("game"), default=1)
    escalated_from = models.ForeignKey(
        "self",
        verbose_name=_("escalated from"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    cancelled = models.BooleanField(_("cancelled"), default=False)

    class Meta(RefereeRecord.Meta):
        db_table = "referee_penalty"
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.get_category_display()} ({self.side.upper()})"


class AppendOnlyError(Exception):
    """Raised when code tries to change or delete a logged event."""


class PartyEvent(models.Model):
    """One entry of a party's append-only event log: who, when, what, why."""

    party = models.ForeignKey(
        "scoring.Party",
        verbose_name=_("party"),
        on_delete=models.CASCADE,
        related_name="events",
    )
    seq = models.PositiveIntegerField(_("sequence"))
    at = models.DateTimeField(_("at"), auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    kind = models.CharField(_("what"), max_length=40)
    data = models.JSONField(_("details"), default=dict, blank=True)
    reason = models.CharField(_("why"), max_length=300, blank=True)

    class Meta:
        db_table = "referee_partyevent"
        verbose_name = _("party event")
        verbose_name_plural = _("party events")
        ordering = ["party_id", "seq"]  # by the column: no join to the party
        constraints = [
            models.UniqueConstraint(fields=["party", "seq"], name="unique_event_seq"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"

    def save(self, *args: object, **kwargs: object) -> None:
        """Insert only: a logged event is never changed."""
        if self.pk is not None:
            raise AppendOnlyError("party events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        """Refuse: a logged event is never deleted."""
        raise AppendOnlyError("party events are append-only")



class RefereeSettings(models.Model):
    """The referee-desk settings of a tournament that its regulations do not hold."""

    class Preset(models.TextChoices):
        SPORT = "sport", _("Sport domino: warnings then fines, as the regulations say")
        UDL = "udl", _("Universal Domino League: the second slow play pays the opponent")

    tournament = models.OneToOneField(
        "scoring.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="referee_settings",
    )
    penalty_preset = models.CharField(
        _("penalty rules"), max_length=10, choices=Preset.choices, default=Preset.SPORT
    )

    class Meta:
        db_table = "referee_refereesettings"
        verbose_name = _("referee settings")
        verbose_name_plural = _("referee settings")

    def __str__(self) -> str:
        return str(self.tournament)


class PartyDesk(models.Model):
    """The referee's notes about one party: who checked in, and a raised no-show candidate.

    Presence is kept per player (``present_seats``: seat → the moment he checked in); a side
    is present (``present_a``/``present_b``, kept by ``referee.services.check_in``) once every
    one of its players is: with one or both players absent a pair is a no-show (seed 001).
    """

    party = models.OneToOneField(
        "scoring.Party",
        verbose_name=_("party"),
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="desk",
    )
    present_a = models.DateTimeField(_("pair A present since"), null=True, blank=True)
    present_b = models.DateTimeField(_("pair B present since"), null=True, blank=True)
    present_seats = models.JSONField(
        _("players present since"), default=dict, blank=True,
        help_text=_("Seat (a1, a2, b1, b2) → the moment the player checked in."),
    )
    no_show_raised_at = models.DateTimeField(
        _("no-show candidate raised at"), null=True, blank=True
    )
    no_show_sides = models.CharField(_("absent pairs"), max_length=2, blank=True)

    class Meta:
        db_table = "referee_partydesk"
        verbose_name = _("party desk")
        verbose_name_plural = _("party desks")

    def __str__(self) -> str:
        return str(self.party_id)

    def present(self, side: str) -> bool:
        """Whether every player of the pair on ``side`` was marked present."""
        return getattr(self, f"present_{side}") is not None

    def seat_present(self, seat: str) -> bool:
        """Whether the player on ``seat`` was marked present (his side as a whole, before
        presence was kept per player, counts for him)."""
        return seat in (self.present_seats or {}) or self.present(seat[0])

    @property
    def absent_sides(self) -> str:
        """The sides not yet marked present ("", "a", "b" or "ab")."""
        return "".join(side for side in ("a", "b") if not self.present(side))


class Ruling(RefereeRecord):
    """A referee decision with consequences: who decided what, about whom, and why."""

    class Kind(models.TextChoices):
        OUT_OF_TURN = "out_of_turn", _("Out of turn")
        FALSE_PASS = "false_pass", _("False pass")
        TOUCHED_TILE = "touched_tile", _("Touched tile")
        NO_SHOW = "no_show", _("No-show")
        DISQUALIFICATION = "disqualification", _("Disqualification")
        TIMEOUT = "timeout", _("Player timed out")
        REDEAL = "redeal", _("Redeal")

    class Choice(models.TextChoices):
        CONTINUE = "continue", _("Continue: the exposed tile is played first")
        RESHUFFLE = "reshuffle", _("Reshuffle: the deal is annulled")
        PARTY = "party", _("From the party")
        TOURNAMENT = "tournament", _("From the tournament")

    party = models.ForeignKey(
        "scoring.Party",
        verbose_name=_("party"),
        on_delete=models.CASCADE,
        related_name="rulings",
    )
    kind = models.CharField(_("ruling"), max_length=20, choices=Kind.choices)
    side = models.CharField(
        _("side"),
        max_length=2,
        choices=SIDE_CHOICES,
    )
    seat = models.CharField(_("player's seat"), max_length=2, blank=True)
    player = models.ForeignKey(
        "scoring.Player",
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rulings",
    )
    choice = models.CharField(_("choice"), max_length=20, choices=Choice.choices, blank=True)
    deal_number = models.PositiveIntegerField(_("deal"), null=True, blank=True)
    game = models.PositiveIntegerField(_("game"), default=1)
    details = models.JSONField(_("details"), default=dict, blank=True)
    deal = models.ForeignKey(
        "scoring.Deal",
        verbose_name=_("deal recorded or annulled"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    penalty = models.ForeignKey(
        Penalty,
        verbose_name=_("penalty"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta(RefereeRecord.Meta):
        db_table = "referee_ruling"
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.side.upper()})"


class IdempotencyKey(models.Model):
    """A client's Idempotency-Key and the response it got, replayed for a retried request."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE, related_name="+"
    )
    key = models.CharField(_("key"), max_length=100)
    fingerprint = models.CharField(_("request fingerprint"), max_length=64)
    status_code = models.PositiveIntegerField(_("response status"), null=True, blank=True)
    response = models.JSONField(_("response"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)

    class Meta:
        db_table = "referee_idempotencykey"
        verbose_name = _("idempotency key")
        verbose_name_plural = _("idempotency keys")
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="unique_idempotency_key"),
        ]

    def __str__(self) -> str:
        return self.key
