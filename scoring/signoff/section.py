"""What the protocol section of the party page shows a visitor (its tag and the sign views)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.access import permissions
from scoring.models import Party, Protocol
from scoring.party.protocol_lock import current_protocol
from scoring.signoff.content import party_players
from scoring.signoff.pins import players_without_pin


def countersign_question() -> str:
    """What the referee's countersignature does, asked before it is given."""
    return _("The protocol is signed for good and the party locked: its deals can no longer be "
             "corrected; only the chief referee can change it, with a reason.")


def section_context(request: Any, party: Party) -> dict[str, Any]:
    """What the protocol section shows this visitor (the tag's and the sign views' context)."""
    user = request.user
    protocol = current_protocol(party)
    signatures = list(protocol.signatures.select_related("player", "user")) if protocol else []
    by_player = {s.player_id: s for s in signatures if s.player_id}
    seated = party_players(party)
    rows = [
        {
            "seat": seat.upper(),
            "player": player,
            "signature": by_player.get(player.pk),
            "mine": permissions.can_sign_protocol_as(user, party, player),
        }
        for seat, player in seated
    ]
    signable = (
        party.status == Party.Status.FINISHED
        and not party.is_bye
        and (protocol is None or protocol.status == Protocol.Status.AWAITING)
    )
    can_run = permissions.can_run_sign_off(user, party)
    return {
        "request": request,
        "party": party,
        "protocol": protocol,
        "versions": list(party.protocols.order_by("-version")),
        "rows": rows,
        "countersignature": next((s for s in signatures if s.player_id is None), None),
        "signable": signable,
        "can_run": can_run,
        "can_countersign": signable and can_run and all(r["signature"] for r in rows),
        "ask_countersign": countersign_question(),
        "can_print": permissions.can_print_round(user, party.round.tournament),
        "no_pin": (
            players_without_pin([player for _seat, player in seated])
            if signable and can_run
            else []
        ),
        "Status": Protocol.Status,
    }
