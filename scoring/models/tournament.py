"""The tournament and the roles of its staff (its regulations are in ``regulations``)."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.core.timezones import validate_time_zone
from scoring.rules import RuleSet as RuleSetEngine
from scoring.rules import get_rule_set, rule_set_choices


def registered_rule_sets() -> list[tuple[str, Any]]:
    """Every registered rule set as (code, translated name), read from the registry at each use
    (a game registered after start-up, as a test's toy game, is a valid choice too)."""
    return [(code, _(name)) for code, name in rule_set_choices()]


TEAM_TIE_BREAKS = ("party_wins", "point_difference", "head_to_head", "buchholz")
"""The tie-breaks a team event may order after the team score, in their default order."""


def team_tie_breaks_default() -> list[str]:
    """A team event's tie-breaks when the organizer has not ordered them."""
    return list(TEAM_TIE_BREAKS)


def new_access_token() -> str:
    """A fresh unguessable key for a player's personal link."""
    return secrets.token_urlsafe(24)


class Tournament(models.Model):
    """One event, with its regulations."""

    class Format(models.TextChoices):
        PAIRS = "pairs", _("Pairs tournament")
        INDIVIDUAL = "individual", _("Individual tournament")
        TEAMS = "teams", _("Team tournament")

    class TeamScoring(models.TextChoices):
        MATCH_POINTS = "match_points", _("Match points: 2 for a match won, 1 each when level")
        PARTIES = "parties", _("Parties won")
        POINTS = "points", _("Points over the boards")
        EFECTIVENESS = "efectiveness", _("Efectiveness over the boards")

    class TeamMembers(models.TextChoices):
        PAIRS = "pairs", _("Fixed pairs")
        PLAYERS = "players", _("Players the captain pairs for each match")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    # django-stubs types only TextChoices' one-member call, not the functional Enum API
    RuleSet = models.TextChoices(  # type: ignore[call-overload]
        "RuleSet", [(code.upper(), (code, _(name))) for code, name in rule_set_choices()]
    )
    """The rule sets registered at start-up (``scoring.rules``); the field's choices follow the
    registry (``registered_rule_sets``)."""

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=80, unique=True, allow_unicode=True)
    rule_set = models.CharField(
        _("rule set"), max_length=20, choices=registered_rule_sets, default=RuleSet.SPORT
    )
    format = models.CharField(
        _("format"), max_length=20, choices=Format.choices, default=Format.PAIRS
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.REGISTRATION
    )
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    start_date = models.DateField(_("start date"), default=timezone.localdate)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default="Europe/Moscow",
        validators=[validate_time_zone],
        help_text=_("Dates and times of the tournament are shown in it, e.g. Europe/Moscow."),
    )
    language = models.CharField(
        _("language of protocols"), max_length=8, choices=settings.LANGUAGES, default="ru"
    )
    public = models.BooleanField(_("public pages"), default=True)
    public_draw = models.BooleanField(
        _("public draw"), default=True, help_text=_("The table map of the current round.")
    )
    public_standings = models.BooleanField(_("public standings"), default=True)
    public_results = models.BooleanField(
        _("public results"), default=True, help_text=_("The results of every round.")
    )
    public_entrants = models.BooleanField(
        _("public pages of pairs and players"),
        default=True,
        help_text=_("Each pair's and player's history and standing round by round."),
    )
    hall_screen = models.BooleanField(
        _("hall screen"),
        default=True,
        help_text=_("A page for the hall's projector that cycles through the public pages."),
    )
    start_list = models.JSONField(
        _("round robin start list"),
        default=list,
        blank=True,
        help_text=_("Pair ids in start-number order, fixed when the first round is drawn."),
    )
    team_squad_pairs = models.PositiveSmallIntegerField(
        _("pairs in a team"), default=2, validators=[MinValueValidator(2), MaxValueValidator(6)],
        help_text=_("Team events: two play each match; more are substitutes."),
    )
    team_members = models.CharField(
        _("team members"), max_length=10, choices=TeamMembers.choices,
        default=TeamMembers.PAIRS,
        help_text=_("Team events: fixed pairs, or players the captain pairs for each match."),
    )
    team_squad_players = models.PositiveSmallIntegerField(
        _("players in a team"), default=6, validators=[MinValueValidator(4), MaxValueValidator(12)],
        help_text=_("Team events of players: four play each match; more are substitutes."),
    )
    team_lineup_changes = models.BooleanField(
        _("line-up may change between matches"), default=False,
        help_text=_("Team events: the captain names the two pairs of each match."),
    )
    team_halves = models.BooleanField(
        _("two halves"), default=False,
        help_text=_("Team events: in the second half the pairs swap opponents (A1–B2, A2–B1)."),
    )
    team_scoring = models.CharField(
        _("team match score"), max_length=20, choices=TeamScoring.choices,
        default=TeamScoring.MATCH_POINTS,
    )
    team_tie_breaks = models.JSONField(
        _("team tie-breaks"), default=team_tie_breaks_default, blank=True,
        help_text=_("Team events: after the team score, in this order."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    entrants_version = models.PositiveIntegerField(
        _("entrants version"), default=0, editable=False,
        help_text=_("Moves with every change of the players, pairs, teams or tables; "
                    "the public pages' ETags digest it."),
    )

    class Meta:
        db_table = "tournaments_tournament"
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-start_date", "name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        """The tournament's page."""
        return reverse("tournaments:detail", args=[self.slug])

    @property
    def engine(self) -> RuleSetEngine:
        """The tournament's rule set (plain Python)."""
        return get_rule_set(self.rule_set)

    @staticmethod
    def game_name_of(code: str) -> str:
        """The name of the rule set ``code`` in the active language."""
        return str(dict(registered_rule_sets())[code])

    @property
    def game_name(self) -> str:
        """The name of the tournament's game in the active language."""
        return self.game_name_of(self.rule_set)

    @property
    def singles(self) -> bool:
        """Whether a side is one player (singles rule sets), not a pair."""
        return self.engine.side_size(self.regulations.rules_config()) == 1

    @property
    def side_labels(self) -> dict[str, str]:
        """What sides A and B are called ("Player A", "Pair B"), in the active language: the rule
        set's ``side_label``, the same words on every page and the protocol."""
        cfg = self.regulations.rules_config()
        return {side: gettext(self.engine.side_label(side, cfg)) for side in ("a", "b")}

    @property
    def kind_name(self) -> str:
        """The tournament's kind as its rule set plays it ("Pairs tournament", "Singles
        tournament", "Individual tournament"), in the active language: a UDL event of sides of
        one player is no pairs tournament, whatever its stored ``format``."""
        individual = self.format == self.Format.INDIVIDUAL
        return gettext(self.engine.kind_label(individual, self.regulations.rules_config()))

    @property
    def plays_games(self) -> bool:
        """Whether a party is a match of timed games (UDL, All Fives)."""
        return self.engine.plays_games


class TournamentRole(models.Model):
    """A user's role in one tournament: organizer, referee or chief referee."""

    class Role(models.TextChoices):
        ORGANIZER = "organizer", _("Organizer")
        CHIEF = "chief", _("Chief referee")
        REFEREE = "referee", _("Referee")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="roles"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="tournament_roles",
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    tables = models.ManyToManyField(
        "scoring.Table",
        db_table="tournaments_tournamentrole_tables",
        verbose_name=_("tables"),
        blank=True,
        help_text=_("Leave empty for every table of the tournament."),
    )

    class Meta:
        db_table = "tournaments_tournamentrole"
        verbose_name = _("tournament role")
        verbose_name_plural = _("tournament roles")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="unique_role_per_tournament"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()}"
