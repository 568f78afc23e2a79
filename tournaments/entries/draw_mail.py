""""The draw is out: your table N": a mail to each seated player with an address when a
round is published (``tournaments.rounds.services.publish_round`` calls it)."""

from __future__ import annotations

from django.urls import reverse

from scoring.models import Entry, Party, Player, Round
from tournaments.entries.mail import mail_enabled, send_mail_to


def player_addresses(tournament_id: int) -> dict[int, str]:
    """Each player's address: from his accepted entry (as player or partner), else his login."""
    found: dict[int, str] = {}
    for player_id, email in (Player.objects.filter(tournament_id=tournament_id)
                             .exclude(user__email="").filter(user__isnull=False)
                             .values_list("pk", "user__email")):
        found[player_id] = email
    accepted = Entry.objects.filter(tournament_id=tournament_id, status=Entry.Status.ACCEPTED)
    for entry in accepted.select_related("pair"):
        if entry.pair is not None:
            found[entry.pair.player1_id] = entry.email
            if entry.pair.player2_id is not None and entry.partner_email:
                found[entry.pair.player2_id] = entry.partner_email
        elif entry.player_id is not None:
            found[entry.player_id] = entry.email
    return found


def mail_draw(rnd: Round) -> int:
    """Mail every seated player with an address his table in the round; how many tables."""
    tournament = rnd.tournament
    if not mail_enabled(tournament, "draw_published"):
        return 0
    addresses = player_addresses(tournament.pk)
    if not addresses:
        return 0
    parties = (Party.objects.filter(round=rnd, table__isnull=False)
               .select_related("table", "pair_a", "pair_b").order_by("table__number"))
    page = reverse("tournaments:round", args=[tournament.slug, rnd.number])
    sent = 0
    for party in parties:
        seated = [pid for pair in (party.pair_a, party.pair_b) if pair is not None
                  for pid in (pair.player1_id, pair.player2_id) if pid is not None]
        to = [addresses[pid] for pid in seated if pid in addresses]
        if to and party.table is not None:
            sent += send_mail_to(tournament, "draw_published", to, {
                "round": rnd.number, "table": party.table.number, "round_path": page})
    return sent
