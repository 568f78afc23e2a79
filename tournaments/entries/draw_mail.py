""""The draw is out: your table N": a mail to each seated player with an address when a
round is published (``tournaments.rounds.services.publish_round`` calls it)."""

from __future__ import annotations

from django.urls import reverse

from scoring.models import Party, Round
from tournaments.mail import mail_enabled, player_addresses, send_mail_to


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
