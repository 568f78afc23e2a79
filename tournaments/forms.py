"""Forms organizers use to create and edit tournaments, players, pairs and tables."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

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


class RegulationsForm(forms.ModelForm):
    """Every rule setting of a tournament."""

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
        taken = Pair.objects.filter(tournament=tournament).exclude(pk=self.instance.pk)
        busy = set(taken.values_list("player1", flat=True)) | set(
            taken.values_list("player2", flat=True)
        )
        players = Player.objects.filter(tournament=tournament).exclude(
            Q(pk__in=busy) & ~Q(pk__in=[self.instance.player1_id, self.instance.player2_id])
        )
        self.fields["player1"].queryset = players
        self.fields["player2"].queryset = players
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
