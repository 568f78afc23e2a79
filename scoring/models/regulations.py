"""A tournament's regulations: every rule setting, defaults from RULES.md, checked by the engine."""

from __future__ import annotations

import operator
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.core.errors import translate_engine_error
from scoring.models.game_settings import GameSettingAttribute
from scoring.rules import RuleError, RulesConfig, get_rule_set
from scoring.rules import game_settings as gs
from scoring.standings import METRICS, StandingsConfig, default_order, rule_set_metrics

from .tournament import Tournament

GAME_SETTINGS = gs.SETTING_NAMES
"""The names of the game settings of RULES.md sections 2 and 3 (``Regulations.game_settings``),
passed to the rule engine as they are."""
RULES_CONFIG_FIELDS = (
    "target", "party_minutes", "domino_counts_partner", "drawn_fish", "fine_points",
    "fine_mode", "allow_negative", "warnings_before_fine", "forfeit_winner_points",
    "forfeit_loser_points", "no_show_minutes", *GAME_SETTINGS,
)
"""The regulations' fields the rule engine's ``RulesConfig`` takes, by their names."""
_RULES_VALUES = operator.attrgetter(*RULES_CONFIG_FIELDS)
_RULES_CONFIGS: dict[tuple[Any, ...], RulesConfig] = {}
"""The snapshots made, by their values (``Regulations.rules_config``)."""
SEATING_SETTINGS = ("players", "kozel_pairs", "latin_individual")
"""Game settings that change who sits at a table and what a side is (checked like the format)."""


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
        null=True,
        blank=True,
        default=40,
        validators=[MinValueValidator(1), MaxValueValidator(180)],
        help_text=_("Empty: no party clock; the party ends only by its rules (Kozel's preset)."),
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
        _("forfeit: winner's points"),
        null=True,
        blank=True,
        default=None,
        validators=[MaxValueValidator(10000)],
        help_text=_("Empty: the target, the maximum points the regulations provide."),
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
    club_best_results = models.PositiveIntegerField(
        _("results counted per club"),
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text=_("The club and country standings add up this many best results of each "
                    "club's (country's) entrants."),
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
    game_settings = models.JSONField(
        _("game settings"),
        default=dict,
        blank=True,
        help_text=_("The settings of the games of RULES.md sections 2 and 3, by name."),
    )
    """Stored by name (:mod:`scoring.rules.game_settings` declares them), read and set only
    through the attributes below; each rule set's preset fills them in."""
    players = GameSettingAttribute(gs.PLAYERS)
    tiles_per_hand = GameSettingAttribute(gs.TILES_PER_HAND)
    game_minutes = GameSettingAttribute(gs.GAME_MINUTES)
    games_to_win = GameSettingAttribute(gs.GAMES_TO_WIN)
    match_format = GameSettingAttribute(gs.MATCH_FORMAT)
    udl_slow_play_points = GameSettingAttribute(gs.UDL_SLOW_PLAY_POINTS)
    fish_variant = GameSettingAttribute(gs.FISH_VARIANT)
    zero_zero_value = GameSettingAttribute(gs.ZERO_ZERO_VALUE)
    six_six_value = GameSettingAttribute(gs.SIX_SIX_VALUE)
    goat_at = GameSettingAttribute(gs.GOAT_AT)
    memorize_limit = GameSettingAttribute(gs.MEMORIZE_LIMIT)
    kozel_pairs = GameSettingAttribute(gs.KOZEL_PAIRS)
    lone_zero_zero_in_fish = GameSettingAttribute(gs.LONE_ZERO_ZERO_IN_FISH)
    latin_individual = GameSettingAttribute(gs.LATIN_INDIVIDUAL)

    class Meta:
        db_table = "tournaments_regulations"
        verbose_name = _("regulations")
        verbose_name_plural = _("regulations")

    def __str__(self) -> str:
        return str(_("Regulations of %(name)s") % {"name": self.tournament.name})

    def clean(self) -> None:
        """Check the game settings (as their rule set declares them) and settings that depend
        on each other."""
        order = self.standings_order
        if not isinstance(order, list) or any(key not in METRICS for key in order):
            raise ValidationError(
                {"standings_order": _("Unknown standings metric; use: %(keys)s.")
                 % {"keys": ", ".join(METRICS)}}
            )
        if len(set(order)) != len(order):
            raise ValidationError({"standings_order": _("A standings metric is listed twice.")})
        offered = rule_set_metrics(self.tournament.rule_set) if self.tournament_id else METRICS
        foreign = [str(_(METRICS[key].name)) for key in order if key not in offered]
        if foreign:
            raise ValidationError({"standings_order": _(
                "Not a standings metric of this rule set: %(names)s.") % {
                "names": ", ".join(foreign)}})
        try:
            self.game_settings = gs.validate_game_settings(
                self.tournament.engine if self.tournament_id else None, self.game_settings)
            config = self.rules_config()
        except RuleError as exc:
            error = translate_engine_error(exc)
            raise ValidationError({error.field: error.message}) from exc
        if config.forfeit_points() <= self.forfeit_loser_points:
            raise ValidationError(
                {"forfeit_winner_points": _("The forfeit winner must get more than the loser.")}
            )
        if self.pairing_system == self.PairingSystem.ROUND_ROBIN and (
            self.tournament_id and self.tournament.format == Tournament.Format.INDIVIDUAL
        ):
            raise ValidationError(
                {"pairing_system": _("Round robin is for pairs tournaments.")}
            )

    @property
    def forfeit_points(self) -> int:
        """The forfeit winner's points in force: the setting, or the target when it is empty."""
        return self.rules_config().forfeit_points()

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
        """A plain snapshot of these regulations for the rule engine.

        Snapshots are frozen, so one is made (and checked) per distinct set of values and
        process: every action asks for it several times, and building it checks each value.
        """
        values = _RULES_VALUES(self)
        key = (values, tuple(map(type, values)))  # True is not 1
        hashable = True
        try:
            config = _RULES_CONFIGS.get(key)
        except TypeError:  # an unhashable value: a snapshot of its own
            config, hashable = None, False
        if config is None:
            config = RulesConfig(**dict(zip(RULES_CONFIG_FIELDS, values, strict=True)))
            if hashable:
                if len(_RULES_CONFIGS) >= 512:
                    _RULES_CONFIGS.clear()
                _RULES_CONFIGS[key] = config
        return config

    def apply_preset(self, rule_set: str) -> None:
        """Fill in the rule set's preset regulations (every value stays editable)."""
        for name, value in get_rule_set(rule_set).preset.items():
            if hasattr(self, name):
                setattr(self, name, value)

