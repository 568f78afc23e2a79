"""Rule U6 (seed 003 item 16): the UDL official score card holds each game's final score and
each player's wins and losses.

Through the services on a real match Ann wins three games to one (one game Bob's), signed off
by both players and the referee: the signed protocol, read back with pdftotext, lists every
game's final score and winner and each player's games won and lost; the public party page
shows the same lines.
"""

from __future__ import annotations

import re

import pytest

from scoring.signoff.services import countersign, protocol_pdf, sign_as_player

from .conftest import pdf_text
from .test_rule_set_protocols import udl_match

pytestmark = pytest.mark.django_db

#: The match of ``udl_match``: (game, final score A : B, winner).
GAMES = [("1", "150 : 5", "Ann Lee"), ("2", "0 : 155", "Bob Ray"),
         ("3", "150 : 0", "Ann Lee"), ("4", "150 : 0", "Ann Lee")]


def test_udl_score_card_lists_each_games_final_score_and_each_players_wins_and_losses(
    organizer, make_user, protocol_env, tmp_path, client
):
    """(rules.md U6) UDL score card lists each games final score and each players wins and
    losses."""
    party = udl_match(organizer)
    for player in party.seat_players().values():
        player.user = make_user(f"card-{player.pk}")
        player.save(update_fields=["user"])
        sign_as_player(party.pk, player_id=player.pk, actor=player.user)
    protocol = countersign(party.pk, actor=organizer)
    pdf, signed = protocol_pdf(party, protocol)
    assert signed
    text = pdf_text(pdf, tmp_path)
    card = text[text.index("Games · "):text.index("Warnings, fines and rulings")]
    assert re.findall(r"^(\d)\s+(\d+ : \d+)\s+(\S.*?)\s*$", card, re.M) == GAMES
    flat = " ".join(card.split())
    assert "Ann Lee: won 3, lost 1 · Bob Ray: won 1, lost 3" in flat
    assert "Games won 3 : 1" in " ".join(text.split())

    page = client.get(party.get_absolute_url()).content.decode()
    shown = re.findall(
        r'data-game="(\d)">.*?Score of game \d</th><td><strong>(\d+)</strong></td>'
        r"<td><strong>(\d+)</strong></td><td>Won by ([^<]+)</td>", page, re.S)
    assert [(n, f"{a} : {b}", who) for n, a, b, who in shown] == GAMES
    assert 'data-games="a">3<' in page and 'data-games="b">1<' in page
