"""Sign-off of a party's protocol, as at a bridge table, and what is done with signed ones.

When the party ends, each of its players confirms the protocol on the table device (a personal
PIN while the referee's login holds the device) or on his own login, or the referee records
his refusal with a reason; the referee countersigns last. The countersignature renders the PDF,
signs it with the installation's key (PAdES), stores it with its SHA-256 and locks the party
(see ``scoring.party.protocol_lock``). Every service locks the party row and writes to its event
log. What the verification page says of a version is ``scoring.signoff.verification``'s.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.access import permissions
from scoring.core.compiled import insert_row, save_fields
from scoring.core.errors import ServiceError
from scoring.models import PARTY_RELATED, Party, Player, Protocol, Signature
from scoring.party.event_log import append_event
from scoring.party.protocol_lock import (
    current_protocol,
    open_protocol,
    supersede,
)
from scoring.party.row_lock import bump_version, lock_party
from scoring.party.rows import locked_version, players_by_pk
from scoring.protocols import (
    CanonicalForm,
    ProtocolData,
    protocol_payload,
    render_protocol,
    sha256_hex,
)
from scoring.signoff.content import (
    UNSIGNED,
    build_protocol_data,
    party_players,
    protocol_content,
    with_signatures,
)
from scoring.signoff.identity import installation_signer
from scoring.signoff.pins import check_pin
from scoring.webhooks import services as webhooks

logger = logging.getLogger(__name__)

SIGN_REASON = "Party protocol signed off by the players and the referee"


# -- the protocol being signed ---------------------------------------------------------------


def _finished_party(party_id: int, actor: Any = None, expected_version: int | None = None,
                    *, referee: bool = False) -> Party:
    """Lock a finished party that has a protocol to sign (not a bye), loaded once.

    With ``referee`` only its referee may: anyone else is refused before its state.
    """
    party = lock_party(party_id, expected_version)
    if referee and not permissions.can_run_sign_off(actor, party):
        raise PermissionDenied
    if party.is_bye:
        raise ServiceError("party", _("A bye has no protocol."))
    if party.status != Party.Status.FINISHED:
        raise ServiceError("party", _("The protocol is signed when the party has finished."))
    _with_players(party)
    return party


def _with_players(party: Party) -> None:
    """Attach the players of the locked party's pairs (one query)."""
    pairs = [pair for pair in (party.pair_a, party.pair_b) if pair is not None]
    ids = [pk for pair in pairs for pk in (pair.player1_id, pair.player2_id) if pk is not None]
    players = players_by_pk(ids)
    for pair in pairs:
        pair.player1 = players[pair.player1_id]
        if pair.player2_id is not None:
            pair.player2 = players[pair.player2_id]


@dataclass
class _Signable:
    """The open version being signed: its content (no signature lines yet), that content as
    ``dataclasses.asdict`` gives it and in its canonical form, its content fingerprint and its
    signatures."""

    protocol: Protocol
    content: ProtocolData
    payload: dict[str, Any]
    form: CanonicalForm
    fingerprint: str
    signatures: list[Signature]


def _signable(party: Party, actor: Any) -> _Signable:
    """The open version with its current content, content fingerprint and signatures.

    Signatures confirm content: if the party changed after some were given (by a path that
    did not supersede the version), that version is superseded and a fresh one opened.
    """
    protocol, signatures = locked_version(party)
    if protocol is None:
        protocol, signatures = open_protocol(party, actor), []
        if protocol is None:  # a bye, which ``_finished_party`` refuses first
            raise ServiceError("party", _("A bye has no protocol."))
    if protocol.status == Protocol.Status.SIGNED:
        raise ServiceError("protocol", _("The protocol is already signed."))
    content = protocol_content(party, protocol)
    payload = protocol_payload(content)
    form = CanonicalForm(payload)
    fingerprint = form.fingerprint(**UNSIGNED)
    if any(s.content_fingerprint != fingerprint for s in signatures):
        protocol = supersede(protocol, actor, _("Changed during sign-off."))
        signatures = []
        content = protocol_content(party, protocol)
        payload = protocol_payload(content)
        form = CanonicalForm(payload)
    return _Signable(protocol, content, payload, form, fingerprint, signatures)


def _player_of(party: Party, player_id: Any) -> Player:
    """A player of this party, or a service error naming ``player``."""
    for _seat, player in party_players(party):
        if str(player.pk) == str(player_id):
            return player
    raise ServiceError("player", _("The player does not play in this party."))


def _add_signature(protocol: Protocol, signatures: list[Signature], player: Player, actor: Any,
                   fingerprint: str, **fields: Any) -> Signature:
    """Write a player's signature or refusal; each player signs a version once."""
    if any(s.player_id == player.pk for s in signatures):
        raise ServiceError(
            "player", _("%(name)s has already signed this protocol.") % {"name": player.name}
        )
    return Signature.objects.create(
        protocol=protocol, role=Signature.Role.PLAYER, player=player,
        user=actor if getattr(actor, "is_authenticated", False) else None,
        content_fingerprint=fingerprint, **fields)


# -- sign-off ------------------------------------------------------------------------------


def sign_as_player(party_id: int, *, player_id: int, actor: Any, pin: str = "",
                   address: str | None = None) -> Signature:
    """A player confirms the protocol: on his own login, or with his PIN on the table device.

    The table device is the party referee's login; a player signs only his own party, once.
    ``address`` is the device's, for the log of a PIN's lockout.
    """
    party = Party.objects.select_related(*PARTY_RELATED).filter(pk=party_id).first()
    if party is None:
        raise ServiceError("party", _("No such party."))
    player = _player_of(party, player_id)
    if pin:
        if not permissions.can_run_sign_off(actor, party):
            raise PermissionDenied
        check_pin(player, pin, address)
        method = Signature.Method.PIN
    elif permissions.can_sign_protocol_as(actor, party, player):
        method = Signature.Method.LOGIN
    else:
        raise PermissionDenied
    return _sign(party_id, player.pk, actor, method)


@transaction.atomic
def _sign(party_id: int, player_id: int, actor: Any, method: str) -> Signature:
    """Write a player's signature with the party locked."""
    party = _finished_party(party_id)
    player = _player_of(party, player_id)
    signable = _signable(party, actor)
    signature = _add_signature(signable.protocol, signable.signatures, player, actor,
                               signable.fingerprint, method=method)
    append_event(party, "protocol_signed", actor=actor, data={
        "version": signable.protocol.version, "player": player.name, "method": method})
    return signature


@transaction.atomic
def record_refusal(party_id: int, *, player_id: int, reason: str, actor: Any) -> Signature:
    """The referee records that a player refuses to sign, and why."""
    party = _finished_party(party_id, actor, referee=True)
    player = _player_of(party, player_id)
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("reason", _("Give the reason for the refusal."))
    signable = _signable(party, actor)
    signature = _add_signature(signable.protocol, signable.signatures, player, actor,
                               signable.fingerprint, method=Signature.Method.REFUSAL,
                               refused=True, reason=reason[:300])
    append_event(party, "protocol_refused", actor=actor, reason=reason, data={
        "version": signable.protocol.version, "player": player.name})
    return signature


@transaction.atomic
def countersign(party_id: int, *, actor: Any, expected_version: int | None = None) -> Protocol:
    """The referee countersigns last: render, sign (PAdES), store, and lock the party.

    The party is loaded once and its protocol built once: the signed data, its fingerprint
    and the stored snapshot come from one ``protocol_payload`` of it, whose canonical form
    gives the content fingerprint and, with the signature lines, the data fingerprint.
    """
    party = _finished_party(party_id, actor, expected_version, referee=True)
    signable = _signable(party, actor)
    protocol, signatures = signable.protocol, signable.signatures
    done = {s.player_id for s in signatures}
    missing = [player.name for _seat, player in party_players(party) if player.pk not in done]
    if missing:
        raise ServiceError("protocol", _("Still to sign or refuse: %(names)s.")
                           % {"names": ", ".join(missing)})
    countersignature = Signature(
        protocol=protocol, role=Signature.Role.REFEREE, user=actor,
        method=Signature.Method.LOGIN, content_fingerprint=signable.fingerprint)
    insert_row(countersignature)
    data = with_signatures(party, signable.content, [*signatures, countersignature])
    signed = {"referee": data.referee,
              "signatures": [protocol_payload(line) for line in data.signatures]}
    payload = {**signable.payload, **signed}
    protocol.fingerprint = signable.form.fingerprint(**signed)
    pdf = installation_signer().sign(render_protocol(data, fingerprint=protocol.fingerprint),
                                     reason=SIGN_REASON)
    protocol.sha256 = sha256_hex(pdf)
    protocol.data = payload
    protocol.status = Protocol.Status.SIGNED
    protocol.signed_at = timezone.now()
    protocol.file.save("protocol.pdf", ContentFile(pdf), save=False)
    save_fields(protocol, ["fingerprint", "sha256", "data", "status", "signed_at", "file"])
    append_event(party, "protocol_countersigned", actor=actor, data={
        "version": protocol.version, "sha256": protocol.sha256})
    webhooks.protocol_signed(party, protocol)
    bump_version(party)
    return protocol


# -- files ---------------------------------------------------------------------------------


def protocol_pdf(party: Party, protocol: Protocol | None = None) -> tuple[bytes, bool]:
    """Return ``(pdf, signed)``: a version's signed file, or an unsigned draft rendered now.

    Without ``protocol`` the party's current version is used (a draft if none is open).
    """
    protocol = protocol or current_protocol(party)
    if protocol is not None and protocol.file:
        with protocol.file.open("rb") as handle:
            return handle.read(), True
    data = build_protocol_data(party, protocol)
    draft = dataclasses.replace(data, labels={**data.labels, "title": data.label("draft_title")})
    return render_protocol(draft), False


def protocol_download(party: Party, protocol: Protocol | None) -> tuple[bytes, str]:
    """Return ``(pdf, filename)``, e.g. ``protocol-r3-t12-v2.pdf`` (``-draft`` if unsigned)."""
    pdf, signed = protocol_pdf(party, protocol)
    table = party.table.number if party.table else party.pk
    version = f"-v{protocol.version}" if protocol else ""
    return pdf, f"protocol-r{party.round.number}-t{table}{version}{'' if signed else '-draft'}.pdf"


def protocol_queryset() -> Any:
    """Protocol versions with what the verification page shows."""
    return Protocol.objects.select_related(
        *(f"party__{name}" for name in PARTY_RELATED)
    ).prefetch_related("signatures__player", "signatures__user")
