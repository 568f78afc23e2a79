"""Merging two profiles of one person, and undoing a merge exactly.

A merge moves every entry (a tournament's player) and rating-list row of one profile to the
other, points the profiles merged into it before at the kept one, hands over its login (when
the kept profile has none) and fills the kept profile's empty club, city, birth year and
federation id. The merged profile stays as a pointer (``merged_into``). Every merge is logged
(``ProfileMerge``) with what it moved and the field values it changed, so that
:func:`unmerge_profiles` puts each row back where it was. Results never change: only the links
to the person move; placings and ratings are recomputed after the commit either way.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import Player, Profile, ProfileMerge, RatingEntry
from scoring.ranking import rating_tasks
from scoring.ranking.seasons import schedule_refresh
from scoring.roster import entrants_changed

logger = logging.getLogger(__name__)

#: The fields a merge fills on the kept profile when it has them empty.
FILLED_FIELDS = ("club", "city", "birth_year", "federation_id")
#: The merged profile's fields the log keeps as they were.
RECORDED_FIELDS = ("name", "club", "city", "birth_year", "federation_id")


def _refuse_merge(keep: Profile, other: Profile) -> None:
    """Refuse merges that would join two people or lose data."""
    if keep.pk == other.pk:
        raise ServiceError("other", _("Choose two different profiles."))
    if keep.merged_into_id or other.merged_into_id:
        raise ServiceError("other", _("This profile was merged already; merge the one it was "
                                      "merged into."))
    if keep.federation_id and other.federation_id and keep.federation_id != other.federation_id:
        raise ServiceError("other", _("The profiles have different federation ids: they are "
                                      "two people."))
    if keep.user_id and other.user_id:
        raise ServiceError("other", _("Both profiles have a user account; one person has one."))
    shared = Player.objects.filter(profile=other, tournament__in=Player.objects.filter(
        profile=keep).values("tournament"))
    if shared.exists():
        raise ServiceError("other", _("Both profiles play in the same tournament; one person "
                                      "plays once in a tournament."))


def _locked(*pks: int) -> dict[int, Profile]:
    """The profiles of ``pks``, their rows locked until the transaction ends."""
    return {p.pk: p for p in Profile.objects.select_for_update().filter(pk__in=pks)}


def _ids(queryset: Any) -> list[int]:
    """The primary keys of a queryset, ascending."""
    return sorted(queryset.values_list("pk", flat=True))


def _recompute(tournament_ids: set[int]) -> None:
    """After the commit: the tournaments' placings and the rating lists counting them."""
    for tournament_id in sorted(tournament_ids):
        schedule_refresh(tournament_id=tournament_id)
    rating_tasks.tournaments_changed(tournament_ids)


def merge_profiles(keep: Profile, other: Profile, *, actor: Any = None) -> ProfileMerge:
    """Merge ``other`` into ``keep`` and return the merge's log (``ProfileMerge``): every
    entry and rating row moves, earlier pointers follow, empty fields are filled."""
    with transaction.atomic():
        locked = _locked(keep.pk, other.pk)
        if len(locked) != 2:
            raise ServiceError("other", _("Choose two different profiles."))
        keep, other = locked[keep.pk], locked[other.pk]
        _refuse_merge(keep, other)
        entries = Player.objects.filter(profile=other)
        moved: dict[str, Any] = {
            "entries": _ids(entries),
            "rating_rows": _ids(RatingEntry.objects.filter(profile=other)),
            "rating_partner_rows": _ids(RatingEntry.objects.filter(partner=other)),
            "pointers": _ids(Profile.objects.filter(merged_into=other)),
            "user": other.user_id if keep.user_id is None else None,
        }
        touched = set(entries.values_list("tournament_id", flat=True))
        filled = [name for name in FILLED_FIELDS
                  if getattr(keep, name) in ("", None) and getattr(other, name) not in ("", None)]
        log = ProfileMerge(
            kept=keep, merged=other, moved=moved, merged_by=_user(actor),
            merged_before={**{name: getattr(other, name) for name in RECORDED_FIELDS},
                           "user": other.user_id},
            kept_before={name: getattr(keep, name) for name in filled},
        )
        Player.objects.filter(pk__in=moved["entries"]).update(profile=keep)
        entrants_changed(touched)
        RatingEntry.objects.filter(pk__in=moved["rating_rows"]).update(profile=keep)
        RatingEntry.objects.filter(pk__in=moved["rating_partner_rows"]).update(partner=keep)
        Profile.objects.filter(pk__in=moved["pointers"]).update(merged_into=keep)
        Profile.objects.filter(pk=other.pk).update(
            merged_into=keep, user=None,
            **({"federation_id": ""} if "federation_id" in filled else {}))
        for name in filled:
            setattr(keep, name, getattr(other, name))
        if moved["user"] is not None:
            keep.user_id = moved["user"]
        changed = [*filled, *(["user"] if moved["user"] is not None else [])]
        if changed:
            keep.save(update_fields=changed)
        log.save()
        logger.info("profiles merged: merge=%s kept=%s merged=%s entries=%s rating_rows=%s "
                    "filled=%s by=%s", log.pk, keep.pk, other.pk, len(moved["entries"]),
                    len(moved["rating_rows"]) + len(moved["rating_partner_rows"]),
                    ",".join(changed) or "-", getattr(actor, "pk", None))
        _recompute(touched)
    return log


def _user(actor: Any) -> Any:
    """The actor as a user to record (None for a task, a command or an anonymous caller)."""
    return actor if getattr(actor, "is_authenticated", False) else None


@dataclass(frozen=True)
class Unmerged:
    """What an unmerge did: the log it undid, the two profiles as restored, and how many rows
    went back (entries, rating rows, pointers) and whether the login did."""

    merge: ProfileMerge
    kept: Profile
    restored: Profile
    entries: int
    rating_rows: int
    pointers: int
    user: bool


def last_merge(merged: Profile | int) -> ProfileMerge | None:
    """The merge that made this profile a pointer, if it is one and it was logged."""
    # By the profile's own key first: an id no profile can have (past the database's integers)
    # finds none there, where a foreign key's lookup would overflow.
    profile = merged if isinstance(merged, Profile) else Profile.objects.filter(pk=merged).first()
    if profile is None:
        return None
    return ProfileMerge.objects.filter(merged=profile, undone_at=None).order_by("-pk").first()


def _refuse_unmerge(merge: ProfileMerge, kept: Profile, merged: Profile) -> None:
    """Refuse an unmerge that would not put things back as they were."""
    if merge.undone:
        raise ServiceError("merge", _("This merge was undone already."))
    later = ProfileMerge.objects.filter(
        Q(kept__in=[kept.pk, merged.pk]) | Q(merged__in=[kept.pk, merged.pk]),
        undone_at=None, pk__gt=merge.pk)
    if later.exists() or merged.merged_into_id != kept.pk:
        raise ServiceError("merge", _("These profiles were merged again later; undo the later "
                                      "merge first."))
    user_id = merge.moved.get("user")
    if user_id is not None and Profile.objects.filter(user_id=user_id).exclude(
            pk__in=[kept.pk, merged.pk]).exists():
        raise ServiceError("merge", _("The login of the merged profile belongs to another "
                                      "profile now."))


def unmerge_profiles(merge: ProfileMerge | int, *, actor: Any = None) -> Unmerged:
    """Undo a merge exactly: the entries, rating rows, pointers and login it moved go back to
    the merged profile, its field values come back, the kept profile's filled fields are
    emptied again. Refused when a later merge of either profile is not undone first."""
    pk = merge.pk if isinstance(merge, ProfileMerge) else merge
    with transaction.atomic():
        merge = ProfileMerge.objects.select_for_update().get(pk=pk)
        locked = _locked(merge.kept_id, merge.merged_id)
        kept, merged = locked[merge.kept_id], locked[merge.merged_id]
        _refuse_unmerge(merge, kept, merged)
        moved, before = merge.moved, merge.merged_before
        user_id = moved.get("user")
        emptied = list(merge.kept_before)
        for name, value in merge.kept_before.items():  # first: the id and login are free again
            setattr(kept, name, value)
        if user_id is not None and kept.user_id == user_id:
            kept.user_id = None
            emptied.append("user")
        if emptied:
            kept.save(update_fields=emptied)
        Profile.objects.filter(pk=merged.pk).update(
            merged_into=None, user_id=before.get("user"),
            **{name: before[name] for name in RECORDED_FIELDS if name in before})
        entries = Player.objects.filter(pk__in=moved.get("entries", []), profile=kept)
        touched = set(entries.values_list("tournament_id", flat=True))
        count = entries.update(profile=merged)
        rows = RatingEntry.objects.filter(pk__in=moved.get("rating_rows", []),
                                          profile=kept).update(profile=merged)
        rows += RatingEntry.objects.filter(pk__in=moved.get("rating_partner_rows", []),
                                           partner=kept).update(partner=merged)
        pointers = Profile.objects.filter(pk__in=moved.get("pointers", []),
                                          merged_into=kept).update(merged_into=merged)
        merge.undone_at, merge.undone_by = timezone.now(), _user(actor)
        merge.save(update_fields=["undone_at", "undone_by"])
        logger.info("profiles unmerged: merge=%s kept=%s restored=%s entries=%s rating_rows=%s "
                    "pointers=%s by=%s", merge.pk, kept.pk, merged.pk, count, rows, pointers,
                    getattr(actor, "pk", None))
        _recompute(touched)
    merged.refresh_from_db()
    kept.refresh_from_db()
    return Unmerged(merge, kept, merged, count, rows, pointers,
                    user_id is not None and merged.user_id == user_id)
