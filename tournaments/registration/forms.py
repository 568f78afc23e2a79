"""Forms organizers use to register and edit a tournament's players, pairs and tables."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.models import Pair, Player, Table, Tournament
from scoring.people.profiles import link_new_player
from tournaments.registration.profile_fields import NEW, add_profile_fields, chosen_profile
from tournaments.registration.services import register_pair
from tournaments.setup.forms import ShowsHiddenFieldErrors
from tournaments.setup.services import registers_sides
from tournaments.setup.typed_fields import form_field


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
        fields = ["name", "club", "city", "country", "rating", "withdrawn"]

    def __init__(self, *args: Any, tournament: Tournament | None = None, viewer: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if tournament is not None:
            self.instance.tournament = tournament
        if tournament is None or self.instance.pk or not registers_sides(tournament):
            del self.fields["side"]
        add_profile_fields(self, "player", viewer=viewer, new_label=_(
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
