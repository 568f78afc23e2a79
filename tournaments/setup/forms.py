"""Forms organizers use to create and edit tournaments and their regulations."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from scoring.models import Regulations, Tournament
from scoring.models.tournament import TEAM_TIE_BREAKS
from scoring.party.match_format import match_format_text
from scoring.rules import RULE_SETS
from scoring.rules.game_settings import DECLARATIONS
from tournaments.setup.game_setting_fields import hidden_setting_label, setting_form_field
from tournaments.setup.metric_order import MetricOrderField
from tournaments.setup.services import (
    format_conflict,
    players_vary,
    plays_in_pairs_option,
    table_size,
)
from tournaments.setup.team_settings import (
    KEPT_TEAM_FIELDS,
    TEAM_FIELDS,
    TieBreakOrderField,
    tie_break_name,
)
from tournaments.setup.typed_fields import form_field, model_field

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

def rule_set_guide() -> list[dict[str, Any]]:
    """What each rule set implies, from its preset: sides, players, target and format."""
    formats = Tournament.Format
    rows = []
    for code, engine in RULE_SETS.items():
        cfg = engine.config()
        if engine.side_size(cfg) == 2:
            sides = _("Pairs of two players")
        elif plays_in_pairs_option(engine):
            sides = _("Each player for himself, or four as two pairs")
        else:
            sides = _("Each player for himself (a side is one player)")
        suits: list[StrOrPromise]
        if players_vary(engine):
            players = "2–4"
            suits = []
            for f in formats:
                counts = [
                    n for n in (2, 3, 4)
                    if format_conflict(
                        f.value, code, engine.config(players=n, tiles_per_hand=0)
                    ) is None
                ]
                if counts:
                    shown = str(counts[0]) if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
                    suits.append(
                        _("%(format)s: %(players)s at a table")
                        % {"format": f.label, "players": shown}
                    )
        else:
            players = str(table_size(engine, cfg))
            suits = [f.label for f in formats if format_conflict(f.value, code, cfg) is None]
        if "goat_at" in engine.setting_names:
            target = _("the Goat at %(points)s") % {"points": cfg.goat_at}
        else:
            target = str(cfg.target)
        rows.append(
            {
                "code": code,
                "name": _(engine.name),
                "description": _(engine.description) if engine.description else "",
                "sides": sides,
                "players": players,
                "target": target,
                "match_format": match_format_text(cfg)
                if engine.plays_games and cfg.games_to_win > 1
                else "",
                "formats": suits,
            }
        )
    return rows


class ShowsHiddenFieldErrors(forms.BaseModelForm):
    """Model form mixin: the model's errors on fields the form leaves out go above the form."""

    def _update_errors(self, errors: ValidationError) -> None:
        if hasattr(errors, "error_dict"):
            moved: dict[str, list[Any]] = {}
            for field, messages in errors.error_dict.items():
                if field == NON_FIELD_ERRORS or field in self.fields:
                    moved.setdefault(field, []).extend(messages)
                    continue
                label = hidden_setting_label(field) or model_field(
                    self._meta.model, field).verbose_name
                for message in ValidationError(messages).messages:
                    moved.setdefault(NON_FIELD_ERRORS, []).append(
                        ValidationError(f"{label}: {message}")
                    )
            errors = ValidationError(moved)
        # django-stubs leave out BaseForm._update_errors (private; full_clean calls it)
        super()._update_errors(errors)  # type: ignore[misc]


class TournamentForm(forms.ModelForm):
    """A tournament's own fields, and the players at a table where the rule set lets them vary.

    A new tournament's regulations start from its rule set's preset (``players`` and
    ``kozel_pairs`` change it); the services refuse a format that contradicts the rule set.
    """

    players = forms.TypedChoiceField(
        label=_("players at a table"),
        choices=[("", _("As the rule set says")), (2, "2"), (3, "3"), (4, "4")],
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_(
            "The draw, block, classic and Kozel games are played by 2 to 4 players; the other "
            "rule sets have a fixed number."
        ),
    )
    kozel_pairs = forms.BooleanField(
        label=_("Kozel: four play as two pairs"),
        required=False,
        help_text=_("Otherwise every Kozel player plays for himself."),
    )
    team_tie_breaks = TieBreakOrderField(label=_("Team tie-breaks"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rule_set"].help_text = _(
            "The regulations start from the rule set's own settings; every value stays "
            "editable on the regulations page."
        )
        self.fields["format"].help_text = _(
            "Pairs: each side (a pair, or one player in singles games) is registered once and "
            "plays every round. Individual: players register alone and the draw seats them at "
            "the tables every round. Team: teams of pairs (a club, a country) play team matches "
            "at two tables at once."
        )
        self.fields["team_tie_breaks"].help_text = _(
            "After the team score, the first place decides most; leave every place empty for "
            "the default order: %(order)s."
        ) % {"order": ", ".join(tie_break_name(key) for key in TEAM_TIE_BREAKS)}
        self.fields["team_tie_breaks"].initial = (
            self.instance.team_tie_breaks if self.instance.pk else None)
        for name in KEPT_TEAM_FIELDS:  # left out: kept as they are
            self.fields[name].required = False
        if not self.instance.pk:
            self.fields["slug"].required = False
            self.fields["slug"].help_text = _(
                "Leave empty to make it from the name (in Latin letters)."
            )
        if self.instance.pk:
            regulations = Regulations.objects.filter(tournament=self.instance).first()
            if regulations is not None:
                engine = self.instance.engine
                self.fields["players"].initial = (
                    regulations.players if players_vary(engine) else None
                )
                self.fields["kozel_pairs"].initial = regulations.kozel_pairs

    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "format",
            "rule_set",
            "venue",
            "city",
            "start_date",
            "end_date",
            "time_zone",
            "language",
            "public",
            "public_draw",
            "public_standings",
            "public_results",
            "public_entrants",
            "hall_screen",
            *TEAM_FIELDS,
        ]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    team_field_names = TEAM_FIELDS

    def team_fields(self) -> list[forms.BoundField]:
        """The settings of a team tournament (shown only for that format)."""
        return [self[name] for name in TEAM_FIELDS]

    def shows_team_fields(self) -> bool:
        """Whether the form's format is the team tournament (the team settings shown)."""
        return str(self["format"].value()) == Tournament.Format.TEAMS

    def clean(self) -> dict[str, Any]:
        """The end date cannot come before the start date."""
        super().clean()
        data = self.cleaned_data
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The end date is before the start date."))
        for name in KEPT_TEAM_FIELDS:
            if data.get(name) in (None, "") and name in data:
                data[name] = getattr(self.instance, name)
        return data


class RegulationsForm(ShowsHiddenFieldErrors, forms.ModelForm):
    """Every rule setting of a tournament; of the game settings, those of its rule set.

    A game setting's field is made from its declaration (``game_setting_fields``) and, once
    valid, set on the regulations before they are validated as a whole.
    """

    standings_order = MetricOrderField(label=_("standings order"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["standings_order"].label = capfirst(self.fields["standings_order"].label)
        tournament = self.instance.tournament if self.instance.tournament_id else None
        if tournament is not None:
            form_field(self, "standings_order", MetricOrderField).set_rule_set(
                tournament.rule_set, self.instance.standings_order)
        for setting in tournament.engine.settings if tournament else DECLARATIONS:
            self.fields[setting.name] = setting_form_field(setting)
            self.initial.setdefault(setting.name, getattr(self.instance, setting.name))

    def clean(self) -> dict[str, Any]:
        """Set the valid game settings on the regulations (validated next, as a whole)."""
        super().clean()
        data = self.cleaned_data
        for setting in DECLARATIONS:
            if setting.name in self.fields and setting.name in data:
                setattr(self.instance, setting.name, data[setting.name])
        return data

    class Meta:
        model = Regulations
        fields = [
            "target",
            "party_minutes",
            "domino_counts_partner",
            "drawn_fish",
            "fine_points",
            "fine_mode",
            "allow_negative",
            "warnings_before_fine",
            "no_show_minutes",
            "forfeit_winner_points",
            "forfeit_loser_points",
            "win_points",
            "loss_points",
            "forfeit_win_points",
            "bye_points",
            "forfeit_loss_points",
            "standings_order",
            "club_best_results",
            "pairing_system",
            "first_round",
            "avoid_same_club",
            "rounds_planned",
        ]
