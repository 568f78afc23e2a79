"""Forms organizers use to create and edit tournaments, players, pairs and tables."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db.models import Q
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from scoring.models import Pair, Player, Regulations, Table, Tournament
from scoring.party.match_format import match_format_text
from scoring.people.profiles import link_new_player
from scoring.rules import RULE_SETS
from scoring.rules.game_settings import DECLARATIONS
from tournaments.registration.profile_fields import NEW, add_profile_fields, chosen_profile
from tournaments.setup.game_setting_fields import hidden_setting_label, setting_form_field
from tournaments.setup.metric_order import MetricOrderField
from tournaments.setup.services import (
    format_conflict,
    players_vary,
    plays_in_pairs_option,
    register_pair,
    registers_sides,
    table_size,
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rule_set"].help_text = _(
            "The regulations start from the rule set's own settings; every value stays "
            "editable on the regulations page."
        )
        self.fields["format"].help_text = _(
            "Pairs: each side (a pair, or one player in singles games) is registered once and "
            "plays every round. Individual: players register alone and the draw seats them at "
            "the tables every round."
        )
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
            "status",
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
        ]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def clean(self) -> dict[str, Any]:
        """The end date cannot come before the start date."""
        super().clean()
        data = self.cleaned_data
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The end date is before the start date."))
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
            "pairing_system",
            "first_round",
            "avoid_same_club",
            "rounds_planned",
        ]


class PlayerForm(forms.ModelForm):
    """A player's registration; in singles also his side of one player, if asked."""

    side = forms.BooleanField(
        label=_("Register the player as a side too"),
        required=False,
        initial=True,
        help_text=_("In this rule set a side is one player."),
    )

    class Meta:
        model = Player
        fields = ["name", "club", "city", "rating", "withdrawn"]

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if tournament is not None:
            self.instance.tournament = tournament
        if tournament is None or self.instance.pk or not registers_sides(tournament):
            del self.fields["side"]
        add_profile_fields(self, "player", new_label=_(
            "Keep the current profile") if self.instance.profile_id else None)
        self.order_fields(["player_find", "player_profile"])

    def clean_player_profile(self) -> str:
        """A profile that plays in this tournament already is refused."""
        value = self.cleaned_data.get("player_profile") or NEW
        if value != NEW and Player.objects.filter(
                tournament=self.instance.tournament, profile_id=int(value)).exclude(
                pk=self.instance.pk).exists():
            raise ValidationError(_("This person is already registered in this tournament."))
        return value

    def save(self, commit: bool = True) -> Player:
        """Save the player linked to the profile chosen (a new one by default); in singles
        also register his side of one player when asked."""
        player = super().save(commit=commit)
        profile = chosen_profile(self, "player")
        if commit and (profile is not None or player.profile_id is None):
            link_new_player(player, profile)
        if commit and self.cleaned_data.get("side"):
            register_pair(player.tournament, player, None)
        return player


class PairForm(ShowsHiddenFieldErrors, forms.ModelForm):
    """A pair of two players of the tournament; in singles a side of one player."""

    class Meta:
        model = Pair
        fields = ["name", "player1", "player2", "rating", "fixed_table", "withdrawn"]

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.tournament = tournament
        taken = Pair.objects.filter(tournament=tournament, formed_in_round__isnull=True).exclude(
            pk=self.instance.pk
        )
        busy = set(taken.values_list("player1", flat=True)) | set(
            taken.values_list("player2", flat=True)
        )
        players = Player.objects.filter(tournament=tournament).exclude(
            Q(pk__in=busy) & ~Q(pk__in=[self.instance.player1_id, self.instance.player2_id])
        )
        form_field(self, "player1", forms.ModelChoiceField).queryset = players
        form_field(self, "player2", forms.ModelChoiceField).queryset = players
        self.fields["player2"].required = True
        form_field(self, "fixed_table", forms.ModelChoiceField).queryset = Table.objects.filter(
            tournament=tournament)
        if tournament.singles and self.instance.player2_id is None:
            del self.fields["player2"]
            self.fields["player1"].label = _("Player")
            self.fields["name"].label = _("Name of the side")
            self.fields["name"].help_text = _("Optional; the player's name is shown otherwise.")
            self.fields["fixed_table"].help_text = _(
                "For accessibility: this side always plays at this table."
            )


class TableForm(forms.ModelForm):
    """A numbered table of the hall."""

    class Meta:
        model = Table
        fields = ["number", "label"]

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.tournament = tournament

    def clean_number(self) -> int:
        """Table numbers are unique within the tournament."""
        number = self.cleaned_data["number"]
        clash = Table.objects.filter(tournament=self.instance.tournament, number=number)
        if clash.exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(
                _("Table %(number)s already exists."), params={"number": number}
            )
        return number


class GenerateDrawForm(forms.Form):
    """Options of a generated draw: a seed reproduces a draw by lot."""

    seed = forms.IntegerField(
        label=_("Random seed of the draw (optional)"),
        required=False,
        min_value=0,
        help_text=_("Leave empty for a new random draw; the number recorded with a draw "
                    "reproduces it."),
    )


class SwapTablesForm(forms.Form):
    """Two tables whose parties change places (or a party moved to a free table)."""

    first = forms.TypedChoiceField(label=_("Table"), coerce=int)
    second = forms.TypedChoiceField(label=_("with table"), coerce=int)

    def __init__(self, *args: Any, tables: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(n, n) for n in tables]
        form_field(self, "first", forms.ChoiceField).choices = choices
        form_field(self, "second", forms.ChoiceField).choices = choices


class DrawEditForm(forms.Form):
    """A draw made or changed by hand: per row a table and its sides, and the byes.

    Pairs tournaments have two sides (``a``, ``b``) per row; individual tournaments four
    players (``a1``, ``a2`` against ``b1``, ``b2``), or three (``seats=3``: ``b2`` left out)
    where every player plays for himself. Empty rows are ignored.
    """

    def __init__(
        self,
        *args: Any,
        entrants: list[tuple[int, str]],
        tables: list[int],
        rows: int,
        individual: bool,
        seats: int = 4,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.sides = ("a1", "a2", "b1", "b2")[:seats] if individual else ("a", "b")
        self.row_count = rows
        blank: list[tuple[int | str, str]] = [("", "—")]
        for i in range(rows):
            self.fields[f"table_{i}"] = forms.TypedChoiceField(
                label=_("Table"), choices=blank + [(n, n) for n in tables], coerce=int,
                required=False,
            )
            for side in self.sides:
                self.fields[f"{side}_{i}"] = forms.TypedChoiceField(
                    label=side.upper(), choices=[*blank, *entrants], coerce=int, required=False
                )
        self.fields["byes"] = forms.TypedMultipleChoiceField(
            label=_("Byes"),
            choices=entrants,
            coerce=int,
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )

    def rows(self) -> list[list[forms.BoundField]]:
        """The bound fields of each row, the table first (for the template)."""
        return [
            [self[f"table_{i}"], *(self[f"{side}_{i}"] for side in self.sides)]
            for i in range(self.row_count)
        ]

    def clean(self) -> dict[str, Any]:
        """A row is either empty or complete."""
        super().clean()
        data = self.cleaned_data
        parties: list[tuple[int, int | tuple[int, int], int | tuple[int, ...]]] = []
        for i in range(self.row_count):
            names = [f"table_{i}", *(f"{side}_{i}" for side in self.sides)]
            values = [data.get(name) for name in names]
            if all(v in (None, "") for v in values):
                continue
            numbers = [v for v in values if isinstance(v, int)]  # empty choices are ""
            if len(numbers) < len(values):
                raise forms.ValidationError(
                    _("Row %(row)s is incomplete: choose its table and every side."),
                    params={"row": i + 1},
                )
            table, *sides = numbers
            if len(sides) > 2:
                parties.append((table, (sides[0], sides[1]), tuple(sides[2:])))
            else:
                parties.append((table, sides[0], sides[1]))
        data["parties"] = parties
        return data
