"""Demo data for protocols: the demo's finished parties signed as their players and referee
would sign them, so a newcomer sees signed, verifiable protocols at once; and dropping a demo
tournament whole, so that ``seed_demo --fresh`` loads it anew at serve time; the demo's
players linked to one profile per login across its tournaments."""

from __future__ import annotations

from typing import Any

from scoring.models import (
    PARTY_RELATED,
    Pair,
    Party,
    Player,
    PrintJob,
    Profile,
    Protocol,
    Signature,
    SigningPin,
    Stage,
    Tournament,
    TournamentRole,
)
from scoring.party.protocol_lock import current_protocol
from scoring.signoff.content import party_players
from scoring.signoff.pins import hash_pin
from scoring.signoff.services import countersign, sign_as_player

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


def drop_demo_tournament(tournament: Tournament) -> None:
    """Delete a demo tournament with everything in it, its PDF files too (demo data only).

    A real tournament is never deleted (its event log is append-only); a demo one is dropped
    whole so that it can be loaded anew with its clocks starting now. The rows that protect
    the players, pairs and tables (signatures, parties, pairs) go first.
    """
    parties = Party.objects.filter(round__tournament=tournament)
    stored: list[Protocol | PrintJob] = [
        *Protocol.objects.filter(party__in=parties).exclude(file=""),
        *PrintJob.objects.filter(round__tournament=tournament).exclude(file=""),
    ]
    for item in stored:
        item.file.delete(save=False)
    Signature.objects.filter(protocol__party__in=parties).delete()
    parties.delete()
    Stage.objects.filter(tournament=tournament).delete()  # the matches hold their pairs
    Pair.objects.filter(tournament=tournament).delete()
    Player.objects.filter(tournament=tournament).delete()
    Tournament.objects.filter(pk=tournament.pk).delete()


def demo_profile(user: Any, name: str, club: str = "", city: str = "") -> Profile:
    """The demo person of a login: one profile per demo player account, across the demo's
    tournaments (made on first use, carrying the login)."""
    found = Profile.objects.filter(user=user).first()
    if found is not None:
        return found
    return Profile.objects.create(name=name, club=club, city=city, user=user)


def link_demo_players(tournament: Tournament) -> None:
    """Link each player of a demo tournament to his login's profile (the same person in every
    demo tournament he plays)."""
    for player in tournament.players.exclude(user=None).select_related("user"):
        player.profile = demo_profile(player.user, player.name, player.club, player.city)
        player.save(update_fields=["profile"])
