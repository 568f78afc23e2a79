"""Player profiles: linking a tournament's player to the person, matching, searching, merging.

Matching (the roster import, the tournament file's import) follows one rule:

* a federation id, when given, decides: the profile holding it is the person;
* otherwise name + birth year + club, compared loosely (``person_key``: case, ё/е, spaces);
  exactly one profile agreeing on all three (all three given) is the person — linked
  automatically;
* any other profile of the same name (another club or year, several candidates, or the row
  gives the name only) is a doubt: the organizer decides (``Match.candidates``);
* no profile of the name: a new profile.

Matching and searching are done for a viewer, among the profiles he may see
(``scoring.access.profiles.visible_profiles``): an organizer never links, nor is offered, a
person entered only in tournaments hidden from him (linking would show him that person's
details). A federation id held by such a person is refused (``Match.refusal``): neither a link
nor a second profile of the same id; staff link it. ``viewer=None`` is the site itself (a
command on the server, a test): every profile.

Merging (``scoring.people.merges``) moves every entry (and rating-list rows) of one profile to
the other and keeps the merged one as a pointer (``merged_into``); ``resolve_profile`` follows it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, QuerySet
from django.utils.translation import gettext as _

from scoring.access.profiles import seen_tournaments, visible_profiles
from scoring.core.errors import ServiceError
from scoring.models import Player, Profile
from scoring.models.people import clean_text, person_key

#: How many profiles a search shows at most.
SEARCH_LIMIT = 20


def live_profiles() -> QuerySet[Profile]:
    """Profiles that are not merged into another."""
    return Profile.objects.filter(merged_into__isnull=True)


def resolve_profile(pk: int | str) -> Profile:
    """The profile of ``pk``, following ``merged_into`` to the kept one (DoesNotExist if none)."""
    profile = Profile.objects.get(pk=pk)
    seen = {profile.pk}
    while profile.merged_into_id is not None and profile.merged_into_id not in seen:
        seen.add(profile.merged_into_id)
        profile = Profile.objects.get(pk=profile.merged_into_id)
    return profile


def seen_by(viewer: Any) -> QuerySet[Profile]:
    """The live profiles ``viewer`` may find, link and match, each with ``tournaments``: how
    many of its tournaments he may see (None: the site itself, every profile and tournament)."""
    if viewer is None:
        return live_profiles().annotate(tournaments=Count("entries__tournament", distinct=True))
    return live_profiles().filter(pk__in=visible_profiles(viewer).values("pk")).annotate(
        tournaments=seen_tournaments(viewer))


def search_profiles(text: str, limit: int = SEARCH_LIMIT, *, viewer: Any) -> list[Profile]:
    """The profiles ``viewer`` may see whose name contains ``text`` (loosely), each with the
    tournaments he may see of it counted (``seen_by``)."""
    key = person_key(text)
    if not key or "\x00" in key:  # nothing is named so; PostgreSQL refuses the character
        return []
    found = seen_by(viewer).filter(name_key__contains=key)
    starts: list[Profile] = [p for p in found.order_by("name_key", "pk")[: limit * 3]]
    starts.sort(key=lambda p: (not p.name_key.startswith(key), p.name_key, p.pk))
    return starts[:limit]


def describe(profile: Profile, *, private: bool = True) -> str:
    """A profile as an organizer tells namesakes apart: name — club, city, born 1980 (the
    birth year and the federation id only when ``private``: the reader may see them)."""
    details = [part for part in (profile.club, profile.city) if part]
    if private and profile.birth_year:
        details.append(_("born %(year)s") % {"year": profile.birth_year})
    if private and profile.federation_id:
        details.append(_("id %(id)s") % {"id": profile.federation_id})
    count = getattr(profile, "tournaments", None)
    if count:
        details.append(_("tournaments: %(count)s") % {"count": count})
    return f"{profile.name} — {', '.join(details)}" if details else profile.name


def new_profile(*, name: str, club: str = "", city: str = "", birth_year: int | None = None,
                federation_id: str = "") -> Profile:
    """Create a profile (the federation id must be free)."""
    federation_id = clean_text(federation_id)
    if federation_id and Profile.objects.filter(federation_id=federation_id).exists():
        raise ServiceError("federation_id", _("A profile with the federation id %(id)s "
                                              "exists already.") % {"id": federation_id})
    profile = Profile(name=clean_text(name), club=clean_text(club), city=clean_text(city),
                      birth_year=birth_year, federation_id=federation_id)
    profile.full_clean(exclude=["user", "merged_into"])
    profile.save()
    return profile


def link_new_player(player: Player, profile: Profile | None = None, **details: Any) -> Profile:
    """Link a just registered player to ``profile`` (resolved), or to a new one made of his
    name, club and city (and ``details``: birth year, federation id)."""
    if profile is None:
        profile = new_profile(name=player.name, club=player.club, city=player.city, **details)
    else:
        profile = resolve_profile(profile.pk)
        taken = profile.entries.filter(tournament_id=player.tournament_id).exclude(pk=player.pk)
        if taken.exists():
            raise ServiceError("profile", _("%(name)s is already registered in this "
                                            "tournament.") % {"name": profile.name})
    player.profile = profile
    player.save(update_fields=["profile"])
    return profile


# -- matching ------------------------------------------------------------------------------


@dataclass
class Match:
    """What matching found for a person: the profile to link, or candidates to decide on."""

    profile: Profile | None = None
    candidates: list[Profile] = field(default_factory=list)
    reason: str = ""
    refusal: str = ""
    """Why the person cannot be linked nor made anew by this viewer (his federation id belongs
    to a person he may not see): the message for the row's ``federation_id``."""

    @property
    def doubtful(self) -> bool:
        """Whether the organizer must decide (link to a candidate or make a new profile)."""
        return self.profile is None and bool(self.candidates)


def hidden_federation_id(federation_id: str) -> str:
    """The refusal of a federation id held by a person the viewer may not see."""
    return _("The federation id %(id)s belongs to a person in no tournament you can see; ask "
             "the site's staff to link him.") % {"id": federation_id}


def match_profiles(people: list[dict[str, Any]], *, viewer: Any,
                   exclude_tournament: int | None = None) -> list[Match]:
    """Match each person (name, club, birth_year, federation_id) by the module's rule, among
    the profiles ``viewer`` may see (``seen_by``).

    Three queries whatever the number of people; profiles already playing in
    ``exclude_tournament`` are never offered.
    """
    fed_ids = {clean_text(p.get("federation_id", "")) for p in people} - {""}
    keys = {person_key(p.get("name", "")) for p in people} - {""}
    pool = seen_by(viewer)
    if exclude_tournament is not None:
        pool = pool.exclude(entries__tournament_id=exclude_tournament)
    by_fed = {p.federation_id: p for p in pool.filter(federation_id__in=fed_ids)}
    hidden: set[str] = set()
    if viewer is not None and fed_ids - set(by_fed):
        hidden = set(Profile.objects.filter(federation_id__in=fed_ids - set(by_fed))
                     .exclude(pk__in=visible_profiles(viewer).values("pk"))
                     .values_list("federation_id", flat=True))
    by_key: dict[str, list[Profile]] = {}
    for profile in pool.filter(name_key__in=keys).order_by("pk"):
        by_key.setdefault(profile.name_key, []).append(profile)
    return [_match_one(person, by_fed, by_key, hidden) for person in people]


def _match_one(person: dict[str, Any], by_fed: dict[str, Profile],
               by_key: dict[str, list[Profile]], hidden: set[str]) -> Match:
    """The match of one person, from the profiles of the file's ids and names (``hidden``:
    the ids held by people the viewer may not see)."""
    fed = clean_text(person.get("federation_id", ""))
    if fed and fed in by_fed:
        return Match(profile=by_fed[fed], reason="federation_id")
    if fed in hidden:
        return Match(reason="federation_id_hidden", refusal=hidden_federation_id(fed))
    candidates = [p for p in by_key.get(person_key(person.get("name", "")), [])
                  if not (fed and p.federation_id and p.federation_id != fed)]
    if not candidates:
        return Match(reason="new")
    club, year = person_key(person.get("club", "")), person.get("birth_year")
    exact = [p for p in candidates if club and year and person_key(p.club) == club
             and p.birth_year == year]
    if len(exact) == 1:
        return Match(profile=exact[0], reason="name_year_club")
    reason = "several" if len(candidates) > 1 else (
        "name_only" if not (club or year) else "other_details")
    return Match(candidates=candidates, reason=reason)
