"""Tournaments, their regulations, players, pairs, tables, rounds and parties."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.rules import RuleError, RulesConfig, get_rule_set
from scoring.rules import RuleSet as RuleSetEngine
from scoring.standings import METRICS, StandingsConfig, default_order
from tournaments.errors import translate_engine_error
from tournaments.timezones import validate_time_zone


def new_access_token() -> str:
    """A fresh unguessable key for a player's personal link."""
    return secrets.token_urlsafe(24)


class Tournament(models.Model):
    """One event, with its regulations."""

    class Format(models.TextChoices):
        PAIRS = "pairs", _("Pairs tournament")
        INDIVIDUAL = "individual", _("Individual tournament")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class RuleSet(models.TextChoices):
        SPORT = "sport", _("Sport domino")
        UDL = "udl", _("UDL singles (All Fives)")
        ALLFIVES = "allfives", _("All Fives (Muggins)")
        DRAW = "draw", _("Draw game")
        BLOCK = "block", _("Block game")
        CLASSIC = "classic", _("Classic game")
        LATIN = "latin", _("Latin pairs game")
        KOZEL = "kozel", _("Kozel (Goat)")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=80, unique=True, allow_unicode=True)
    rule_set = models.CharField(
        _("rule set"), max_length=20, choices=RuleSet.choices, default=RuleSet.SPORT
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
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
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

    @property
    def singles(self) -> bool:
        """Whether a side is one player (singles rule sets), not a pair."""
        return self.engine.side_size(self.regulations.rules_config()) == 1

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
        "Table",
        verbose_name=_("tables"),
        blank=True,
        help_text=_("Leave empty for every table of the tournament."),
    )

    class Meta:
        verbose_name = _("tournament role")
        verbose_name_plural = _("tournament roles")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="unique_role_per_tournament"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()}"


GAME_SETTINGS = (
    "players",
    "tiles_per_hand",
    "game_minutes",
    "games_to_win",
    "udl_slow_play_points",
    "fish_variant",
    "zero_zero_value",
    "six_six_value",
    "goat_at",
    "memorize_limit",
    "kozel_pairs",
)
"""Regulations of the games of RULES.md sections 2 and 3, passed to the rule engine as is."""


class Regulations(models.Model):
    """Every rule setting of a tournament; defaults follow RULES.md."""

    class DrawnFish(models.TextChoices):
        NOBODY = "nobody", _("Nobody scores")
        CARRY = "carry", _("Points carry over to the next deal")

    class FineMode(models.TextChoices):
        DEDUCT = "deduct", _("Deducted from the offending pair")
        AWARD = "award", _("Awarded to the opponents")

    class PairingSystem(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round robin")
        MANUAL = "manual", _("Manual")

    class FirstRound(models.TextChoices):
        SEEDING = "seeding", _("By seeding (rating)")
        LOT = "lot", _("By lot")

    class FishVariant(models.TextChoices):
        FOR_ALL = "for_all", _("Fish for all: each scores his own hand")
        FOR_ONE = "for_one", _("Fish for one: the highest hand takes all")

    tournament = models.OneToOneField(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="regulations",
    )
    target = models.PositiveIntegerField(
        _("target points"),
        default=200,
        validators=[MinValueValidator(1), MaxValueValidator(10000)],
        help_text=_("A pair wins the party by reaching this score first."),
    )
    party_minutes = models.PositiveIntegerField(
        _("time limit of a party (minutes)"),
        default=40,
        validators=[MinValueValidator(1), MaxValueValidator(180)],
    )
    domino_counts_partner = models.BooleanField(
        _("a domino counts the partner's pips"),
        default=True,
        help_text=_("The pair that goes out scores all tiles remaining in hands."),
    )
    drawn_fish = models.CharField(
        _("fish with equal pips"),
        max_length=10,
        choices=DrawnFish.choices,
        default=DrawnFish.NOBODY,
    )
    fine_points = models.PositiveIntegerField(
        _("fine (points)"), default=25, validators=[MinValueValidator(1), MaxValueValidator(168)]
    )
    fine_mode = models.CharField(
        _("fine mode"), max_length=10, choices=FineMode.choices, default=FineMode.DEDUCT
    )
    allow_negative = models.BooleanField(_("a fine may take a total below zero"), default=True)
    warnings_before_fine = models.PositiveIntegerField(
        _("warnings of one kind before a fine"),
        default=1,
        validators=[MinValueValidator(0), MaxValueValidator(10)],
        help_text=_("1: the first violation is a warning, a repeated one is a fine."),
    )
    no_show_minutes = models.PositiveIntegerField(
        _("no-show after (minutes)"),
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
    )
    forfeit_winner_points = models.PositiveIntegerField(
        _("forfeit: winner's points"), default=200, validators=[MaxValueValidator(10000)]
    )
    forfeit_loser_points = models.PositiveIntegerField(
        _("forfeit: loser's points"), default=0, validators=[MaxValueValidator(10000)]
    )
    win_points = models.PositiveIntegerField(_("match points for a win"), default=2)
    loss_points = models.PositiveIntegerField(_("match points for a loss"), default=0)
    forfeit_win_points = models.PositiveIntegerField(_("match points for a forfeit win"), default=2)
    bye_points = models.PositiveIntegerField(_("match points for a bye"), default=2)
    forfeit_loss_points = models.PositiveIntegerField(
        _("match points for a forfeit loss"), default=0
    )
    standings_order = models.JSONField(
        _("standings order"),
        default=list,
        blank=True,
        help_text=_("Metric keys in order; empty for the default order."),
    )
    pairing_system = models.CharField(
        _("pairing system"),
        max_length=20,
        choices=PairingSystem.choices,
        default=PairingSystem.SWISS,
    )
    first_round = models.CharField(
        _("first round"), max_length=10, choices=FirstRound.choices, default=FirstRound.SEEDING
    )
    avoid_same_club = models.BooleanField(_("keep pairs of the same club apart"), default=False)
    rounds_planned = models.PositiveIntegerField(
        _("rounds planned"), default=7, validators=[MinValueValidator(1), MaxValueValidator(100)]
    )
    # The games of RULES.md sections 2 and 3 (each rule set's preset fills them in).
    players = models.PositiveIntegerField(
        _("players at a table"),
        default=4,
        validators=[MinValueValidator(2), MaxValueValidator(4)],
    )
    tiles_per_hand = models.PositiveIntegerField(
        _("tiles dealt to each player"),
        default=0,
        validators=[MaxValueValidator(9)],
        help_text=_("0: the rule set's own number."),
    )
    game_minutes = models.PositiveIntegerField(
        _("time limit of a game (minutes)"),
        default=15,
        validators=[MinValueValidator(1), MaxValueValidator(180)],
        help_text=_("Matches of several games (UDL, All Fives)."),
    )
    games_to_win = models.PositiveIntegerField(
        _("game wins to win a match"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(9)],
    )
    udl_slow_play_points = models.PositiveIntegerField(
        _("slow play: points paid to the opponent"),
        default=20,
        validators=[MaxValueValidator(1000)],
    )
    fish_variant = models.CharField(
        _("Kozel: fish"),
        max_length=10,
        choices=FishVariant.choices,
        default=FishVariant.FOR_ALL,
    )
    zero_zero_value = models.PositiveIntegerField(
        _("Kozel: a lone 0-0 counts"), default=10, validators=[MaxValueValidator(1000)]
    )
    six_six_value = models.PositiveIntegerField(
        _("Kozel: a lone 6-6 counts"), default=12, validators=[MaxValueValidator(1000)]
    )
    goat_at = models.PositiveIntegerField(
        _("Kozel: the Goat at"),
        default=101,
        validators=[MinValueValidator(1), MaxValueValidator(10000)],
    )
    memorize_limit = models.PositiveIntegerField(
        _("Kozel: deal totals memorized up to"), default=12, validators=[MaxValueValidator(1000)]
    )
    kozel_pairs = models.BooleanField(_("Kozel: four play as two pairs"), default=False)

    class Meta:
        verbose_name = _("regulations")
        verbose_name_plural = _("regulations")

    def __str__(self) -> str:
        return str(_("Regulations of %(name)s") % {"name": self.tournament.name})

    def clean(self) -> None:
        """Check settings that depend on each other."""
        if self.forfeit_winner_points <= self.forfeit_loser_points:
            raise ValidationError(
                {"forfeit_winner_points": _("The forfeit winner must get more than the loser.")}
            )
        order = self.standings_order
        if not isinstance(order, list) or any(key not in METRICS for key in order):
            raise ValidationError(
                {"standings_order": _("Unknown standings metric; use: %(keys)s.")
                 % {"keys": ", ".join(METRICS)}}
            )
        if len(set(order)) != len(order):
            raise ValidationError({"standings_order": _("A standings metric is listed twice.")})
        try:
            self.rules_config()
        except RuleError as exc:
            error = translate_engine_error(exc)
            raise ValidationError({error.field: error.message}) from exc
        if self.pairing_system == self.PairingSystem.ROUND_ROBIN and (
            self.tournament_id and self.tournament.format == Tournament.Format.INDIVIDUAL
        ):
            raise ValidationError(
                {"pairing_system": _("Round robin is for pairs tournaments.")}
            )

    def standings_config(self) -> StandingsConfig:
        """A plain snapshot of the standings settings for the standings engine."""
        return StandingsConfig(
            order=tuple(self.standings_order) or default_order(self.tournament.rule_set),
            win_points=self.win_points,
            loss_points=self.loss_points,
            forfeit_win_points=self.forfeit_win_points,
            forfeit_loss_points=self.forfeit_loss_points,
            bye_points=self.bye_points,
            target=self.target,
        )

    def rules_config(self) -> RulesConfig:
        """A plain snapshot of these regulations for the rule engine."""
        return RulesConfig(
            target=self.target,
            party_minutes=self.party_minutes,
            domino_counts_partner=self.domino_counts_partner,
            drawn_fish=self.drawn_fish,
            fine_points=self.fine_points,
            fine_mode=self.fine_mode,
            allow_negative=self.allow_negative,
            warnings_before_fine=self.warnings_before_fine,
            forfeit_winner_points=self.forfeit_winner_points,
            forfeit_loser_points=self.forfeit_loser_points,
            no_show_minutes=self.no_show_minutes,
            **{name: getattr(self, name) for name in GAME_SETTINGS},
        )

    def apply_preset(self, rule_set: str) -> None:
        """Fill in the rule set's preset regulations (every value stays editable)."""
        for name, value in get_rule_set(rule_set).preset.items():
            if hasattr(self, name):
                setattr(self, name, value)


class Player(models.Model):
    """A person who plays in one tournament."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="players"
    )
    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    rating = models.IntegerField(_("rating"), default=0)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    fixed_table = models.ForeignKey(
        "Table",
        verbose_name=_("fixed table"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("Individual tournaments, for accessibility: always at this table."),
    )
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    disqualified = models.BooleanField(_("disqualified"), default=False)
    access_token = models.CharField(
        _("personal link key"),
        max_length=64,
        unique=True,
        default=new_access_token,
        editable=False,
        help_text=_("Opens the player's area without a login; a new key revokes the old link."),
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def available(self) -> bool:
        """Whether the player takes part in later draws (neither withdrawn nor disqualified)."""
        return not (self.withdrawn or self.disqualified)


class Table(models.Model):
    """A numbered physical table in the hall."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveIntegerField(_("number"), validators=[MinValueValidator(1)])
    label = models.CharField(_("label"), max_length=100, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_table_number")
        ]

    def __str__(self) -> str:
        return str(_("Table %(number)s") % {"number": self.number}) + (
            f" ({self.label})" if self.label else ""
        )


class Pair(models.Model):
    """Two partners who play together.

    In a pairs tournament a pair is registered once and plays every round. In an individual
    tournament the draw forms new pairs each round (``formed_in_round``); a player who has
    the bye there sits alone on a pair without a second player.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="pairs"
    )
    name = models.CharField(_("name"), max_length=200, blank=True)
    player1 = models.ForeignKey(
        Player, verbose_name=_("first player"), on_delete=models.PROTECT, related_name="+"
    )
    player2 = models.ForeignKey(
        Player,
        verbose_name=_("second player"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Empty for a side of one player (singles), or a bye in an individual event."),
    )
    rating = models.IntegerField(_("rating"), default=0)
    fixed_table = models.ForeignKey(
        Table,
        verbose_name=_("fixed table"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("For accessibility: this pair always plays at this table."),
    )
    formed_in_round = models.ForeignKey(
        "Round",
        verbose_name=_("formed in round"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="formed_pairs",
        help_text=_("Individual tournaments: the round whose draw formed this pair."),
    )
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    disqualified = models.BooleanField(_("disqualified"), default=False)

    class Meta:
        verbose_name = _("pair")
        verbose_name_plural = _("pairs")
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(player1=models.F("player2")), name="pair_players_distinct"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        """The pair's name, or its players' names."""
        if self.name:
            return self.name
        second = self.player2.name if self.player2_id is not None else None
        return self.label("", self.player1.name, second)

    @staticmethod
    def label(name: str, first: str, second: str | None) -> str:
        """A pair's display name from its own name and its players' (no second for a bye)."""
        if name:
            return name
        return first if second is None else f"{first} / {second}"

    @property
    def available(self) -> bool:
        """Whether the pair takes part in later draws (neither withdrawn nor disqualified)."""
        return not (self.withdrawn or self.disqualified)

    def clean(self) -> None:
        """Two distinct players of this tournament; in a pairs tournament each in no other pair."""
        errors: dict[str, str] = {}
        if self.player1_id and self.player1_id == self.player2_id:
            errors["player2"] = _("A pair needs two different players.")
        singles = self.tournament_id and self.tournament.singles
        if self.player2_id is None and self.formed_in_round_id is None and not singles:
            errors["player2"] = _("A pair needs two different players.")
        if self.player2_id is not None and singles and self.formed_in_round_id is None:
            errors["player2"] = _("In this rule set a side is one player.")
        individual = self.tournament_id and self.tournament.format == Tournament.Format.INDIVIDUAL
        if individual and self.formed_in_round_id is None:
            errors["__all__"] = _("In an individual tournament the draw forms the pairs.")
        for field in ("player1", "player2"):
            player = getattr(self, field, None) if getattr(self, f"{field}_id") else None
            if player is None:
                continue
            if self.tournament_id and player.tournament_id != self.tournament_id:
                errors[field] = _("The player is not registered in this tournament.")
                continue
            if individual or field in errors:
                continue
            others = Pair.objects.filter(
                Q(player1=player) | Q(player2=player), formed_in_round__isnull=True
            ).exclude(pk=self.pk)
            if others.exists():
                errors[field] = _("%(name)s already plays in another pair.") % {"name": player.name}
        if errors:
            raise ValidationError(errors)

    @property
    def players(self) -> tuple[Player, ...]:
        """The players of the pair (one for a bye side of an individual tournament)."""
        if self.player2_id is None:
            return (self.player1,)
        return (self.player1, self.player2)


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

    class Meta:
        verbose_name = _("party")
        verbose_name_plural = _("parties")
        ordering = ["round", "table__number", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="unique_table_per_round"),
            models.CheckConstraint(
                condition=~Q(pair_a=models.F("pair_b")), name="party_pairs_distinct"
            ),
        ]

    def __str__(self) -> str:
        b = self.pair_b.display_name if self.pair_b_id else _("bye")
        return f"{self.round} · {self.table or ''} · {self.pair_a.display_name} — {b}"

    def get_absolute_url(self) -> str:
        """The party page."""
        return reverse("tournaments:party", args=[self.pk])

    @property
    def is_bye(self) -> bool:
        """True when the party has no opponent."""
        return self.pair_b_id is None

    @property
    def tournament(self) -> Tournament:
        """The tournament the party belongs to."""
        return self.round.tournament

    def pair(self, side: str) -> Pair | None:
        """The pair on a side ("a" or "b")."""
        return self.pair_a if side == "a" else self.pair_b

    def elapsed_seconds(self, now: timezone.datetime | None = None) -> float:
        """Seconds of play so far (pauses excluded); the server's clock is authoritative."""
        if not self.started_at:
            return 0.0
        end = self.finished_at or self.paused_at or now or timezone.now()
        return max(0.0, (end - self.started_at).total_seconds() - self.paused_seconds)

    def seconds_left(self, now: timezone.datetime | None = None) -> float:
        """Seconds until the party's time limit (negative after it)."""
        limit = self.round.tournament.regulations.party_minutes * 60
        return limit - self.elapsed_seconds(now)

    def game_seconds_left(self, now: timezone.datetime | None = None) -> float:
        """Seconds until the time limit of the game in play (matches of games only)."""
        limit = self.round.tournament.regulations.game_minutes * 60
        return limit - (self.elapsed_seconds(now) - self.game_started_seconds)

    def seat_players(self) -> dict[str, Player]:
        """The players by seat: a1 and a2 of pair A, b1 and b2 of pair B (present ones only)."""
        seats: dict[str, Player] = {}
        for side, pair in (("a", self.pair_a), ("b", self.pair_b)):
            if pair is None:
                continue
            seats[f"{side}1"] = pair.player1
            if pair.player2_id is not None:
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
