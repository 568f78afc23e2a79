"""What an imported tournament file must not clash with here: its short name, its protocols."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _

from scoring.models import Protocol, TeamSheet, Tournament
from tournaments.transfer.archive_format import (
    ArchiveError,
)


def refuse_known_protocols(records: Iterable[dict[str, Any]]) -> None:
    """Refuse a file whose protocols this installation already holds (imported before)."""
    public_ids = [r.get("public_id") for r in records if r.get("public_id")]
    codes = [r.get("short_code") for r in records if r.get("short_code")]
    if not public_ids and not codes:
        return
    found = (
        Protocol.objects.filter(Q(public_id__in=public_ids) | Q(short_code__in=codes))
        .select_related("party__round__tournament")
        .first()
    )
    if found is not None:
        raise ArchiveError(
            _("This installation already holds protocol %(code)s of “%(name)s” (%(slug)s): the "
              "tournament was imported here before. Delete that copy first to import it again.")
            % {"code": found.short_code, "name": found.party.round.tournament.name,
               "slug": found.party.round.tournament.slug}
        )


def refuse_known_team_sheets(records: Iterable[dict[str, Any]]) -> None:
    """Refuse a file whose team match sheets this installation already holds."""
    public_ids = [r.get("public_id") for r in records if r.get("public_id")]
    found = TeamSheet.objects.filter(public_id__in=public_ids).select_related(
        "team_match__round__tournament").first() if public_ids else None
    if found is not None:
        tournament = found.team_match.round.tournament
        raise ArchiveError(
            _("This installation already holds a team match sheet of “%(name)s” (%(slug)s): "
              "the tournament was imported here before. Delete that copy first to import it "
              "again.") % {"name": tournament.name, "slug": tournament.slug}
        )


def free_slug(slug: str, *, strict: bool = False) -> str:
    """``slug`` if no tournament has it, else the first free ``slug-2``, ``slug-3``…

    With ``strict`` (a slug the user asked for) a taken or invalid slug is refused instead.
    """
    field = Tournament._meta.get_field("slug")
    try:
        field.run_validators(slug)
        field.validate(slug, None)
    except ValidationError as exc:
        raise ArchiveError(_("Short name “%(slug)s”: %(error)s")
                           % {"slug": slug, "error": "; ".join(exc.messages)}) from exc
    taken = Tournament.objects.filter(slug=slug).exists()
    if not taken:
        return slug
    if strict:
        raise ArchiveError(_("A tournament with the short name “%(slug)s” already exists.")
                           % {"slug": slug})
    limit = field.max_length
    if limit is None:
        raise TypeError("Tournament.slug has no maximum length")
    number = 2
    while True:
        suffix = f"-{number}"
        candidate = slug[: limit - len(suffix)] + suffix
        if not Tournament.objects.filter(slug=candidate).exists():
            return candidate
        number += 1
