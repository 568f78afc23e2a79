"""Who may do what: every per-object permission check of the site lives here."""

from __future__ import annotations

from typing import Any

from tournaments.models import Party, Tournament, TournamentRole


def roles_in(user: Any, tournament: Tournament) -> set[str]:
    """The roles a user holds in a tournament (cached on the user object per request)."""
    if not getattr(user, "is_authenticated", False):
        return set()
    cache = user.__dict__.setdefault("_tournament_roles", {})
    if tournament.pk not in cache:
        cache[tournament.pk] = set(
            TournamentRole.objects.filter(tournament=tournament, user=user).values_list(
                "role", flat=True
            )
        )
    return cache[tournament.pk]


def can_create_tournament(user: Any) -> bool:
    """Organizers (users with the add-tournament permission) create tournaments."""
    return bool(getattr(user, "is_authenticated", False)) and user.has_perm(
        "tournaments.add_tournament"
    )


def can_manage(user: Any, tournament: Tournament) -> bool:
    """Organizers of this tournament (and superusers) manage its data and draws."""
    if getattr(user, "is_superuser", False):
        return True
    return TournamentRole.Role.ORGANIZER in roles_in(user, tournament)


def is_chief(user: Any, tournament: Tournament) -> bool:
    """The chief referee acts everywhere in the tournament and corrects others' records."""
    if can_manage(user, tournament):
        return True
    return TournamentRole.Role.CHIEF in roles_in(user, tournament)


def can_referee(user: Any, party: Party) -> bool:
    """Referees of the party's tournament (of its table, if assigned), the chief, organizers."""
    tournament = party.round.tournament
    if is_chief(user, tournament):
        return True
    if TournamentRole.Role.REFEREE not in roles_in(user, tournament):
        return False
    role = TournamentRole.objects.filter(
        tournament=tournament, user=user, role=TournamentRole.Role.REFEREE
    ).first()
    if role is None:
        return False
    tables = set(role.tables.values_list("pk", flat=True))
    return not tables or party.table_id in tables


def can_view(user: Any, tournament: Tournament) -> bool:
    """Public tournaments are open to all; others to the people who hold a role in them."""
    if tournament.public or getattr(user, "is_superuser", False):
        return True
    if roles_in(user, tournament):
        return True
    return bool(
        getattr(user, "is_authenticated", False) and tournament.players.filter(user=user).exists()
    )
