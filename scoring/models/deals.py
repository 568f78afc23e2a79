"""Deals of a party, with the points per side or per player's seat."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

MAX_DEAL_POINTS = 1000
"""The most a side can score in one deal in any rule set (each rule set checks its own)."""

class Deal(models.Model):
    """One deal of a party with its score per pair."""

    class Outcome(models.TextChoices):
        DOMINO = "domino", _("Domino")
        FISH = "fish", _("Fish")
        DRAWN_FISH = "drawn_fish", _("Fish, equal pips")
        ANNULLED = "annulled", _("Annulled")
        REFEREE = "referee", _("Ended by the referee")
        STOPPED = "stopped", _("Stopped: the game ended during play")

    party = models.ForeignKey(
        "scoring.Party",
        verbose_name=_("party"),
        on_delete=models.CASCADE,
        related_name="deals",
    )
    number = models.PositiveIntegerField(_("number"), validators=[MinValueValidator(1)])
    outcome = models.CharField(_("how it ended"), max_length=20, choices=Outcome.choices)
    winner = models.CharField(
        _("winner"), max_length=2, blank=True, help_text=_("A pair (a, b) or a player's seat.")
    )
    points_a = models.PositiveIntegerField(_("points of side A"), default=0)
    points_b = models.PositiveIntegerField(_("points of side B"), default=0)
    scores = models.JSONField(
        _("points per side or player"),
        null=True,
        blank=True,
        help_text=_("As the rule set scores: per pair, or per player's seat (Kozel, Classic)."),
    )
    carry = models.PositiveIntegerField(
        _("points left on the table"), default=0, help_text=_("A drawn fish's points.")
    )
    game = models.PositiveIntegerField(
        _("game"), default=1, validators=[MinValueValidator(1)],
        help_text=_("The game of the match (UDL, All Fives)."),
    )
    plays = models.JSONField(
        _("points made during play"),
        null=True,
        blank=True,
        help_text=_("All Fives: each scoring play as [player, points], in order."),
    )
    play_points = models.JSONField(_("points made during play per side"), null=True, blank=True)
    led = models.CharField(_("led the deal"), max_length=2, blank=True)
    play_ended_before_time_up = models.BooleanField(
        _("play ended before the time ran out"),
        default=False,
        help_text=_(
            "The party's time ran out while this deal was counted or the tiles shuffled: it is "
            "not the last deal, one more is played."
        ),
    )
    went_out = models.CharField(_("went out"), max_length=2, blank=True)
    fish_by = models.CharField(
        _("made the fish"), max_length=2, blank=True,
        help_text=_("The seat of the player who blocked the line (Kozel: he leads the next deal)."),
    )
    pips = models.JSONField(_("pips left per player"), null=True, blank=True)
    tiles = models.JSONField(_("tiles left per player"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)
    client_id = models.CharField(_("client id"), max_length=64, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    entered_at = models.DateTimeField(
        _("entered at"),
        null=True,
        blank=True,
        help_text=_(
            "When the referee entered the deal on his device (on the server's clock): it "
            "decides whether the deal was played before the time ran out. Empty: the time it "
            "arrived (recorded at) counts."
        ),
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["party_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["party", "number"], name="unique_deal_number"),
            models.UniqueConstraint(
                fields=["party", "client_id"],
                condition=~Q(client_id=""),
                name="unique_deal_client_id",
            ),
        ]

    def __str__(self) -> str:
        return str(_("Deal %(number)s") % {"number": self.number})

    def points_by_side(self) -> dict[str, int]:
        """The deal's points as the rule set scored them (per pair, or per player's seat)."""
        return dict(self.scores) if self.scores else {"a": self.points_a, "b": self.points_b}


