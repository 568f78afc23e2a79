"""Re-linking the players of an imported tournament file to profiles of this installation.

The file's ``profiles`` (version 2) give each player's profile: its id (the link key within the
file), federation id, name, club, city and birth year. Each is linked, in this order, to:

1. the same profile, when the file comes from this installation (its ``site_url`` is ours) and
   the profile of that id (followed through merges) still has that name;
2. the profile holding the same federation id;
3. the one profile agreeing on name + birth year + club (``scoring.people.profiles`` rule);
4. otherwise — no profile of the name, or a doubt — a new profile of the file's details: an
   import never links on a doubt (the organizer merges later if they are one person).

Only the profiles the importing user may see are linked (he becomes an organizer of the
imported tournament, and would read their details): a federation id held by a person he may not
see refuses the file, naming the record (staff, or the site itself importing without a user,
link everyone).

A version-1 file (before profiles) gives none: each player gets a new profile.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.core.site import site_url
from scoring.models import Player, Profile
from scoring.models.people import clean_text, person_key
from scoring.people.profiles import match_profiles, new_profile, resolve_profile, seen_by
from tournaments.transfer.archive_format import ArchiveError


def _details(record: dict[str, Any], index: int) -> dict[str, Any]:
    """A profile record's fields, checked (ArchiveError naming the record)."""
    where = f"profiles[{index}]"
    name = record.get("name")
    year = record.get("birth_year")
    if not isinstance(name, str) or not clean_text(name):
        raise ArchiveError(_("%(where)s: a name is required.") % {"where": where})
    if year is not None and (not isinstance(year, int) or not 1900 <= year <= 2100):
        raise ArchiveError(_("%(where)s: the birth year is a year.") % {"where": where})
    texts = {key: record.get(key) or "" for key in ("federation_id", "club", "city")}
    if not all(isinstance(value, str) for value in texts.values()):
        raise ArchiveError(_("%(where)s: text is expected.") % {"where": where})
    return {"name": clean_text(name)[:200], "club": clean_text(texts["club"])[:200],
            "city": clean_text(texts["city"])[:100], "birth_year": year,
            "federation_id": clean_text(texts["federation_id"])[:40]}


def _same_installation(doc: dict[str, Any], pk: Any, name: str, viewer: Any
                       ) -> Profile | None:
    """The profile of the file's id, when the file was exported here, it is the person and
    ``viewer`` may see him."""
    if doc.get("site_url") != site_url() or not isinstance(pk, int):
        return None
    try:
        profile = resolve_profile(pk)
    except Profile.DoesNotExist:
        return None
    if profile.name_key != person_key(name) or not seen_by(viewer).filter(
            pk=profile.pk).exists():
        return None
    return profile


def link_profiles(doc: dict[str, Any], viewer: Any = None) -> dict[int, int]:
    """The profile here of each profile id of the file (made when none is the person), among
    the profiles ``viewer`` may see (None: the site itself, every profile)."""
    records = doc.get("profiles", [])
    found: dict[int, int] = {}
    details = [_details(record, index) for index, record in enumerate(records)]
    matches = match_profiles(details, viewer=viewer)
    for index, (record, person, match) in enumerate(zip(records, details, matches,
                                                        strict=True)):
        source = record.get("id")
        if not isinstance(source, int) or source in found:
            raise ArchiveError(_("profiles[%(index)s]: the id is missing or given twice.")
                               % {"index": index})
        profile = _same_installation(doc, source, person["name"], viewer)
        if profile is None and match.refusal:
            raise ArchiveError(_("profiles[%(index)s] (%(name)s), federation_id: %(error)s")
                               % {"index": index, "name": person["name"],
                                  "error": match.refusal})
        profile = profile or match.profile
        if profile is None or profile.pk in found.values():  # one person plays once
            profile = new_profile(**{**person, "federation_id": ""} if profile else person)
        found[source] = profile.pk
    return found


def give_missing_profiles(tournament_id: int) -> None:
    """A new profile for each player of the tournament without one (a version-1 file)."""
    for player in Player.objects.filter(tournament_id=tournament_id, profile=None):
        player.profile = new_profile(name=player.name, club=player.club, city=player.city)
        player.save(update_fields=["profile"])
