"""UDL singles (issue #13, item 12): the match format, the break rule, the lifetime ban.

The match format is a regulations setting (to three wins by default, as the seed says, or
best of three: the first to two wins); the desk shows the break rule next to the clock and
the disqualification form carries the UDL rules that end a match, the lifetime ban among them.
The match format is said by one function, the same on the desk, the public party page and the
protocol, in English and Russian.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Party, Ruling, Tournament
from scoring.protocols import render_protocol
from scoring.rules import (
    FINISHED,
    MATCH_BEST_OF_THREE,
    MATCH_TO_WINS,
    NEXT_GAME,
    RulesConfig,
    get_rule_set,
    wins_needed,
)
from scoring.rules.matches import decide_match
from scoring.rules.udl import BROKEN_EQUIPMENT, penalty_for
from scoring.signoff.content import build_protocol_data
from tests.protocols.conftest import pdf_text

pytestmark = pytest.mark.django_db


def _win_game(udl) -> None:
    """Player A goes out with the opponent's 150 pips left: a game won at the target."""
    udl.deal(outcome="domino", went_out="a1", pips={"b1": 150}, plays=[["a1", 5]])


def _screen(udl, name: str, language: str = "en") -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(udl.referee)
    response = client.get(reverse(f"referee:{name}", args=[udl.party_id]))
    assert response.status_code == 200
    return response.content.decode()


def test_udl_preset_plays_to_three_wins_and_best_of_three_takes_two():
    cfg = get_rule_set("udl").config()
    assert (cfg.match_format, cfg.games_to_win, wins_needed(cfg)) == (MATCH_TO_WINS, 3, 3)
    best = RulesConfig(games_to_win=3, match_format=MATCH_BEST_OF_THREE)
    assert wins_needed(best) == 2
    assert decide_match({"a": 2, "b": 1}, best).state == FINISHED
    assert decide_match({"a": 2, "b": 1}, cfg).state == NEXT_GAME
    assert decide_match({"a": 1, "b": 1}, best).state == NEXT_GAME


def test_udl_to_three_wins_goes_on_after_two_game_wins(desk):
    udl = desk("udl")
    _win_game(udl)
    _win_game(udl)
    party = udl.party
    assert (party.status, party.game) == (Party.Status.IN_PROGRESS, 3)
    assert udl.state()["match"]["games_to_win"] == 3


def test_udl_best_of_three_is_won_by_two_game_wins(desk):
    """(rules.md U3) UDL best of three is won by two game wins."""
    udl = desk("udl", match_format="best_of_three")
    assert udl.state()["match"]["games_to_win"] == 2
    _win_game(udl)
    _win_game(udl)
    party = udl.party
    assert (party.status, party.winner) == (Party.Status.FINISHED, "a")
    assert udl.state()["match"]["game_wins"] == {"a": 2, "b": 0}


def test_udl_best_of_three_forfeit_counts_two_games(desk):
    udl = desk("udl", match_format="best_of_three")
    response = udl.post("udl-violation", {"violation": "hiding_tiles", "side": "b"})
    assert response.status_code == 201, response.json()
    assert udl.state()["match"]["game_wins"] == {"a": 2, "b": 0}


def test_udl_desk_shows_the_break_rule_and_the_last_fifteen_minutes(desk):
    """(rules.md U1) UDL desk shows the break rule and the last fifteen minutes."""
    udl = desk("udl")
    screen = _screen(udl, "party")
    assert 'id="udl-breaks-rule"' in screen
    assert "permission; none in the last 15 minutes" in screen
    assert 'id="udl-breaks"' not in _screen(udl, "party_status")
    Party.objects.filter(pk=udl.party_id).update(
        started_at=timezone.now() - timedelta(minutes=31)
    )
    board = _screen(udl, "party_status")
    assert 'id="udl-breaks"' in board and "Last 15 minutes: no breaks" in board


def test_break_rule_is_udl_only(desk):
    fives = desk("allfives")
    Party.objects.filter(pk=fives.party_id).update(
        started_at=timezone.now() - timedelta(minutes=31)
    )
    assert 'id="udl-breaks"' not in _screen(fives, "party_status")
    assert 'id="udl-breaks-rule"' not in _screen(fives, "party")


def test_broken_equipment_disqualifies_with_a_lifetime_ban(desk):
    """(rules.md U12) Broken equipment disqualifies with a lifetime ban."""
    assert penalty_for(BROKEN_EQUIPMENT).lifetime_ban
    assert not penalty_for("slamming").lifetime_ban
    udl = desk("udl")
    screen = _screen(udl, "party")
    assert 'id="udl-dq-reasons"' in screen and "a lifetime ban from UDL tournaments" in screen
    response = udl.post("udl-violation", {"violation": BROKEN_EQUIPMENT, "seat": "a1"})
    assert response.status_code == 201, response.json()
    ruling = Ruling.objects.get(party_id=udl.party_id)
    assert (ruling.kind, ruling.choice, ruling.side) == ("disqualification", "tournament", "a")
    assert ruling.details["lifetime_ban"] is True
    assert "lifetime ban" in ruling.reason and "pays for the damage" in ruling.reason
    assert udl.party.pair_a.player1.disqualified is True


#: How each match format is said, in each language (the desk, the party page, the protocol).
SAID = {
    ("to_wins", "en"): "the first to 3 game wins",
    ("best_of_three", "en"): "best of three games (the first to two wins)",
    ("to_wins", "ru"): "до 3 побед",
    ("best_of_three", "ru"): "из трёх игр (до двух побед)",
}
#: Where it is said: the desk's game line, the party page's rules, the protocol's games.
WHERE = {
    "en": ("Game 2 · match: {}", "match: {}.", "Games · {}"),
    "ru": ("Игра 2 · матч: {}", "матч: {}.", "Игры · {}"),
}


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("match_format", ["to_wins", "best_of_three"])
def test_the_match_format_is_said_alike_on_desk_party_page_and_protocol(desk, tmp_path,
                                                                         match_format, language):
    """(rules.md U3) The match format is said alike on desk party page and protocol."""
    udl = desk("udl", match_format=match_format)
    Tournament.objects.filter(pk=udl.party.round.tournament.pk).update(language=language)
    _win_game(udl)  # game 2 in play either way
    said = SAID[match_format, language]
    other = SAID["to_wins" if match_format == "best_of_three" else "best_of_three", language]
    on_desk, on_page, on_protocol = (where.format(said) for where in WHERE[language])

    board = " ".join(_screen(udl, "party_status", language).split())
    assert on_desk in board and other not in board
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = " ".join(client.get(reverse("tournaments:party", args=[udl.party_id]))
                    .content.decode().split())
    assert on_page in page and other not in page
    assert "first to 3 games" not in page and "first to win 3" not in page
    pdf = render_protocol(build_protocol_data(udl.party))
    text = " ".join(pdf_text(pdf, tmp_path).split())
    assert on_protocol in text and other not in text
