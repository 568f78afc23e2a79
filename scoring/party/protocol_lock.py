"""The lock a signed protocol puts on its party, and the protocol versions it leads to.

``open_protocol`` opens a party's protocol when the party finishes. ``assert_party_editable``
is the one check every service that changes a party's record calls (with the party's row
locked): a signed protocol locks the party, so only the chief referee may change it, with a
reason, and the change supersedes the signed version and opens a new one to sign again. A
change while signatures are being collected supersedes the version those signatures confirmed.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, Max, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.access import permissions
from scoring.core.compiled import CompiledQuery
from scoring.core.errors import ServiceError
from scoring.models import Party, Protocol, Signature
from scoring.party.event_log import append_event

#: Crockford's base32 without look-alikes: codes are read off paper and typed in.
SHORT_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_short_code() -> str:
    """Return a random short code such as ``7KQ4-M2XD`` (40 bits)."""
    chars = "".join(secrets.choice(SHORT_CODE_ALPHABET) for _ in range(8))
    return f"{chars[:4]}-{chars[4:]}"


def normalise_short_code(text: str) -> str:
    """Return a typed short code in its stored form (upper case, O→0, I/L→1, one dash)."""
    chars = "".join(ch for ch in (text or "").upper() if ch.isalnum())
    chars = chars.translate(str.maketrans("OIL", "011"))
    return f"{chars[:4]}-{chars[4:]}" if len(chars) == 8 else chars


def current_protocol(party: Party, *, for_update: bool = False) -> Protocol | None:
    """Return the party's protocol version that is not superseded, if one is open."""
    qs = Protocol.objects.filter(party=party).exclude(status=Protocol.Status.SUPERSEDED)
    if for_update:
        qs = qs.select_for_update(of=("self",))
    return qs.first()


_CURRENT_STATE = CompiledQuery(
    "current_protocol_state", Protocol,
    lambda party_id: Protocol.objects.filter(party_id=party_id)
    .exclude(status=Protocol.Status.SUPERSEDED)
    .select_for_update(of=("self",))
    .order_by("pk")
    .values_list("pk", "status", Exists(Signature.objects.filter(protocol=OuterRef("pk"))))[:1],
    int,
)
"""The current version's id and status and whether anyone signed it, the version row locked."""


def _create_version(party: Party, reason: str) -> Protocol:
    """Create the party's next protocol version (the caller holds the party's row lock)."""
    version = (Protocol.objects.filter(party=party).aggregate(m=Max("version"))["m"] or 0) + 1
    for _attempt in range(5):
        try:
            with transaction.atomic():
                return Protocol.objects.create(
                    party=party,
                    version=version,
                    public_id=secrets.token_hex(16),
                    short_code=new_short_code(),
                    reason=reason[:300],
                )
        except IntegrityError:  # a short code drawn twice: draw again
            continue
    raise ServiceError("protocol", _("Could not open a protocol; try again."))


def open_protocol(party: Party, actor: Any = None) -> Protocol | None:
    """Open the protocol of a finished party (nothing for a bye, or when one is open)."""
    if party.is_bye:
        return None
    found = current_protocol(party)
    if found is not None:
        return found
    protocol = _create_version(party, "")
    append_event(party, "protocol_opened", actor=actor, data={"version": protocol.version})
    return protocol


def supersede(protocol: Protocol, actor: Any, reason: str) -> Protocol:
    """Mark ``protocol`` superseded and open the next version (the party is row-locked)."""
    protocol.status = Protocol.Status.SUPERSEDED
    protocol.superseded_at = timezone.now()
    protocol.superseded_by = actor if getattr(actor, "is_authenticated", False) else None
    protocol.save(update_fields=["status", "superseded_at", "superseded_by"])
    newer = _create_version(protocol.party, reason)
    append_event(
        protocol.party,
        "protocol_superseded",
        actor=actor,
        reason=reason,
        data={"version": protocol.version, "new_version": newer.version},
    )
    return newer


def assert_party_editable(party: Party, actor: Any, reason: str | None = "") -> None:
    """Refuse a change to a party locked by its signed protocol, unless the chief referee
    makes it with a reason; an allowed change opens a new protocol version to sign again.

    Call it with the party's row locked, before changing anything, in the same transaction
    as the change. ``reason=None`` is for services that take no reason: a locked party then
    refuses them for everyone. Once it returns, the party is not locked (nothing was signed,
    or the signed version is superseded): its services' results say so (``locked=False``).
    """
    state = _CURRENT_STATE.first(party.pk)
    if state is None or (state[1] != Protocol.Status.SIGNED and not state[2]):
        return  # nothing signed, nothing to supersede
    protocol = Protocol.objects.get(pk=state[0])
    if protocol.status == Protocol.Status.SIGNED:
        if reason is None or not permissions.can_amend_signed_protocol(actor, party):
            raise ServiceError(
                "party",
                _("The protocol of this party is signed: only the chief referee can change "
                  "the party, with a reason."),
            )
        reason = reason.strip()
        if not reason:
            raise ServiceError("reason", _("Give the reason for changing a signed protocol."))
        supersede(protocol, actor, reason)
    else:  # signatures are being collected
        supersede(protocol, actor, (reason or "").strip() or _("Changed during sign-off."))
