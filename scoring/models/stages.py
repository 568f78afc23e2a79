"""A tournament's stages (qualifying, then finals), the groups of a groups stage and the
matches of a knockout bracket."""

from __future__ import annotations

from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from .entrants import Pair
from .tournament import Tournament


class Stage(models.Model):
    """One stage of a tournament in order: its format and its own rounds (a tournament of
    one stage is every tournament before finals)."""

    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round robin")
        INDIVIDUAL = "individual", _("Individual rounds")
        GROUPS = "groups", _("Round-robin groups")
        KNOCKOUT = "knockout", _("Knockout")

    class Status(models.TextChoices):
        PENDING = "pending", _("Not drawn")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="stages"
    )
    order = models.PositiveSmallIntegerField(_("order"), validators=[MinValueValidator(1)])
    format = models.CharField(_("format"), max_length=20, choices=Format.choices)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.RUNNING
    )
    bracket_size = models.PositiveSmallIntegerField(
        _("qualifiers"), null=True, blank=True,
        help_text=_("How many entrants the stage takes from the previous one."),
    )
    third_place = models.BooleanField(_("match for third place"), default=False)
    best_of = models.PositiveSmallIntegerField(
        _("parties per match (best of)"), default=1,
        validators=[MinValueValidator(1), MaxValueValidator(9)],
    )
    group_count = models.PositiveSmallIntegerField(_("groups"), null=True, blank=True)
    qualifiers = models.JSONField(
        _("qualifiers"), default=list, blank=True,
        help_text=_("Pair ids in seed order, as the stage was drawn."),
    )
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        db_table = "scoring_stage"
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["tournament", "order"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"], name="unique_stage_order")
        ]

    def __str__(self) -> str:
        return f"{self.order}. {self.get_format_display()}"

    @property
    def is_knockout(self) -> bool:
        """Whether the stage is a knockout bracket."""
        return self.format == self.Format.KNOCKOUT

    @property
    def wins_needed(self) -> int:
        """How many parties a side must win to take a match of the stage."""
        return self.best_of // 2 + 1


class Group(models.Model):
    """One group of a groups stage: a round robin among its entrants."""

    stage = models.ForeignKey(
        Stage, verbose_name=_("stage"), on_delete=models.CASCADE, related_name="groups"
    )
    name = models.CharField(_("name"), max_length=20)
    entrants = models.ManyToManyField(
        Pair, db_table="scoring_group_entrants", verbose_name=_("entrants"),
        related_name="stage_groups",
    )
    teams: models.ManyToManyField[Any, Any] = models.ManyToManyField(
        "Team", db_table="scoring_group_teams", verbose_name=_("teams"), blank=True,
        related_name="stage_groups", help_text=_("A team event's groups draw teams."),
    )

    class Meta:
        db_table = "scoring_group"
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        ordering = ["stage", "name"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "name"], name="unique_group_name")
        ]

    def __str__(self) -> str:
        return str(_("Group %(name)s") % {"name": self.name})


class Match(models.Model):
    """One match of a knockout bracket: two slots, one party or the best of N, a winner."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for its sides")
        READY = "ready", _("Ready")
        DECIDED = "decided", _("Decided")

    stage = models.ForeignKey(
        Stage, verbose_name=_("stage"), on_delete=models.CASCADE, related_name="matches"
    )
    bracket_round = models.PositiveSmallIntegerField(
        _("bracket round"), validators=[MinValueValidator(1)],
        help_text=_("1 for the first round; the last is the final."),
    )
    position = models.PositiveSmallIntegerField(_("position"), default=0)
    third_place = models.BooleanField(_("match for third place"), default=False)
    pair_a = models.ForeignKey(
        Pair, verbose_name=_("pair A"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="+",
    )
    pair_b = models.ForeignKey(
        Pair, verbose_name=_("pair B"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="+",
    )
    seed_a = models.PositiveSmallIntegerField(_("seed A"), null=True, blank=True)
    seed_b = models.PositiveSmallIntegerField(_("seed B"), null=True, blank=True)
    bye = models.BooleanField(_("bye"), default=False, help_text=_("One side has no opponent."))
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.WAITING
    )
    winner = models.ForeignKey(
        Pair, verbose_name=_("winner"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="+",
    )
    team_a = models.ForeignKey(
        "Team", verbose_name=_("team A"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="+", help_text=_("A team event's knockout: the teams instead of pairs."),
    )
    team_b = models.ForeignKey(
        "Team", verbose_name=_("team B"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="+",
    )
    team_winner = models.ForeignKey(
        "Team", verbose_name=_("winning team"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="+",
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        db_table = "scoring_match"
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["stage", "third_place", "bracket_round", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "bracket_round", "position", "third_place"],
                name="unique_match_slot",
            )
        ]

    def __str__(self) -> str:
        return f"{self.stage_id}/{self.bracket_round}.{self.position + 1}"

    def pair(self, side: str) -> Pair | None:
        """The pair on a side ("a" or "b")."""
        return self.pair_a if side == "a" else self.pair_b

    def loser_id(self) -> int | None:
        """The decided match's loser (None for a bye or while undecided)."""
        if self.winner_id is None or self.pair_a_id is None or self.pair_b_id is None:
            return None
        return self.pair_b_id if self.winner_id == self.pair_a_id else self.pair_a_id
