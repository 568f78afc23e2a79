"""The roster import's profiles: each row matched to the person (``scoring.people.profiles`` rule),
and the organizer's choice for each doubtful row (the review step).

A row links automatically on its federation id, or on name + birth year + club agreeing with
exactly one profile. A doubtful row (same name, other club or year; several candidates; name
only) is imported only once the organizer chose "link to profile X" or "new profile" for it:
until then the import is not committed (nothing is written) and the report lists the row under
``to_review`` with its candidates.

Rows are matched among the profiles the importing user may see: another organizer's hidden
players are neither linked nor offered, and a federation id of such a person refuses its row
(``Match.refusal``) rather than make him a second profile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from scoring.access.profiles import profiles_with_details
from scoring.models import Profile, Tournament
from scoring.models.people import clean_text
from scoring.people.profiles import match_profiles
from tournaments.transfer.roster_rows import RosterRow

#: The choice of a new profile for a doubtful row.
NEW = "new"


def parse_birth_year(text: str) -> int | None | str:
    """A birth-year cell: a year from 1900 to 2100, None when empty, "" when it is not one."""
    text = "".join((text or "").split())
    if not text:
        return None
    try:
        value = int(float(text.replace(",", ".")))
    except ValueError:
        return ""
    return value if 1900 <= value <= 2100 and float(text.replace(",", ".")) == value else ""


def check_details(rows: list[RosterRow]) -> None:
    """Birth years are years; a federation id is given once in the file."""
    seen: dict[str, int] = {}
    for row in rows:
        year = parse_birth_year(row.values.get("birth_year", ""))
        if isinstance(year, str):  # "": not a year
            row.add_error("birth_year", _("The birth year is a year, e.g. 1984."))
        else:
            row.birth_year = year
        fed = clean_text(row.values.get("federation_id", ""))
        if fed and fed in seen:
            row.add_error("federation_id", _("The federation id %(id)s is already in row "
                                             "%(row)s of the file.") % {"id": fed,
                                                                        "row": seen[fed]})
        elif fed:
            seen[fed] = row.number


def match_rows(tournament: Tournament, rows: list[RosterRow],
               choices: dict[int, str] | None = None, *, viewer: Any) -> None:
    """Match every named row to a profile among those ``viewer`` may see (None: the site
    itself, every profile), applying the organizer's ``choices`` (row → "new" or a profile
    id) to the doubtful ones."""
    choices = choices or {}
    named = [row for row in rows if row.name]
    people = [{"name": row.name, "club": row.values.get("club", ""),
               "birth_year": row.birth_year,
               "federation_id": row.values.get("federation_id", "")} for row in named]
    fed_ids = {clean_text(row.values.get("federation_id", "")) for row in named} - {""}
    playing = set(Profile.objects.filter(federation_id__in=fed_ids,
                                         entries__tournament=tournament)
                  .values_list("federation_id", flat=True))
    linked: dict[int, int] = {}
    matches = match_profiles(people, viewer=viewer, exclude_tournament=tournament.pk)
    for row, match in zip(named, matches, strict=True):
        row.match = match
        fed = clean_text(row.values.get("federation_id", ""))
        if fed in playing:
            row.add_error("federation_id", _("The player with the federation id %(id)s is "
                                             "already registered in this tournament.")
                          % {"id": fed})
            continue
        if match.refusal:
            row.add_error("federation_id", match.refusal)
            continue
        row.profile = match.profile
        if match.doubtful:
            _apply_choice(row, match.candidates, choices.get(row.number, ""))
        if row.profile is not None:
            if row.profile.pk in linked:
                row.add_error("profile", _("Row %(row)s is linked to the same profile.")
                              % {"row": linked[row.profile.pk]})
            linked.setdefault(row.profile.pk, row.number)


def readable_candidates(rows: list[RosterRow], viewer: Any) -> frozenset[int]:
    """The doubtful rows' candidates whose birth year and federation id ``viewer`` may read
    (every one for the site itself, None)."""
    offered = {p.pk for row in rows if row.match for p in row.match.candidates}
    return frozenset(offered if viewer is None else profiles_with_details(viewer, offered))


def _apply_choice(row: RosterRow, candidates: Sequence[Profile], choice: str) -> None:
    """The organizer's choice for a doubtful row: a new profile or one of the candidates."""
    if not choice:
        return
    if choice == NEW:
        row.new_profile = True
        return
    found = [p for p in candidates if str(p.pk) == choice]
    if not found:
        row.add_error("profile", _("Choose one of the profiles offered, or a new profile."))
        return
    row.profile = found[0]
