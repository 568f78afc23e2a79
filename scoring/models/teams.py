"""Teams of a team event and their team matches: two pairs of one team against two of
another at two tables next to each other (``Party.team_match`` and ``Party.board``)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .party import Round
from .tournament import Tournament

BOARDS = 2
"""How many boards (tables, each a party) a team match has in each half."""


class Team(models.Model):
    """A club's or a country's pairs who play and are ranked together in one tournament;
    its pairs point at it (``Pair.team``)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="teams"
    )
    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    country = models.CharField(_("country"), max_length=100, blank=True)
    captain = models.ForeignKey(
        "Player", verbose_name=_("captain"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    rating = models.IntegerField(
        _("rating"), default=0, help_text=_("Seeding strength: its pairs' mean rating."))
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    disqualified = models.BooleanField(_("disqualified"), default=False)

    class Meta:
        db_table = "scoring_team"
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_team_name")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def available(self) -> bool:
        """Whether the team takes part in later draws (neither withdrawn nor disqualified)."""
        return not (self.withdrawn or self.disqualified)


class TeamMatch(models.Model):
    """Two teams in one round: board 1 at ``first_table``, board 2 at the next table; with two
    halves the second half swaps the opponents (A1–B2, A2–B1). Its parties are ordinary
    parties (``Party.team_match``); its result comes from them (``scoring.teams``)."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="team_matches"
    )
    team_a = models.ForeignKey(
        Team, verbose_name=_("team A"), on_delete=models.PROTECT, related_name="+"
    )
    team_b = models.ForeignKey(
        Team, verbose_name=_("team B"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="+", help_text=_("Empty for a bye."),
    )
    first_table = models.PositiveIntegerField(
        _("first table"), null=True, blank=True,
        help_text=_("Board 1's table number; board 2 plays at the next table."),
    )
    knockout_match = models.OneToOneField(
        "Match", verbose_name=_("knockout match"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="team_match",
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        db_table = "scoring_team_match"
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")
        ordering = ["round", "first_table", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(team_a=models.F("team_b")), name="team_match_teams_distinct"
            ),
        ]

    def __str__(self) -> str:
        b = self.team_b.name if self.team_b is not None else _("bye")
        return f"{self.round} · {self.team_a.name} — {b}"

    @property
    def is_bye(self) -> bool:
        """True when the team has no opponent this round."""
        return self.team_b_id is None
