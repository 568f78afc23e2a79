"""Team registration: a team of a team tournament (name, club, country, captain) with its pairs,
registered pairs of the tournament or new ones registered with it; changing and withdrawing it.

The rules every path obeys (the team form, the roster import's ``team`` column, the API): a
team tournament only; a team name once in the tournament; from two pairs (a team match seats
two boards, ``BOARDS``) to the squad size (``Tournament.team_squad_pairs``); a pair in one team
only, and a player too (never in two teams, nor in two pairs of one team); the captain one of
the team's players. A team is rated by its pairs' mean rating (:func:`team_rating`). A refusal is
a ``ServiceError`` naming the field at fault, and nothing is written.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import ProtectedError, Q
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import BOARDS, Pair, Party, Player, Team, Tournament
from scoring.roster import entrants_changed
from tournaments.registration.entry import register_pair_with_players
from tournaments.registration.services import rate_teams, team_rating
from tournaments.setup.services import actor_id, validated

logger = logging.getLogger(__name__)

__all__ = ["Captain", "NewPair", "PairEntry", "TeamChange", "rate_teams", "register_team",
           "remove_team", "team_rating", "update_team", "withdraw_team"]


@dataclass(frozen=True)
class NewPair:
    """A pair registered with its team: each player a registered one or a new one's fields
    (``name``, ``club``, ``city``, ``rating`` …), and the pair's own name (optional)."""

    players: tuple[Player | dict[str, Any], Player | dict[str, Any]]
    name: str = ""


PairEntry = Pair | NewPair
"""One of a team's pairs as given: a registered pair of the tournament, or a new one."""

Captain = Player | str | tuple[int, int] | None
"""The captain as given: a player, a player's name, or (pair number, player number) — both
counted from 1 in the order the pairs were given — or None for no captain."""

_KEEP: Any = object()
"""``update_team``: leave the captain as he is."""


@dataclass(frozen=True)
class TeamChange:
    """What a registration or change did: the team, its pairs now, the pairs and players
    registered with it and the pairs that left it."""

    team: Team
    pairs: list[Pair]
    new_pairs: list[Pair] = field(default_factory=list)
    new_players: list[Player] = field(default_factory=list)
    released: list[Pair] = field(default_factory=list)


def require_teams(tournament: Tournament) -> None:
    """Only a team tournament registers teams."""
    if tournament.format != Tournament.Format.TEAMS:
        raise ServiceError("tournament", _("Only a team tournament has teams."))


def _require_pairs(tournament: Tournament) -> None:
    """Only a team tournament of fixed pairs registers teams of pairs."""
    require_teams(tournament)
    if tournament.team_members == Tournament.TeamMembers.PLAYERS:
        raise ServiceError("pairs", _(
            "This tournament's teams are players the captain pairs for each match: register "
            "the team's players."))


def check_team_name(tournament: Tournament, name: str, team: Team | None) -> str:
    """A team's name: required, and once in the tournament (case does not matter)."""
    name = " ".join((name or "").split())
    if not name:
        raise ServiceError("name", _("Enter the team's name."))
    others = Team.objects.filter(tournament=tournament)
    if team is not None and team.pk:
        others = others.exclude(pk=team.pk)
    if any(other.casefold() == name.casefold()
           for other in others.values_list("name", flat=True)):
        raise ServiceError("name", _("The team %(name)s is already registered in this "
                                     "tournament.") % {"name": name})
    return name


def _check_count(tournament: Tournament, count: int) -> None:
    """From two pairs (the boards of a team match) to the squad size."""
    if count < BOARDS:
        raise ServiceError("pairs", _(
            "A team needs at least %(count)s pairs: a team match is played at %(count)s "
            "tables.") % {"count": BOARDS})
    if count > tournament.team_squad_pairs:
        raise ServiceError("pairs", _(
            "A team has at most %(count)s pairs in this tournament (the squad size).")
            % {"count": tournament.team_squad_pairs})


def _check_existing(tournament: Tournament, entries: Sequence[PairEntry],
                    team: Team | None) -> dict[int, Pair]:
    """The registered pairs given (by their number in ``entries``, from 1): the tournament's
    own pairs of two, in no other team, each once."""
    chosen: dict[int, Pair] = {}
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, Pair):
            continue
        pair = Pair.objects.select_related("team", "player1", "player2").filter(
            pk=entry.pk).first()
        if pair is None or pair.tournament_id != tournament.pk or pair.formed_in_round_id:
            raise ServiceError(f"pair{number}", _("No such pair in this tournament."))
        if pair.player2_id is None:
            raise ServiceError(f"pair{number}", _("A team's pair has two players."))
        if pair.team is not None and (team is None or pair.team_id != team.pk):
            raise ServiceError(f"pair{number}", _(
                "The pair %(pair)s already plays for the team %(team)s.")
                % {"pair": pair.display_name, "team": pair.team.name})
        if any(p.pk == pair.pk for p in chosen.values()):
            raise ServiceError(f"pair{number}", _("The pair %(pair)s is given twice.")
                               % {"pair": pair.display_name})
        chosen[number] = pair
    return chosen


def _check_players(tournament: Tournament, pairs: list[Pair], team: Team) -> None:
    """No player in two pairs of the team, nor in another team of the tournament."""
    seen: dict[int, Pair] = {}
    for pair in pairs:
        for player in (pair.player1, pair.player2):
            if player is None:
                continue
            if player.pk in seen:
                raise ServiceError("pairs", _(
                    "%(player)s is in two pairs of the team.") % {"player": player.name})
            seen[player.pk] = pair
    other = (Pair.objects.filter(tournament=tournament, team__isnull=False)
             .exclude(team=team).filter(Q(player1__in=list(seen)) | Q(player2__in=list(seen)))
             .select_related("team", "player1", "player2").order_by("id").first())
    if other is not None and other.team is not None:
        player = other.player1 if other.player1_id in seen else other.player2
        raise ServiceError("pairs", _(
            "%(player)s already plays for the team %(team)s.")
            % {"player": player.name if player else "", "team": other.team.name})


def _captain(given: Captain, pairs: list[Pair]) -> Player | None:
    """The captain as one of the team's players (``ServiceError`` naming ``captain``)."""
    if given is None or given == "":
        return None
    players = [p for pair in pairs for p in (pair.player1, pair.player2) if p is not None]
    if isinstance(given, tuple):
        number, seat = given
        if 1 <= number <= len(pairs) and seat in (1, 2):
            found = pairs[number - 1].player1 if seat == 1 else pairs[number - 1].player2
            if found is not None:
                return found
        raise ServiceError("captain", _("The captain must be one of the team's players."))
    if isinstance(given, Player):
        if any(p.pk == given.pk for p in players):
            return given
        raise ServiceError("captain", _("%(player)s does not play for the team: the captain "
                                        "must be one of its players.") % {"player": given.name})
    wanted = " ".join(str(given).split()).casefold()
    named = [p for p in players if p.name.casefold() == wanted]
    if len(named) == 1:
        return named[0]
    raise ServiceError("captain", _("%(name)s does not play for the team: the captain must be "
                                    "one of its players.") % {"name": given})


def _register_new(tournament: Tournament, entries: Sequence[PairEntry]) -> dict[int, Pair]:
    """Register the new pairs given (and their new players); a refusal names ``pair<n>_…``."""
    made: dict[int, Pair] = {}
    for number, entry in enumerate(entries, start=1):
        if isinstance(entry, NewPair):
            try:
                made[number] = register_pair_with_players(tournament, entry.players,
                                                          name=entry.name)
            except ServiceError as err:
                raise ServiceError(f"pair{number}_{err.field}", err.message) from err
    return made


def _set_pairs(tournament: Tournament, team: Team, entries: Sequence[PairEntry],
               captain: Captain, *, keep_captain: bool = False) -> TeamChange:
    """Give the team exactly these pairs (new ones registered) and its captain; rate it."""
    _check_count(tournament, len(entries))
    existing = _check_existing(tournament, entries, team)
    before = list(team.pairs.all()) if team.pk else []
    released = [p for p in before if all(p.pk != e.pk for e in existing.values())]
    played = Party.objects.filter(team_match__isnull=False).filter(
        Q(pair_a__in=released) | Q(pair_b__in=released))
    if released and played.exists():
        party = played.select_related("pair_a", "pair_b").first()
        pair = party.pair_a if party and party.pair_a in released else (
            party.pair_b if party else None)
        raise ServiceError("pairs", _("The pair %(pair)s has played for the team: it stays in "
                                      "it.") % {"pair": pair.display_name if pair else ""})
    made = _register_new(tournament, entries)
    pairs = [made[n] if n in made else existing[n] for n in range(1, len(entries) + 1)]
    _check_players(tournament, pairs, team)
    if keep_captain:
        chosen = team.captain
        if chosen is not None and all(
                chosen.pk not in (p.player1_id, p.player2_id) for p in pairs):
            raise ServiceError("captain", _(
                "The captain %(player)s leaves the team with his pair: choose another captain.")
                % {"player": chosen.name})
    else:
        chosen = _captain(captain, pairs)
    team.captain = chosen
    team.rating = team_rating(pairs)
    validated(team)
    if released:
        Pair.objects.filter(pk__in=[p.pk for p in released]).update(team=None)
    Pair.objects.filter(pk__in=[p.pk for p in pairs]).update(team=team)
    entrants_changed([team.tournament_id])
    for pair in pairs:
        pair.team = team
    new_players = [p for pair in made.values() for p in (pair.player1, pair.player2)
                   if p is not None and p.pk not in _registered_before(entries)]
    return TeamChange(team, pairs, list(made.values()), new_players, released)


def _registered_before(entries: Sequence[PairEntry]) -> set[int]:
    """The ids of the registered players a new pair of ``entries`` was given."""
    return {p.pk for e in entries if isinstance(e, NewPair) for p in e.players
            if isinstance(p, Player)}


@transaction.atomic
def register_team(tournament: Tournament, *, name: str, pairs: Sequence[PairEntry],
                  club: str = "", country: str = "", captain: Captain = None,
                  actor: Any = None) -> TeamChange:
    """Register a team with its pairs (registered ones, or new ones with their players).

    Refused (``ServiceError`` naming the field, nothing written): outside a team tournament
    (``tournament``), a name taken (``name``), too few or too many pairs, a player in two
    teams or two pairs of the team (``pairs``), a pair of another team (``pair<n>``), a new
    pair's player refused by the registration (``pair<n>_player<m>_<field>``), a captain who
    is not one of its players (``captain``).
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_pairs(tournament)
    team = Team(tournament=tournament, club=" ".join((club or "").split()),
                country=" ".join((country or "").split()))
    team.name = check_team_name(tournament, name, None)
    _check_count(tournament, len(pairs))
    _check_existing(tournament, pairs, None)
    validated(team)
    done = _set_pairs(tournament, team, pairs, captain)
    logger.info("team registered: tournament=%s team=%s pairs=%s actor=%s", tournament.pk,
                team.pk, [p.pk for p in done.pairs], actor_id(actor))
    return done


def changed_team(team_id: int, fields: dict[str, Any],
                 require: Callable[[Tournament], None]) -> tuple[Team, Tournament]:
    """The team to change, locked with its tournament (which ``require`` checks), its
    ``name``, ``club`` and ``country`` set from ``fields`` (unsaved); refused on an unknown
    team (``team``), field or name taken."""
    team = Team.objects.select_for_update(of=("self",)).select_related("captain").filter(
        pk=team_id).first()
    if team is None:
        raise ServiceError("team", _("No such team."))
    tournament = Tournament.objects.select_for_update().get(pk=team.tournament_id)
    require(tournament)
    unknown = set(fields) - {"name", "club", "country"}
    if unknown:
        raise ServiceError(sorted(unknown)[0], _("Not a field of a team."))
    if "name" in fields:
        team.name = check_team_name(tournament, fields["name"], team)
    for key in ("club", "country"):
        if key in fields:
            setattr(team, key, " ".join((fields[key] or "").split()))
    return team, tournament


@transaction.atomic
def update_team(team_id: int, *, actor: Any = None, pairs: Sequence[PairEntry] | None = None,
                captain: Captain = _KEEP, **fields: Any) -> TeamChange:
    """Change a team: its ``name``, ``club``, ``country``, its pairs (the whole list, new ones
    registered, those left out leave the team) and its captain; refused like a new team.

    A pair that has played a party for the team stays in it (``pairs``).
    """
    team, tournament = changed_team(team_id, fields, _require_pairs)
    entries: Sequence[PairEntry] = list(team.pairs.select_related(
        "player1", "player2").order_by("id")) if pairs is None else pairs
    done = _set_pairs(tournament, team, entries, None if captain is _KEEP else captain,
                      keep_captain=captain is _KEEP)
    logger.info("team changed: tournament=%s team=%s fields=%s pairs=%s actor=%s",
                tournament.pk, team.pk, sorted(fields), [p.pk for p in done.pairs],
                actor_id(actor))
    return done


@transaction.atomic
def withdraw_team(team_id: int, *, withdrawn: bool = True, actor: Any = None) -> Team:
    """Withdraw a team from later draws (or reinstate it); its results stay as they are."""
    try:
        team = Team.objects.select_for_update().get(pk=team_id)
    except Team.DoesNotExist as exc:
        raise ServiceError("team", _("No such team.")) from exc
    if team.withdrawn != withdrawn:
        team.withdrawn = withdrawn
        team.save(update_fields=["withdrawn"])
        logger.info("team %s: tournament=%s team=%s actor=%s",
                    "withdrawn" if withdrawn else "reinstated", team.tournament_id, team.pk,
                    actor_id(actor))
    return team


@transaction.atomic
def remove_team(team_id: int, *, actor: Any = None) -> None:
    """Delete a team that has no team match (withdraw it otherwise); its pairs stay registered."""
    team = Team.objects.filter(pk=team_id).first()
    if team is None:
        raise ServiceError("team", _("No such team."))
    try:
        with transaction.atomic():
            Pair.objects.filter(team=team).update(team=None)
            team.delete()  # its tournament's entrants version moves with it
    except ProtectedError as exc:
        raise ServiceError("team", _("The team has played team matches: withdraw it "
                                     "instead.")) from exc
    logger.info("team removed: tournament=%s team=%s actor=%s", team.tournament_id, team_id,
                actor_id(actor))
