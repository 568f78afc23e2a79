"""The party record's row lock and version: what every service that changes a party calls."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.errors import ConflictError, ServiceError
from scoring.models import Party

PARTY_LOCK_RELATED = ("round__tournament__regulations", "pair_a", "pair_b", "table")
"""What every party service reads with the locked party row (one query)."""


def lock_party(party_id: int | None, expected_version: int | None = None) -> Party:
    """Lock a party's row for this transaction; refuse a stale version with a conflict."""
    try:
        if party_id is None:
            raise Party.DoesNotExist
        party = (
            Party.objects.select_for_update(of=("self",))
            .select_related(*PARTY_LOCK_RELATED)
            .get(pk=int(party_id))
        )
    except (Party.DoesNotExist, TypeError, ValueError) as exc:
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
