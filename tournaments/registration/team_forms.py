"""The organizer's team form: a team's name, club and country, its registered pairs chosen and
new pairs entered by their players' names, and its captain (``registration.teams``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.core.errors import ServiceError
from scoring.models import BOARDS, Pair, Player, Team, Tournament
from tournaments.registration.teams import (
    Captain,
    NewPair,
    PairEntry,
    TeamChange,
    register_team,
    update_team,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def free_pairs(tournament: Tournament, team: Team | None = None) -> QuerySet[Pair]:
    """The registered pairs of two a team may take: in no team, or in ``team`` itself."""
    mine = Q(team=team) if team is not None and team.pk else Q(pk__in=[])
    return (Pair.objects.filter(tournament=tournament, formed_in_round__isnull=True,
                                player2__isnull=False)
            .filter(Q(team__isnull=True) | mine)
            .select_related("player1", "player2").order_by("id"))


class PairChoice(forms.ModelMultipleChoiceField):
    """Registered pairs (or players) as checkboxes, each by its name and rating."""

    def label_from_instance(self, obj: Any) -> str:
        """"Name · rating 1500"."""
        name = obj.display_name if isinstance(obj, Pair) else obj.name
        return _("%(pair)s · rating %(rating)s") % {"pair": name, "rating": obj.rating}


def add_team_fields(form: forms.Form, team: Team | None) -> None:
    """A team form's own fields: the team's name, club and country (a changed team's values
    and captain as the initial ones)."""
    form.fields["name"] = forms.CharField(label=_("Team name"), max_length=200)
    form.fields["club"] = forms.CharField(label=_("Club"), max_length=200, required=False)
    form.fields["country"] = forms.CharField(label=_("Country"), max_length=100,
                                             required=False)
    if team is not None:
        form.initial.update({
            "name": team.name, "club": team.club, "country": team.country,
            "captain": f"player:{team.captain_id}" if team.captain_id else "",
        })


class TeamForm(forms.Form):
    """A team and its pairs on one page: registered pairs ticked, new ones by their players'
    names (registered with the team, the team's club theirs), and the captain among them."""

    intro = gettext_lazy(
        "A team plays each team match with two pairs at two tables next to each other; more "
        "pairs, up to the squad size, are its substitutes. It is seeded by its pairs' mean "
        "rating.")

    def __init__(self, *args: Any, tournament: Tournament, team: Team | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament, self.team = tournament, team
        add_team_fields(self, team)
        self.offered = list(free_pairs(tournament, team))
        current = list(team.pairs.order_by("id")) if team is not None else []
        if self.offered:
            self.fields["pairs"] = PairChoice(
                label=_("Registered pairs"), required=False,
                queryset=free_pairs(tournament, team), widget=forms.CheckboxSelectMultiple,
                help_text=_("Pairs registered already and in no other team."))
        squad = tournament.team_squad_pairs
        self.slots = max(0, squad - len(current)) if team is not None else max(BOARDS, squad)
        for slot in range(1, self.slots + 1):
            for seat in (1, 2):
                self.fields[f"pair{slot}_player{seat}_name"] = forms.CharField(
                    label=_("First player") if seat == 1 else _("Second player"),
                    max_length=200, required=False)
                self.fields[f"pair{slot}_player{seat}_rating"] = forms.IntegerField(
                    label=_("Rating"), required=False, min_value=0)
        choices: list[tuple[str, StrOrPromise]] = [("", _("— no captain yet —"))]
        for pair in self.offered:
            choices += [(f"player:{p.pk}", p.name) for p in (pair.player1, pair.player2) if p]
        for slot in range(1, self.slots + 1):
            choices += [(f"new:{slot}:{seat}", _("New pair %(number)s: %(seat)s") % {
                "number": slot, "seat": _("first player") if seat == 1 else _("second player")})
                for seat in (1, 2)]
        self.fields["captain"] = forms.ChoiceField(
            label=_("Captain"), choices=choices, required=False,
            help_text=_("One of the team's players; he signs its team match sheets."))
        if team is not None:
            self.initial["pairs"] = [p.pk for p in current]

    def sections(self) -> list[tuple[StrOrPromise, list[forms.BoundField]]]:
        """The team, its registered pairs, each new pair, the captain."""
        out: list[tuple[StrOrPromise, list[forms.BoundField]]] = [
            (_("The team"), [self["name"], self["club"], self["country"]])]
        if "pairs" in self.fields:
            out.append((_("Registered pairs"), [self["pairs"]]))
        for slot in range(1, self.slots + 1):
            out.append((_("New pair %(number)s") % {"number": slot}, [
                self[f"pair{slot}_player{seat}_{part}"] for seat in (1, 2)
                for part in ("name", "rating")]))
        out.append((_("Captain"), [self["captain"]]))
        return out

    def clean(self) -> dict[str, Any]:
        """A new pair has both its players' names; the captain of a new pair entered."""
        super().clean()
        data = self.cleaned_data
        for slot in range(1, self.slots + 1):
            names = [data.get(f"pair{slot}_player{seat}_name") for seat in (1, 2)]
            if any(names) and not all(names):
                missing = 1 if not names[0] else 2
                self.add_error(f"pair{slot}_player{missing}_name",
                               _("A pair has two players: enter both names."))
        captain = data.get("captain") or ""
        if captain.startswith("new:"):
            slot = int(captain.split(":")[1])
            if not data.get(f"pair{slot}_player1_name"):
                self.add_error("captain", _("The captain's pair is not entered."))
        return data

    def _entries(self) -> tuple[list[PairEntry], dict[int, str], Captain]:
        """The team's pairs as the service takes them, the form field of each, the captain."""
        data = self.cleaned_data
        entries: list[PairEntry] = list(data.get("pairs") or [])
        where = dict.fromkeys(range(1, len(entries) + 1), "pairs")
        slot_entry: dict[int, int] = {}
        for slot in range(1, self.slots + 1):
            if not data.get(f"pair{slot}_player1_name"):
                continue
            players = tuple({"name": data[f"pair{slot}_player{seat}_name"],
                             "club": data.get("club") or "",
                             "rating": data.get(f"pair{slot}_player{seat}_rating") or 0}
                            for seat in (1, 2))
            entries.append(NewPair((players[0], players[1])))
            slot_entry[slot] = len(entries)
            where[len(entries)] = f"pair{slot}"
        captain: Captain = None
        value = data.get("captain") or ""
        if value.startswith("player:"):
            captain = Player.objects.filter(pk=int(value.split(":")[1]),
                                            tournament=self.tournament).first()
        elif value.startswith("new:"):
            _new, slot_text, seat = value.split(":")
            captain = (slot_entry.get(int(slot_text), 0), int(seat))
        return entries, where, captain

    def save(self, actor: Any = None) -> TeamChange:
        """Register or change the team (``ServiceError`` names one of the form's fields)."""
        entries, where, captain = self._entries()
        data = self.cleaned_data
        try:
            if self.team is None:
                return register_team(self.tournament, name=data["name"], club=data["club"],
                                     country=data["country"], pairs=entries, captain=captain,
                                     actor=actor)
            return update_team(self.team.pk, name=data["name"], club=data["club"],
                               country=data["country"], pairs=entries, captain=captain,
                               actor=actor)
        except ServiceError as err:
            raise _on_field(err, where) from err


def _on_field(err: ServiceError, where: dict[int, str]) -> ServiceError:
    """The service's refusal on the form's field: ``pair3_player1_name`` of the third pair
    given is the field of its slot (``pairs`` for a registered pair)."""
    head, _sep, rest = err.field.partition("_")
    if head.startswith("pair") and head[4:].isdigit():
        target = where.get(int(head[4:]), "pairs")
        field = f"{target}_{rest}" if rest and target != "pairs" else target
        if rest == "player1" or rest == "player2":
            field = f"{target}_{rest}_name" if target != "pairs" else target
        return ServiceError(field, err.message)
    return err
