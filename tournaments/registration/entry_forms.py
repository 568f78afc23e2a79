"""The organizer's one-step forms: a pair with its two players, and a run of numbered tables."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from scoring.models import Pair, Player, Table, Tournament
from tournaments.registration.entry import (
    MOST_TABLES_AT_ONCE,
    add_tables,
    next_table_number,
    register_pair_with_players,
)
from tournaments.registration.profile_fields import add_profile_fields, chosen_profile

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

PLAYER_FIELDS = ("name", "club", "city", "country", "rating")


def unpaired_players(tournament: Tournament) -> QuerySet[Player]:
    """The tournament's players who play in no pair yet."""
    paired = Pair.objects.filter(tournament=tournament, formed_in_round__isnull=True)
    return Player.objects.filter(tournament=tournament).exclude(
        Q(pk__in=paired.values("player1")) | Q(pk__in=paired.values("player2"))
    ).order_by("name")


class NewPairForm(forms.Form):
    """A new pair and its two players on one page; a player may be one registered already.

    The pair's rating is not asked: it is its players' (``Pair.seeding_rating``), as the
    roster import gives it.
    """

    intro = _("The pair is seeded by its players' ratings: their mean, rounded down, exactly "
              "as the roster import seeds it.")

    def __init__(self, *args: Any, tournament: Tournament, viewer: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        free = unpaired_players(tournament)
        for number in (1, 2):
            if free.exists():
                self.fields[f"player{number}"] = forms.ModelChoiceField(
                    label=_("A registered player"), queryset=free, required=False,
                    empty_label=_("— a new player, entered below —"),
                )
            add_profile_fields(self, f"player{number}", viewer=viewer)
            self.fields[f"player{number}_name"] = forms.CharField(
                label=_("Name"), max_length=200, required=False,
                help_text=_("Left empty, the chosen profile's name is taken."))
            self.fields[f"player{number}_club"] = forms.CharField(
                label=_("Club"), max_length=200, required=False)
            self.fields[f"player{number}_city"] = forms.CharField(
                label=_("City"), max_length=100, required=False)
            self.fields[f"player{number}_country"] = forms.CharField(
                label=_("Country"), max_length=100, required=False)
            self.fields[f"player{number}_rating"] = forms.IntegerField(
                label=_("Rating"), initial=0, required=False)
        self.fields["name"] = forms.CharField(
            label=_("Name of the pair"), max_length=200, required=False,
            help_text=_("Optional; the players' names are shown otherwise."))
        self.fields["fixed_table"] = forms.ModelChoiceField(
            label=_("Fixed table"), queryset=Table.objects.filter(tournament=tournament),
            required=False, help_text=_("For accessibility: this pair always plays at this table."))

    def sections(self) -> list[tuple[StrOrPromise, list[forms.BoundField]]]:
        """The fields under their headings: each player, then the pair."""
        out: list[tuple[StrOrPromise, list[forms.BoundField]]] = []
        for number, legend in ((1, _("First player")), (2, _("Second player"))):
            names = [f"player{number}", f"player{number}_find", f"player{number}_profile",
                     *(f"player{number}_{f}" for f in PLAYER_FIELDS)]
            out.append((legend, [self[n] for n in names if n in self.fields]))
        out.append((_("The pair"), [self["name"], self["fixed_table"]]))
        return out

    def clean(self) -> dict[str, Any]:
        """Each player is either chosen or entered; two different players."""
        super().clean()
        data = self.cleaned_data
        for number in (1, 2):
            chosen, name = data.get(f"player{number}"), data.get(f"player{number}_name")
            profile = chosen_profile(self, f"player{number}") if not self.errors.get(
                f"player{number}_profile") else None
            if chosen and (name or profile):
                self.add_error(f"player{number}_name", _(
                    "Choose a registered player or enter a new one, not both."))
            elif not chosen and not name and not profile:
                self.add_error(f"player{number}_name", _(
                    "Enter the player's name (or choose a registered player or a profile)."))
        first, second = data.get("player1"), data.get("player2")
        if first and first == second:
            self.add_error("player2", _("A pair needs two different players."))
        return data

    def players(self) -> tuple[Player | dict[str, Any], Player | dict[str, Any]]:
        """Each player as the registered one chosen, or the fields of a new one."""
        data = self.cleaned_data

        def one(number: int) -> Player | dict[str, Any]:
            if data.get(f"player{number}"):
                return data[f"player{number}"]
            profile = chosen_profile(self, f"player{number}")
            return {
                "name": data[f"player{number}_name"] or (profile.name if profile else ""),
                "club": data.get(f"player{number}_club") or (profile.club if profile else ""),
                "city": data.get(f"player{number}_city") or (profile.city if profile else ""),
                "country": data.get(f"player{number}_country") or "",
                "rating": data.get(f"player{number}_rating") or 0,
                "profile": profile,
            }

        return one(1), one(2)

    def save(self) -> Pair:
        """Register the new players and the pair (``ServiceError`` names a field)."""
        return register_pair_with_players(
            self.tournament, self.players(), name=self.cleaned_data["name"],
            fixed_table=self.cleaned_data["fixed_table"])


class AddTablesForm(forms.Form):
    """Number several tables at once: the first number (the next free one) and how many."""

    start = forms.IntegerField(label=_("First number"), min_value=1)
    count = forms.IntegerField(label=_("How many tables"), min_value=1,
                               max_value=MOST_TABLES_AT_ONCE, initial=1)
    label = forms.CharField(label=_("Label"), max_length=100, required=False,
                            help_text=_("Optional, for every table added (e.g. “hall B”)."))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.fields["start"].initial = next_table_number(tournament)
        self.fields["start"].help_text = _("The next free number is prefilled.")

    def save(self) -> list[Table]:
        """Add the tables (``ServiceError`` names ``start`` or ``count``)."""
        data = self.cleaned_data
        return add_tables(self.tournament, data["start"], data["count"], data["label"])
