"""Registration services: players, pairs (a side of one player in singles) and tables of a
tournament; changing, withdrawing and removing them; a player's personal link."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Prefetch, ProtectedError, Q, QuerySet
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import Pair, Player, Table, Team, Tournament, new_access_token
from scoring.people.profiles import link_new_player
from scoring.roster import entrants_changed
from tournaments.setup.services import actor_id, validated

logger = logging.getLogger(__name__)


@transaction.atomic
def register_player(tournament: Tournament, *, side: bool = False, profile: Any = None,
                    **fields: Any) -> Player:
    """Register a player linked to ``profile`` or a new one; with ``side`` also his side."""
    details = {k: fields.pop(k) for k in ("birth_year", "federation_id") if k in fields}
    link_new_player(player := validated(Player(tournament=tournament, **fields)), profile,
                    **details)
    logger.info("player registered: tournament=%s player=%s", tournament.pk, player.pk)
    if side:
        register_pair(tournament, player, None)
    return player


@transaction.atomic
def register_pair(
    tournament: Tournament,
    player1: Player,
    player2: Player | None = None,
    name: str = "",
    **fields: Any,
) -> Pair:
    """Register two players as a pair (one: a singles side); rated by ``Pair.seeding_rating``."""
    fields.setdefault("rating", Pair.seeding_rating(player1, player2))
    pair = validated(
        Pair(tournament=tournament, player1=player1, player2=player2, name=name, **fields)
    )
    logger.info("pair registered: tournament=%s pair=%s players=%s,%s", tournament.pk,
                pair.pk, player1.pk, player2.pk if player2 is not None else None)
    return pair


def team_rating(pairs: Iterable[Pair]) -> int:
    """A team's seeding rating: the mean of its pairs' ratings, rounded down (0 without pairs).

    The one function for every way a team is registered or changed (``registration.teams``),
    and for a pair's rating changed afterwards (:func:`rate_teams`).
    """
    ratings = [pair.rating for pair in pairs]
    return sum(ratings) // len(ratings) if ratings else 0


def squad_rating(players: Iterable[Player]) -> int:
    """A team of players' seeding rating: the mean of its players' ratings, rounded down (0
    without players)."""
    ratings = [player.rating for player in players]
    return sum(ratings) // len(ratings) if ratings else 0


def rate_teams(tournament_id: int, team_ids: Iterable[int] | None = None) -> int:
    """Rate the tournament's teams (or those of ``team_ids``) anew from their pairs' ratings
    (a team of players: its players'); how many changed."""
    teams = Team.objects.filter(tournament_id=tournament_id).prefetch_related(
        Prefetch("pairs", queryset=Pair.objects.filter(formed_in_round__isnull=True)),
        "players")
    if team_ids is not None:
        teams = teams.filter(pk__in=list(team_ids))
    changed = 0
    for team in teams:
        pairs = list(team.pairs.all())
        rating = team_rating(pairs) if pairs else squad_rating(team.players.all())
        if rating != team.rating:
            Team.objects.filter(pk=team.pk).update(rating=rating)
            changed += 1
    if changed:
        entrants_changed([tournament_id])
    return changed


@transaction.atomic
def add_table(tournament: Tournament, number: int, label: str = "") -> Table:
    """Number a table of the hall."""
    if Table.objects.filter(tournament=tournament, number=number).exists():
        raise ServiceError("number", _("Table %(number)s already exists.") % {"number": number})
    table = validated(Table(tournament=tournament, number=number, label=label))
    logger.info("table added: tournament=%s table=%s number=%s", tournament.pk, table.pk, number)
    return table


def _set_withdrawn(entrants: QuerySet, pk: int, withdrawn: bool) -> Any:
    """Lock a pair's or player's row and set its withdrawn flag."""
    try:
        entrant = entrants.select_for_update(of=("self",)).get(pk=pk)
    except entrants.model.DoesNotExist as exc:
        raise ServiceError("entrant", _("No such pair or player.")) from exc
    if entrant.withdrawn != withdrawn:
        entrant.withdrawn = withdrawn
        entrant.save(update_fields=["withdrawn"])
        logger.info("%s %s: tournament=%s %s=%s", entrants.model.__name__.lower(),
                    "withdrawn" if withdrawn else "reinstated", entrant.tournament_id,
                    entrants.model.__name__.lower(), entrant.pk)
    return entrant


@transaction.atomic
def withdraw_pair(pair_id: int, *, withdrawn: bool = True, actor: Any = None) -> Pair:
    """Withdraw a pair from later draws (or reinstate it); its results stay as they are."""
    return _set_withdrawn(Pair.objects.filter(formed_in_round__isnull=True), pair_id, withdrawn)


@transaction.atomic
def withdraw_player(player_id: int, *, withdrawn: bool = True, actor: Any = None) -> Player:
    """Withdraw a player from later draws (or reinstate him); results stay as they are.

    In a pairs tournament the player's pair is withdrawn with him (it cannot play without
    him); reinstating the player leaves the pair to be reinstated on its own.
    """
    player = _set_withdrawn(Player.objects.all(), player_id, withdrawn)
    if withdrawn:
        Pair.objects.filter(
            Q(player1=player) | Q(player2=player), formed_in_round__isnull=True
        ).update(withdrawn=True)
        entrants_changed([player.tournament_id])
    return player


@transaction.atomic
def renew_personal_link(player_id: int, *, actor: Any = None) -> Player:
    """Give a player a new personal link key: the old link stops working at once."""
    try:
        player = Player.objects.select_for_update(of=("self",)).get(pk=player_id)
    except Player.DoesNotExist as exc:
        raise ServiceError("player", _("No such player.")) from exc
    player.access_token = new_access_token()
    player.save(update_fields=["access_token"])
    logger.info("personal link renewed: tournament=%s player=%s actor=%s",
                player.tournament_id, player.pk, actor_id(actor))
    return player


@transaction.atomic
def update_member(member: Player | Pair | Table, *, actor: Any = None, **fields: Any) -> Any:
    """Change a player, pair or table of a tournament (validated like a new one)."""
    member = type(member).objects.select_for_update().get(pk=member.pk)
    if isinstance(member, Table) and "number" in fields and Table.objects.filter(
            tournament_id=member.tournament_id, number=fields["number"]).exclude(
            pk=member.pk).exists():
        raise ServiceError("number", _("Table %(number)s already exists.")
                           % {"number": fields["number"]})
    for name, value in fields.items():
        setattr(member, name, value)
    member = validated(member)
    if isinstance(member, Pair | Player) and member.team_id is not None:
        rate_teams(member.tournament_id, [member.team_id])
    logger.info("%s changed: tournament=%s id=%s fields=%s actor=%s",
                type(member).__name__.lower(), member.tournament_id, member.pk, sorted(fields),
                actor_id(actor))
    return member


@transaction.atomic
def remove_member(member: Player | Pair | Table, *, actor: Any = None) -> None:
    """Delete a player, pair or table that no party or pair refers to (withdraw it otherwise)."""
    try:
        type(member).objects.filter(pk=member.pk).delete()
    except ProtectedError as exc:
        raise ServiceError("__all__", _("It is part of a pair or a draw; withdraw it "
                                        "instead.")) from exc
    logger.info("%s removed: tournament=%s id=%s actor=%s", type(member).__name__.lower(),
                member.tournament_id, member.pk, actor_id(actor))
