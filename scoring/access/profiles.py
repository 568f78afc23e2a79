"""Who may see, read the details of, merge and unmerge player profiles (one person across
tournaments).

A person is shown only through the tournaments the visitor may see: a profile is visible when
it plays in a tournament of ``permissions.visible_tournaments`` (the one rule of hidden and
public tournaments), and to its own user; staff see every profile; a profile's tournaments are
counted among those the visitor may see (``seen_tournaments``). Birth years and federation
ids are for staff and for the organizers of a tournament where the person plays. A merge (and
its undoing) is for staff, or for an organizer for whom both profiles play only in tournaments
he organizes: he merges the duplicates of his own players, never another organizer's people.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Count, Q, QuerySet

from scoring.access.permissions import is_organizer, managed_tournaments, visible_tournaments
from scoring.models import Player, Profile, ProfileMerge


def is_staff(user: Any) -> bool:
    """Staff and superusers: they see and merge every profile."""
    return bool(getattr(user, "is_authenticated", False)) and bool(
        user.is_staff or user.is_superuser)


def visible_profiles(user: Any) -> QuerySet[Profile]:
    """The profiles a user may see: those playing in a tournament he may see, and his own
    (every profile for staff)."""
    if is_staff(user):
        return Profile.objects.all()
    seen = Player.objects.filter(tournament__in=visible_tournaments(user).values("pk"))
    shown = Q(pk__in=seen.values("profile_id"))
    if getattr(user, "is_authenticated", False):
        shown |= Q(user=user)
    return Profile.objects.filter(shown)


def seen_tournaments(user: Any) -> Count:
    """An annotation of profiles: how many tournaments of each the user may see (every one
    for staff), so that a count never tells of a hidden tournament."""
    if is_staff(user):
        return Count("entries__tournament", distinct=True)
    return Count("entries__tournament", distinct=True, filter=Q(
        entries__tournament__in=visible_tournaments(user).values("pk")))


def can_see_profile(user: Any, profile: Profile) -> bool:
    """Whether the user may see the person (his page, his record, the API's profile)."""
    return visible_profiles(user).filter(pk=profile.pk).exists()


def profiles_with_details(user: Any, profiles: Iterable[int]) -> set[int]:
    """Which of these profiles' birth year and federation id the user may read: every one for
    staff, for an organizer those playing in a tournament he organizes (one query)."""
    ids = set(profiles)
    if is_staff(user):
        return ids
    if not ids or not getattr(user, "is_authenticated", False):
        return set()
    return set(
        Player.objects.filter(profile_id__in=ids, tournament__in=managed_tournaments(user))
        .values_list("profile_id", flat=True)
    )


def can_see_profile_details(user: Any, profile: Profile) -> bool:
    """Whether the user may read the profile's birth year and federation id."""
    return profile.pk in profiles_with_details(user, [profile.pk])


def can_use_profile_tools(user: Any) -> bool:
    """Staff and organizers open the merge page and search profiles on their forms."""
    return is_staff(user) or is_organizer(user)


def _organizes_all(user: Any, tournaments: list[set[int]]) -> bool:
    """Whether each set of tournaments (those of one profile) is not empty and the user
    organizes every tournament of them all."""
    if not tournaments or not all(tournaments):
        return False
    wanted = set().union(*tournaments)
    mine = managed_tournaments(user).filter(pk__in=wanted).values_list("pk", flat=True)
    return wanted <= set(mine)


def _tournaments_by_profile(profiles: list[int]) -> dict[int, set[int]]:
    """The tournaments each profile plays in (one query)."""
    found: dict[int, set[int]] = {pk: set() for pk in profiles}
    for profile_id, tournament_id in Player.objects.filter(profile_id__in=profiles).values_list(
            "profile_id", "tournament_id"):
        found[profile_id].add(tournament_id)
    return found


def can_merge_profiles(user: Any, first: Profile, second: Profile) -> bool:
    """Staff merge any two profiles; an organizer two that both play only in tournaments he
    organizes (each in one at least: a profile playing nowhere is merged by staff)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if is_staff(user):
        return True
    found = _tournaments_by_profile([first.pk, second.pk])
    return _organizes_all(user, [found[first.pk], found[second.pk]])


def can_unmerge_profiles(user: Any, merge: ProfileMerge) -> bool:
    """Whoever could have made the merge undoes it: staff, or an organizer of every tournament
    of the kept profile's own entries and of the entries the merge moved."""
    if not getattr(user, "is_authenticated", False):
        return False
    if is_staff(user):
        return True
    moved = {int(pk) for pk in merge.moved.get("entries", [])}
    kept: set[int] = set()
    merged: set[int] = set()
    for pk, tournament_id in Player.objects.filter(
            Q(profile_id=merge.kept_id) | Q(pk__in=moved)).values_list("pk", "tournament_id"):
        (merged if pk in moved else kept).add(tournament_id)
    return _organizes_all(user, [kept, merged])
