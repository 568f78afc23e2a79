"""Teams of players (``Tournament.team_members`` "players"): a team registers its players,
from four (the two pairs of a team match) up to the squad size
(``Tournament.team_squad_players``; more than four are substitutes), and its captain pairs
four of them for each team match (``tournaments.rounds.team_lineups``).

The rules every path obeys (the team form, the roster import's ``team`` column, the API): a
team tournament of players only; a team name once in the tournament; a player of this
tournament in one team only, and named once; the captain one of the team's players. A team is
rated by its players' mean rating. A refusal is a ``ServiceError`` naming the field at fault
(``players``, ``name``, ``captain``), and nothing is written.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import Party, Player, Team, Tournament
from scoring.roster import entrants_changed
from scoring.teams.seating import PLAYERS_PER_MATCH
from tournaments.registration.services import register_player, squad_rating
from tournaments.registration.teams import changed_team, check_team_name, require_teams
from tournaments.setup.services import actor_id, validated

logger = logging.getLogger(__name__)

SquadEntry = Player | dict[str, Any]
"""One of a team's players as given: a registered player, or a new one's fields (``name``,
``club``, ``rating`` …)."""

SquadCaptain = Player | str | int | None
"""The captain as given: a player, a player's name, his number in the list given (from 1),
or None for no captain."""

KEEP: Any = object()
"""``update_squad``: leave the captain as he is."""


@dataclass(frozen=True)
class SquadChange:
    """What a registration or change of a team of players did: the team, its players now,
    those registered with it and those who left it."""

    team: Team
    players: list[Player]
    new_players: list[Player] = field(default_factory=list)
    released: list[Player] = field(default_factory=list)


def _require_players(tournament: Tournament) -> None:
    """Only a team tournament of players registers teams of players."""
    require_teams(tournament)
    if tournament.team_members != Tournament.TeamMembers.PLAYERS:
        raise ServiceError("players", _(
            "This tournament's teams are fixed pairs: register the team's pairs."))


def _check_count(tournament: Tournament, count: int) -> None:
    """From four players (a team match's two pairs) to the squad size."""
    if count < PLAYERS_PER_MATCH:
        raise ServiceError("players", _(
            "A team needs at least %(count)s players: a team match seats two pairs of it.")
            % {"count": PLAYERS_PER_MATCH})
    if count > tournament.team_squad_players:
        raise ServiceError("players", _(
            "A team has at most %(count)s players in this tournament (the squad size).")
            % {"count": tournament.team_squad_players})


def _check_registered(tournament: Tournament, entries: Sequence[SquadEntry],
                      team: Team | None) -> None:
    """The registered players given: this tournament's, each once, in no other team."""
    seen: set[int] = set()
    for entry in entries:
        if not isinstance(entry, Player):
            continue
        player = Player.objects.select_related("team").filter(pk=entry.pk).first()
        if player is None or player.tournament_id != tournament.pk:
            raise ServiceError("players", _("No such player in this tournament."))
        if player.pk in seen:
            raise ServiceError("players", _("%(player)s is given twice.")
                               % {"player": player.name})
        seen.add(player.pk)
        if player.team is not None and (team is None or player.team_id != team.pk):
            raise ServiceError("players", _("%(player)s already plays for the team %(team)s.")
                               % {"player": player.name, "team": player.team.name})


def _captain(given: SquadCaptain, players: list[Player]) -> Player | None:
    """The captain as one of the team's players (``ServiceError`` naming ``captain``)."""
    if given is None or given == "":
        return None
    if isinstance(given, int) and not isinstance(given, bool):
        if 1 <= given <= len(players):
            return players[given - 1]
    elif isinstance(given, Player):
        if any(p.pk == given.pk for p in players):
            return given
    else:
        wanted = " ".join(str(given).split()).casefold()
        named = [p for p in players if p.name.casefold() == wanted]
        if len(named) == 1:
            return named[0]
    raise ServiceError("captain", _("The captain must be one of the team's players."))


def _set_players(tournament: Tournament, team: Team, entries: Sequence[SquadEntry],
                 captain: SquadCaptain) -> SquadChange:
    """Give the saved team exactly these players (new ones registered) and its captain."""
    _check_count(tournament, len(entries))
    _check_registered(tournament, entries, team)
    kept = {e.pk for e in entries if isinstance(e, Player)}
    released = list(Player.objects.filter(team=team).exclude(pk__in=kept))
    gone = next((p for p in released if _has_played(team, p)), None)
    if gone is not None:
        raise ServiceError("players", _("%(player)s has played for the team: he stays in it.")
                           % {"player": gone.name})
    players: list[Player] = []
    new_players: list[Player] = []
    for entry in entries:
        if isinstance(entry, Player):
            players.append(Player.objects.get(pk=entry.pk))
            continue
        try:
            made = register_player(tournament, **{"club": team.club, **entry})
        except ServiceError as err:
            raise ServiceError("players", _("%(name)s: %(message)s") % {
                "name": entry.get("name", ""), "message": err.message}) from err
        players.append(made)
        new_players.append(made)
    chosen = team.captain if captain is KEEP else _captain(captain, players)
    if chosen is not None and all(chosen.pk != p.pk for p in players):
        raise ServiceError("captain", _("The captain %(player)s leaves the team: choose "
                                        "another captain.") % {"player": chosen.name})
    team.captain = chosen
    team.rating = squad_rating(players)
    validated(team)
    if released:
        Player.objects.filter(pk__in=[p.pk for p in released]).update(team=None)
    Player.objects.filter(pk__in=[p.pk for p in players]).update(team=team)
    entrants_changed([team.tournament_id])
    return SquadChange(team, players, new_players, released)


def _has_played(team: Team, player: Player) -> bool:
    """Whether ``player`` has sat at a party of a team match for ``team``."""
    sides = Party.objects.filter(team_match__isnull=False)
    return any(sides.filter(**{f"{side}__team": team, f"{side}__{seat}": player}).exists()
               for side in ("pair_a", "pair_b") for seat in ("player1", "player2"))


@transaction.atomic
def register_squad(tournament: Tournament, *, name: str, players: Sequence[SquadEntry],
                   club: str = "", country: str = "", captain: SquadCaptain = None,
                   actor: Any = None) -> SquadChange:
    """Register a team of players (registered ones, or new ones by their fields).

    Refused (``ServiceError`` naming the field, nothing written): not a team tournament of
    players (``tournament``, ``players``), a name taken (``name``), fewer than four players
    or more than the squad size, a player in another team, named twice or refused by the
    registration (``players``), a captain who is not one of its players (``captain``).
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_players(tournament)
    team = Team(tournament=tournament, club=" ".join((club or "").split()),
                country=" ".join((country or "").split()))
    team.name = check_team_name(tournament, name, None)
    _check_count(tournament, len(players))
    _check_registered(tournament, players, None)
    validated(team)
    done = _set_players(tournament, team, players, captain)
    logger.info("team registered: tournament=%s team=%s players=%s actor=%s", tournament.pk,
                team.pk, [p.pk for p in done.players], actor_id(actor))
    return done


@transaction.atomic
def update_squad(team_id: int, *, actor: Any = None,
                 players: Sequence[SquadEntry] | None = None, captain: SquadCaptain = KEEP,
                 **fields: Any) -> SquadChange:
    """Change a team of players: its ``name``, ``club``, ``country``, its players (the whole
    list, new ones registered, those left out leave the team unless they have played for it)
    and its captain; refused like a new team."""
    team, tournament = changed_team(team_id, fields, _require_players)
    entries: Sequence[SquadEntry] = (list(Player.objects.filter(team=team).order_by("id"))
                                     if players is None else players)
    done = _set_players(tournament, team, entries, captain)
    logger.info("team changed: tournament=%s team=%s fields=%s players=%s actor=%s",
                tournament.pk, team.pk, sorted(fields), [p.pk for p in done.players],
                actor_id(actor))
    return done
