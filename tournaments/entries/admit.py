"""An accepted entry becomes the entrants the rest of the product knows: a pair with its two
players, or a player (a side of one in singles). One function, for the page and the API."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import Entry, Profile
from scoring.people.entries import person_rating
from tournaments.registration.entry import register_pair_with_players
from tournaments.registration.services import register_player


def _player_fields(name: str, profile: Profile | None, user_id: int | None = None,
                   **details: Any) -> dict[str, Any]:
    """A new player's fields from an entry's person: his profile links him (a new one is made
    of his name, club and city otherwise)."""
    rating = person_rating(profile)
    fields = {"name": name, "profile": profile, "rating": rating or 0, "user_id": user_id}
    if profile is not None:
        fields.update(club=profile.club, city=profile.city)
    else:
        fields.update({k: v for k, v in details.items() if v not in (None, "")})
    return fields


@transaction.atomic
def admit_entry(entry: Entry) -> Entry:
    """Register the entry's pair (or player) in its tournament and link it to the entry.

    Refused while a doubtful profile is left to choose (naming ``profile`` or
    ``partner_profile``): the organizer edits the entry first.
    """
    for field in ("profile", "partner_profile"):
        if entry.doubts.get(field):
            raise ServiceError(field, _("Choose the profile of %(name)s first (a doubtful "
                                        "match).") % {"name": entry.name if field == "profile"
                                                      else entry.partner_name})
    tournament = entry.tournament
    first = _player_fields(entry.name, entry.profile, entry.user_id, club=entry.club,
                           city=entry.city, birth_year=entry.birth_year)
    if entry.partner_name:
        second = _player_fields(entry.partner_name, entry.partner_profile)
        pair = register_pair_with_players(tournament, (first, second))
        entry.pair, entry.player = pair, pair.player1
    else:
        entry.player = register_player(tournament, side=tournament.singles, **first)
    if entry.user_id and entry.player.profile_id:
        Profile.objects.filter(pk=entry.player.profile_id, user__isnull=True).exclude(
            pk__in=Profile.objects.filter(user_id=entry.user_id).values("pk")).update(
            user_id=entry.user_id)
    entry.save(update_fields=["pair", "player"])
    return entry
