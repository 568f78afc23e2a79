"""The organizer's form of a team of players (``Tournament.team_members`` "players"): its
name, club and country, its registered players ticked and new ones entered by name and
rating, and its captain (``registration.team_players``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.models import Player, Team, Tournament
from scoring.teams.seating import PLAYERS_PER_MATCH
from tournaments.registration.team_forms import PairChoice, add_team_fields
from tournaments.registration.team_players import (
    SquadCaptain,
    SquadChange,
    SquadEntry,
    register_squad,
    update_squad,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def free_players(tournament: Tournament, team: Team | None = None) -> QuerySet[Player]:
    """The registered players a team may take: in no team, or in ``team`` itself."""
    mine = Q(team=team) if team is not None and team.pk else Q(pk__in=[])
    return (Player.objects.filter(tournament=tournament).filter(Q(team__isnull=True) | mine)
            .order_by("id"))


class SquadForm(forms.Form):
    """A team of players on one page: registered players ticked, new ones by name and
    rating (registered with the team, the team's club theirs), the captain among them."""

    intro = gettext_lazy(
        "A team registers its players; for each team match its captain pairs four of them "
        "(board 1's pair, board 2's pair), the others are substitutes. Unless he does, the "
        "first four in registration order play: the first and second at board 1, the third "
        "and fourth at board 2. It is seeded by its players' mean rating.")

    def __init__(self, *args: Any, tournament: Tournament, team: Team | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament, self.team = tournament, team
        add_team_fields(self, team)
        offered = list(free_players(tournament, team))
        current = list(team.players.order_by("id")) if team is not None else []
        if offered:
            self.fields["players"] = PairChoice(
                label=_("Registered players"), required=False,
                queryset=free_players(tournament, team), widget=forms.CheckboxSelectMultiple,
                help_text=_("Players registered already and in no other team."))
        squad = tournament.team_squad_players
        self.slots = (max(0, squad - len(current)) if team is not None
                      else max(PLAYERS_PER_MATCH, squad))
        for slot in range(1, self.slots + 1):
            self.fields[f"player{slot}_name"] = forms.CharField(
                label=_("Player %(number)s") % {"number": slot}, max_length=200,
                required=False)
            self.fields[f"player{slot}_rating"] = forms.IntegerField(
                label=_("Rating"), required=False, min_value=0)
        choices: list[tuple[str, StrOrPromise]] = [("", _("— no captain yet —"))]
        choices += [(f"player:{p.pk}", p.name) for p in offered]
        choices += [(f"new:{slot}", _("New player %(number)s") % {"number": slot})
                    for slot in range(1, self.slots + 1)]
        self.fields["captain"] = forms.ChoiceField(
            label=_("Captain"), choices=choices, required=False,
            help_text=_("One of the team's players; he pairs its players for each match and "
                        "signs its team match sheets."))
        if team is not None:
            self.initial["players"] = [p.pk for p in current]

    def sections(self) -> list[tuple[StrOrPromise, list[forms.BoundField]]]:
        """The team, its registered players, the new ones, the captain."""
        out: list[tuple[StrOrPromise, list[forms.BoundField]]] = [
            (_("The team"), [self["name"], self["club"], self["country"]])]
        if "players" in self.fields:
            out.append((_("Registered players"), [self["players"]]))
        if self.slots:
            out.append((_("New players"), [
                self[f"player{slot}_{part}"] for slot in range(1, self.slots + 1)
                for part in ("name", "rating")]))
        out.append((_("Captain"), [self["captain"]]))
        return out

    def clean(self) -> dict[str, Any]:
        """The captain of a new player entered."""
        super().clean()
        data = self.cleaned_data
        captain = data.get("captain") or ""
        if captain.startswith("new:") and not data.get(f"player{captain[4:]}_name"):
            self.add_error("captain", _("The captain is not entered."))
        return data

    def _entries(self) -> tuple[list[SquadEntry], SquadCaptain]:
        """The team's players as the service takes them, and the captain."""
        data = self.cleaned_data
        entries: list[SquadEntry] = list(data.get("players") or [])
        captain: SquadCaptain = None
        value = data.get("captain") or ""
        if value.startswith("player:"):
            captain = next((p for p in entries if isinstance(p, Player)
                            and p.pk == int(value[7:])), None) or Player.objects.filter(
                pk=int(value[7:]), tournament=self.tournament).first()
        for slot in range(1, self.slots + 1):
            name = data.get(f"player{slot}_name")
            if not name:
                continue
            entries.append({"name": name, "club": data.get("club") or "",
                            "rating": data.get(f"player{slot}_rating") or 0})
            if value == f"new:{slot}":
                captain = len(entries)
        return entries, captain

    def save(self, actor: Any = None) -> SquadChange:
        """Register or change the team (``ServiceError`` names the form's field: ``players``,
        shown above the form when no registered player is offered)."""
        entries, captain = self._entries()
        data = self.cleaned_data
        if self.team is None:
            return register_squad(self.tournament, name=data["name"], club=data["club"],
                                  country=data["country"], players=entries, captain=captain,
                                  actor=actor)
        return update_squad(self.team.pk, name=data["name"], club=data["club"],
                            country=data["country"], players=entries, captain=captain,
                            actor=actor)
