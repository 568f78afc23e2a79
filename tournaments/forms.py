"""Forms organizers use to create and edit tournaments, players, pairs and tables."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.standings import DEFAULT_ORDER, METRICS
from tournaments.models import Pair, Player, Regulations, Table, Tournament


class TournamentForm(forms.ModelForm):
    """A tournament's own fields."""

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
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The end date is before the start date."))
        return data


class MetricOrderField(forms.CharField):
    """The standings order as metric keys separated by commas (stored as a JSON list)."""

    def prepare_value(self, value: Any) -> str:
        """Show a stored list as comma-separated keys."""
        if isinstance(value, list | tuple):
            return ", ".join(value)
        return super().prepare_value(value)

    def to_python(self, value: Any) -> list[str]:
        """Split the keys; unknown or repeated ones are the model's to refuse."""
        if isinstance(value, list | tuple):
            return list(value)
        text = super().to_python(value) or ""
        return [key.strip() for key in text.replace(";", ",").split(",") if key.strip()]


class RegulationsForm(forms.ModelForm):
    """Every rule setting of a tournament."""

    standings_order = MetricOrderField(label=_("standings order"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["standings_order"].help_text = _(
            "Metric keys, the first deciding most, separated by commas; empty for the default "
            "order (%(default)s). Known: %(keys)s."
        ) % {"default": ", ".join(DEFAULT_ORDER), "keys": ", ".join(METRICS)}

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
    """A player's registration."""

    class Meta:
        model = Player
        fields = ["name", "club", "city", "rating", "withdrawn"]


class PairForm(forms.ModelForm):
    """A pair of two players of the tournament."""

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
        self.fields["player1"].queryset = players
        self.fields["player2"].queryset = players
        self.fields["player2"].required = True
        self.fields["fixed_table"].queryset = Table.objects.filter(tournament=tournament)


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
        label=_("Seed (optional)"),
        required=False,
        min_value=0,
        help_text=_("Leave empty for a new random draw; a recorded seed reproduces one."),
    )


class SwapTablesForm(forms.Form):
    """Two tables whose parties change places (or a party moved to a free table)."""

    first = forms.TypedChoiceField(label=_("Table"), coerce=int)
    second = forms.TypedChoiceField(label=_("with table"), coerce=int)

    def __init__(self, *args: Any, tables: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(n, n) for n in tables]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices


class DrawEditForm(forms.Form):
    """A draw made or changed by hand: per row a table and its sides, and the byes.

    Pairs tournaments have two sides (``a``, ``b``) per row; individual tournaments four
    players (``a1``, ``a2`` against ``b1``, ``b2``). Empty rows are ignored.
    """

    def __init__(
        self,
        *args: Any,
        entrants: list[tuple[int, str]],
        tables: list[int],
        rows: int,
        individual: bool,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.sides = ("a1", "a2", "b1", "b2") if individual else ("a", "b")
        self.row_count = rows
        blank = [("", "—")]
        for i in range(rows):
            self.fields[f"table_{i}"] = forms.TypedChoiceField(
                label=_("Table"), choices=blank + [(n, n) for n in tables], coerce=int,
                required=False,
            )
            for side in self.sides:
                self.fields[f"{side}_{i}"] = forms.TypedChoiceField(
                    label=side.upper(), choices=blank + entrants, coerce=int, required=False
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
        data = super().clean()
        parties = []
        for i in range(self.row_count):
            names = [f"table_{i}", *(f"{side}_{i}" for side in self.sides)]
            values = [data.get(name) for name in names]
            if all(v in (None, "") for v in values):
                continue
            if any(v in (None, "") for v in values):
                raise forms.ValidationError(
                    _("Row %(row)s is incomplete: choose its table and every side."),
                    params={"row": i + 1},
                )
            table, *sides = values
            if len(sides) == 4:
                parties.append((table, (sides[0], sides[1]), (sides[2], sides[3])))
            else:
                parties.append((table, sides[0], sides[1]))
        data["parties"] = parties
        return data
