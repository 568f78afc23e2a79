"""Demo data for protocols: the demo's finished parties signed as their players and referee
would sign them, so a newcomer sees signed, verifiable protocols at once."""

from __future__ import annotations

from scoring.locking import current_protocol
from scoring.models import PARTY_RELATED, Party, Protocol, SigningPin, Tournament, TournamentRole
from scoring.pins import hash_pin
from scoring.protocol_content import party_players
from scoring.protocol_services import countersign, sign_as_player

#: Every demo player's PIN for signing on the table device.
DEMO_PIN = "1234"


def sign_demo_protocols(tournament: Tournament) -> int:
    """Sign the protocols of the finished parties; give every player the demo PIN.

    Each player signs on his own login and the referee who started the party countersigns
    (the chief referee when nobody did). Returns how many protocols were signed.
    """
    pin_hash = hash_pin(DEMO_PIN)
    for player in tournament.players.all():
        SigningPin.objects.update_or_create(player=player, defaults={"pin_hash": pin_hash})
    chief = (TournamentRole.objects.filter(tournament=tournament, role=TournamentRole.Role.CHIEF)
             .select_related("user").first())
    parties = Party.objects.filter(
        round__tournament=tournament, status=Party.Status.FINISHED, pair_b__isnull=False
    ).select_related(*PARTY_RELATED).order_by("round__number", "table__number")
    signed = 0
    for party in parties:
        protocol = current_protocol(party)
        players = party_players(party)
        if (protocol and protocol.status == Protocol.Status.SIGNED) or any(
                player.user is None for _seat, player in players):
            continue
        for _seat, player in players:
            sign_as_player(party.pk, player_id=player.pk, actor=player.user)
        started = party.events.filter(kind="party_started").select_related("actor").first()
        referee = started.actor if started and started.actor else (chief.user if chief else None)
        if referee is None:
            continue
        countersign(party.pk, actor=referee)
        signed += 1
    return signed
