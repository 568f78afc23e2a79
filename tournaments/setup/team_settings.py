"""A team tournament's settings on its create/edit form: the team tie-breaks as numbered selects
of their names (like the standings order), and the check every path shares."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.core.errors import ServiceError
from scoring.models import Pair, Player, Tournament
from scoring.models.tournament import TEAM_TIE_BREAKS
from tournaments.setup.metric_order import MetricOrderWidget

TEAM_FIELDS = ("team_members", "team_squad_pairs", "team_squad_players", "team_lineup_changes",
               "team_halves", "team_scoring", "team_tie_breaks")
"""The tournament's fields that only a team tournament uses."""

KEPT_TEAM_FIELDS = ("team_members", "team_squad_pairs", "team_squad_players", "team_scoring")
"""The team settings a form may leave out: kept as they are."""

TIE_BREAK_NAMES = {
    "party_wins": gettext_lazy("Parties won"),
    "point_difference": gettext_lazy("Point difference"),
    "head_to_head": gettext_lazy("Head-to-head"),
    "buchholz": gettext_lazy("Buchholz"),
}
"""Each team tie-break's name, by its key (``TEAM_TIE_BREAKS``)."""


def tie_break_name(key: str) -> str:
    """A team tie-break's translated name (the key itself when unknown)."""
    return str(TIE_BREAK_NAMES.get(key, key))


def check_tie_breaks(value: Any) -> list[str]:
    """The team tie-breaks as stored: known keys, each once; empty means the default order.

    ``ServiceError`` naming ``team_tie_breaks`` otherwise.
    """
    if value in (None, ""):
        return list(TEAM_TIE_BREAKS)
    if not isinstance(value, list | tuple) or not all(isinstance(k, str) for k in value):
        raise ServiceError("team_tie_breaks", _("A list of tie-break names."))
    for key in value:
        if key not in TEAM_TIE_BREAKS:
            raise ServiceError("team_tie_breaks", _(
                "Unknown tie-break %(name)s; the tie-breaks are: %(names)s.")
                % {"name": key, "names": ", ".join(TEAM_TIE_BREAKS)})
        if list(value).count(key) > 1:
            raise ServiceError("team_tie_breaks", _("%(name)s is chosen twice.")
                               % {"name": tie_break_name(key)})
    return list(value) or list(TEAM_TIE_BREAKS)


def check_team_settings(tournament: Tournament) -> None:
    """The team settings agree with the teams registered: no team has more pairs (players)
    than the squad size, teams registered keep their kind of members (fixed pairs or
    players), and a tournament with teams stays a team tournament."""
    tournament.team_tie_breaks = check_tie_breaks(tournament.team_tie_breaks)
    if not tournament.pk:
        return
    teams = tournament.teams.all()
    if tournament.format != Tournament.Format.TEAMS and teams.exists():
        raise ServiceError("format", _("Teams are registered: remove them before the tournament "
                                       "stops being a team tournament."))
    by_players = tournament.team_members == Tournament.TeamMembers.PLAYERS
    fixed = Pair.objects.filter(team__tournament=tournament, formed_in_round__isnull=True)
    if (Player.objects.filter(team__tournament=tournament).exists() if not by_players
            else fixed.exists()):
        raise ServiceError("team_members", _(
            "Teams are registered with their members: the kind of members stays."))
    for team in teams.annotate(size=Count("players")):
        if team.size > tournament.team_squad_players:
            raise ServiceError("team_squad_players", _(
                "The team %(team)s has %(count)s players already.")
                % {"team": team.name, "count": team.size})
        if fixed.filter(team=team).count() > tournament.team_squad_pairs:
            raise ServiceError("team_squad_pairs", _(
                "The team %(team)s has %(count)s pairs already.")
                % {"team": team.name, "count": fixed.filter(team=team).count()})


class TieBreakOrderField(forms.Field):
    """The team tie-breaks in order, each chosen by its name in a numbered select."""

    widget = MetricOrderWidget

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.widget.choices = [(key, TIE_BREAK_NAMES[key]) for key in TEAM_TIE_BREAKS]
        self.widget.places = len(TEAM_TIE_BREAKS)
        self.widget.place_label = gettext_lazy("Place %(number)s among the team tie-breaks")

    def to_python(self, value: Any) -> list[str]:
        """The chosen keys in order, empty places left out."""
        if isinstance(value, str):
            value = value.split(",")
        return [str(key).strip() for key in (value or []) if str(key).strip()]

    def validate(self, value: list[str]) -> None:
        """Each tie-break once, and only the known ones."""
        super().validate(value)
        try:
            check_tie_breaks(value)
        except ServiceError as err:
            raise forms.ValidationError(err.message, code="tie_break") from err
