"""Services for tournaments: registration, and the party row lock every party service uses."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import ProtectedError, Q, QuerySet
from django.utils.translation import gettext as _

from tournaments.errors import ConflictError, ServiceError
from tournaments.models import (
    Pair,
    Party,
    Player,
    Regulations,
    Table,
    Tournament,
    TournamentRole,
    new_access_token,
)


def lock_party(party_id: int, expected_version: int | None = None) -> Party:
    """Lock a party's row for this transaction; refuse a stale version with a conflict."""
    try:
        party = (
            Party.objects.select_for_update(of=("self",))
            .select_related("round__tournament__regulations", "pair_a", "pair_b", "table")
            .get(pk=party_id)
        )
    except Party.DoesNotExist as exc:
        raise ServiceError("party", _("No such party.")) from exc
    if expected_version is not None and int(expected_version) != party.version:
        raise ConflictError(
            "version",
            _(
                "The party was changed by someone else (version %(have)s, you sent %(sent)s). "
                "Reload and try again."
            )
            % {"have": party.version, "sent": expected_version},
        )
    return party


def bump_version(party: Party, **fields: Any) -> None:
    """Save the given fields of a locked party and increase its version."""
    for name, value in fields.items():
        setattr(party, name, value)
    party.version += 1
    party.save(update_fields=[*fields.keys(), "version"])


def _validated(instance: Any) -> Any:
    """Run model validation and save; raise ServiceError naming the first field at fault."""
    try:
        instance.full_clean()
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise ServiceError(field, messages[0]) from exc
    instance.save()
    return instance


@transaction.atomic
def create_tournament(*, name: str, slug: str, organizer: Any = None, **fields: Any) -> Tournament:
    """Create a tournament with default regulations and make the creator its organizer."""
    tournament = Tournament(name=name, slug=slug, created_by=organizer, **fields)
    _check_dates(tournament)
    tournament = _validated(tournament)
    Regulations.objects.create(tournament=tournament)
    if organizer is not None:
        TournamentRole.objects.create(
            tournament=tournament, user=organizer, role=TournamentRole.Role.ORGANIZER
        )
    return tournament


@transaction.atomic
def register_player(tournament: Tournament, **fields: Any) -> Player:
    """Register a player in a tournament."""
    return _validated(Player(tournament=tournament, **fields))


@transaction.atomic
def register_pair(
    tournament: Tournament, player1: Player, player2: Player, name: str = "", **fields: Any
) -> Pair:
    """Register two distinct players of the tournament as a pair."""
    return _validated(
        Pair(tournament=tournament, player1=player1, player2=player2, name=name, **fields)
    )


@transaction.atomic
def add_table(tournament: Tournament, number: int, label: str = "") -> Table:
    """Number a table of the hall."""
    if Table.objects.filter(tournament=tournament, number=number).exists():
        raise ServiceError("number", _("Table %(number)s already exists.") % {"number": number})
    return _validated(Table(tournament=tournament, number=number, label=label))


def _set_withdrawn(entrants: QuerySet, pk: int, withdrawn: bool) -> Any:
    """Lock a pair's or player's row and set its withdrawn flag."""
    try:
        entrant = entrants.select_for_update(of=("self",)).get(pk=pk)
    except entrants.model.DoesNotExist as exc:
        raise ServiceError("entrant", _("No such pair or player.")) from exc
    if entrant.withdrawn != withdrawn:
        entrant.withdrawn = withdrawn
        entrant.save(update_fields=["withdrawn"])
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
    return player


def _check_dates(tournament: Tournament) -> None:
    """The end date cannot come before the start date."""
    start, end = tournament.start_date, tournament.end_date
    if start and end and end < start:
        raise ServiceError("end_date", _("The end date is before the start date."))


@transaction.atomic
def update_tournament(tournament_id: int, *, actor: Any = None, **fields: Any) -> Tournament:
    """Change a tournament's own fields (name, dates, public page switches…)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    for name, value in fields.items():
        setattr(tournament, name, value)
    _check_dates(tournament)
    return _validated(tournament)


@transaction.atomic
def update_regulations(tournament_id: int, *, actor: Any = None, **fields: Any) -> Regulations:
    """Change rule settings of a tournament; settings that contradict each other are refused."""
    regulations, _created = Regulations.objects.select_for_update().get_or_create(
        tournament_id=tournament_id
    )
    for name, value in fields.items():
        setattr(regulations, name, value)
    return _validated(regulations)


@transaction.atomic
def update_member(member: Player | Pair | Table, *, actor: Any = None, **fields: Any) -> Any:
    """Change a player, pair or table of a tournament (validated like a new one)."""
    member = type(member).objects.select_for_update().get(pk=member.pk)
    if isinstance(member, Table) and "number" in fields and (
        Table.objects.filter(tournament_id=member.tournament_id, number=fields["number"])
        .exclude(pk=member.pk)
        .exists()
    ):
        raise ServiceError(
            "number", _("Table %(number)s already exists.") % {"number": fields["number"]}
        )
    for name, value in fields.items():
        setattr(member, name, value)
    return _validated(member)


@transaction.atomic
def remove_member(member: Player | Pair | Table, *, actor: Any = None) -> None:
    """Delete a player, pair or table that no party or pair refers to (withdraw it otherwise)."""
    try:
        type(member).objects.filter(pk=member.pk).delete()
    except ProtectedError as exc:
        raise ServiceError(
            "__all__", _("It is part of a pair or a draw; withdraw it instead.")
        ) from exc
