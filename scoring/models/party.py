"""Rounds and their parties: one match of two sides at one table."""

from __future__ import annotations

from datetime import datetime

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .entrants import Pair, Player, Table
from .stages import Match, Stage
from .tournament import Tournament


class Round(models.Model):
    """One sitting of the tournament: every pair plays one party."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveIntegerField(_("number"), validators=[MinValueValidator(1)])
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    stage = models.ForeignKey(
        Stage, verbose_name=_("stage"), null=True, blank=True, on_delete=models.CASCADE,
        related_name="rounds", help_text=_("Empty in a file of before stages: the first."),
    )
    bracket_round = models.PositiveSmallIntegerField(
        _("bracket round"), null=True, blank=True,
        help_text=_("A knockout stage's round this round plays (1 = its first)."),
    )
    match_game = models.PositiveSmallIntegerField(
        _("party of the match"), null=True, blank=True,
        help_text=_("Which party of a best-of match this round plays (1 = the first)."),
    )
    seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    draw_warnings = models.JSONField(
        _("draw warnings"),
        default=list,
        blank=True,
        help_text=_("What the organizer should look at before publishing (template + params)."),
    )
    drawn_at = models.DateTimeField(_("drawn at"), null=True, blank=True)
    scheduled_start = models.DateTimeField(_("scheduled start"), null=True, blank=True)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        db_table = "tournaments_round"
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number")
        ]

    def __str__(self) -> str:
        return str(_("Round %(number)s") % {"number": self.number})

    def get_absolute_url(self) -> str:
        """The round's page: its draw and results."""
        return reverse("tournaments:round", args=[self.tournament.slug, self.number])

    @property
    def is_published(self) -> bool:
        """Whether players and the public may see the draw."""
        return self.status != self.Status.DRAFT

    def warning_texts(self) -> list[str]:
        """The draw's warnings, translated into the current language."""
        return [
            gettext(w["message"]) % w["params"] if w.get("params") else gettext(w["message"])
            for w in self.draw_warnings
        ]


class Party(models.Model):
    """One match of two pairs at one table, time-limited, played to the target."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Not started")
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")

    class EndReason(models.TextChoices):
        TARGET = "target", _("Target reached")
        TIME = "time", _("Time expired")
        FORFEIT = "forfeit", _("Forfeit (no-show)")
        DISQUALIFICATION = "disqualification", _("Disqualification")
        BYE = "bye", _("Bye")
        TIMEOUT = "timeout", _("A player's timeout")

    class Side(models.TextChoices):
        A = "a", _("Pair A")
        B = "b", _("Pair B")

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="parties"
    )
    table = models.ForeignKey(
        Table,
        verbose_name=_("table"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="parties",
    )
    pair_a = models.ForeignKey(
        Pair, verbose_name=_("pair A"), on_delete=models.PROTECT, related_name="parties_as_a"
    )
    pair_b = models.ForeignKey(
        Pair,
        verbose_name=_("pair B"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="parties_as_b",
        help_text=_("Empty for a bye."),
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.SCHEDULED
    )
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    paused_at = models.DateTimeField(_("clock paused at"), null=True, blank=True)
    paused_seconds = models.FloatField(_("seconds paused"), default=0)
    time_expired_at = models.DateTimeField(_("time expired at"), null=True, blank=True)
    first_mover = models.CharField(
        _("first move (the start-of-party draw)"), max_length=2, blank=True,
        help_text=_("The seat of the player whose tile had the most pips: he leads deal 1."),
    )
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    end_reason = models.CharField(
        _("how the party ended"), max_length=20, choices=EndReason.choices, blank=True
    )
    winner = models.CharField(_("winner"), max_length=2, blank=True)
    loser = models.CharField(
        _("loser"), max_length=2, blank=True, help_text=_("Kozel: the Goat's seat or pair.")
    )
    game = models.PositiveIntegerField(
        _("game in play"), default=1, help_text=_("Matches of several games (UDL, All Fives).")
    )
    game_started_seconds = models.FloatField(
        _("party time when the game began (seconds)"), default=0
    )
    game_expired_at = models.DateTimeField(_("game time expired at"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=1)
    match = models.ForeignKey(
        Match, verbose_name=_("knockout match"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="parties",
    )

    team_match = models.ForeignKey(
        "TeamMatch", verbose_name=_("team match"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="parties",
    )
    board = models.PositiveSmallIntegerField(
        _("board"), null=True, blank=True, help_text=_("A team match's board (1 or 2)."))
    half = models.PositiveSmallIntegerField(
        _("half"), default=1, validators=[MinValueValidator(1)],
        help_text=_("A team match of two halves: 2 for the second, at the same tables."),
    )

    class Meta:
        db_table = "tournaments_party"
        verbose_name = _("party")
        verbose_name_plural = _("parties")
        ordering = ["round", "table__number", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table", "half"], name="unique_table_per_round_half"
            ),
            models.CheckConstraint(
                condition=~Q(pair_a=models.F("pair_b")), name="party_pairs_distinct"
            ),
        ]

    def __str__(self) -> str:
        b = self.pair_b.display_name if self.pair_b is not None else _("bye")
        return f"{self.round} · {self.table or ''} · {self.pair_a.display_name} — {b}"

    def get_absolute_url(self) -> str:
        """The party page."""
        return reverse("tournaments:party", args=[self.pk])

    @property
    def is_bye(self) -> bool:
        """True when the party has no opponent."""
        return self.pair_b_id is None

    def result_for(self, own: set[str], per_seat: bool) -> str:
        """A finished party's result for the side and seat in ``own``: won, lost, bye,
        forfeit_won or forfeit_lost; where each plays for himself (``per_seat``) a loser is
        the Goat (``goat``) or neither winner nor Goat (``played``)."""
        if self.is_bye:
            return "bye"
        won = self.winner in own
        if self.end_reason in (self.EndReason.FORFEIT, self.EndReason.DISQUALIFICATION):
            return "forfeit_won" if won else "forfeit_lost"
        if per_seat and not won:
            return "goat" if self.loser and self.loser in own else "played"
        return "won" if won else "lost"

    @property
    def lost_by(self) -> str:
        """Who lost the finished party: the stored loser (Kozel's Goat, a ruling's loser), else
        the opponent of the winner where a party has one (the other side; the other seat of
        two single players each keeping his own score); blank when nobody lost alone."""
        if self.loser or self.status != self.Status.FINISHED or self.is_bye:
            return self.loser
        if self.winner in ("a", "b"):
            return "b" if self.winner == "a" else "a"
        if self.winner in ("a1", "b1") and self.pair_b is not None and (
            self.pair_a.player2_id is None and self.pair_b.player2_id is None
        ):
            return "b1" if self.winner == "a1" else "a1"
        return ""

    @property
    def tournament(self) -> Tournament:
        """The tournament the party belongs to."""
        return self.round.tournament

    def pair(self, side: str) -> Pair | None:
        """The pair on a side ("a" or "b")."""
        return self.pair_a if side == "a" else self.pair_b

    def elapsed_seconds(self, now: datetime | None = None) -> float:
        """Seconds of play so far (pauses excluded); the server's clock is authoritative."""
        if not self.started_at:
            return 0.0
        end = self.finished_at or self.paused_at or now or timezone.now()
        return max(0.0, (end - self.started_at).total_seconds() - self.paused_seconds)

    @property
    def limit_seconds(self) -> int | None:
        """The party's time limit in seconds; None when the regulations set no party clock."""
        minutes = self.round.tournament.regulations.party_minutes
        return None if minutes is None else minutes * 60

    @property
    def has_clock(self) -> bool:
        """Whether the party has a clock (the Kozel preset has none: it ends by its rules)."""
        return self.limit_seconds is not None

    def seconds_left(self, now: datetime | None = None) -> float | None:
        """Seconds until the party's time limit (negative after it); None without a clock."""
        limit = self.limit_seconds
        return None if limit is None else limit - self.elapsed_seconds(now)

    def time_is_out(self, now: datetime | None = None) -> bool:
        """Whether the party's clock has run out (never for a party without a clock)."""
        left = self.seconds_left(now)
        return left is not None and left <= 0

    def game_seconds_left(self, now: datetime | None = None) -> float:
        """Seconds until the time limit of the game in play (matches of games only)."""
        limit = self.round.tournament.regulations.game_minutes * 60
        return limit - (self.elapsed_seconds(now) - self.game_started_seconds)

    def seat_player(self, seat: str) -> Player | None:
        """The player on one seat ("a1" … "b2"; None for an empty seat or a side): one load."""
        if len(seat) != 2 or seat[0] not in "ab" or seat[1] not in "12":
            return None
        pair = self.pair(seat[0])
        if pair is None:
            return None
        if seat[1] == "1":
            return pair.player1
        return pair.player2 if pair.player2_id is not None else None

    def seat_players(self) -> dict[str, Player]:
        """The players by seat: a1 and a2 of pair A, b1 and b2 of pair B (present ones only)."""
        seats: dict[str, Player] = {}
        for side, pair in (("a", self.pair_a), ("b", self.pair_b)):
            if pair is None:
                continue
            seats[f"{side}1"] = pair.player1
            if pair.player2 is not None:
                seats[f"{side}2"] = pair.player2
        return seats


PARTY_RELATED = (
    "round__tournament__regulations",
    "table",
    "pair_a__player1",
    "pair_a__player2",
    "pair_b__player1",
    "pair_b__player2",
)
"""What a page, a screen or a protocol of one party ``select_related``s: its round, tournament,
regulations, table and players."""
