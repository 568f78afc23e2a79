"""The sides of a party as the referee screen shows them, laid out as its rule set says.

Pairs and players with their seats, the names of the rule set's sides, and the rule set's own
extras: a match's games (``RuleSet.plays_games``) and Kozel's accounts (``Layout.accounts``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.models import Party
from scoring.party.match_format import match_format_text
from scoring.rules import (
    MATCH_BEST_OF_THREE,
    RulesConfig,
    RuleSet,
    by_party_side,
    wins_needed,
)
from scoring.rules.matches import as_match
from scoring.totals.compute import kozel_ratings


def _player_row(party: Party, seat: str) -> dict[str, Any] | None:
    """A player at a seat (None for an empty seat: a side of one player)."""
    pair = party.pair(seat[0])
    if pair is None:
        raise ValueError(f"Party {party.pk} has no side {seat[0]!r}.")
    player = pair.player1 if seat.endswith("1") else pair.player2
    if player is None:
        return None
    return {"seat": seat, "id": player.pk, "name": player.name}


def pairs_of(party: Party) -> dict[str, dict[str, Any] | None]:
    """Both sides of the party as every answer shows them (``b`` is None for a bye)."""
    return {"a": _pair_row(party, "a"), "b": _pair_row(party, "b")}


def _pair_row(party: Party, side: str) -> dict[str, Any] | None:
    """A pair (or a side of one player) with its seated players."""
    pair = party.pair(side)
    if pair is None:
        return None
    players = [_player_row(party, f"{side}{n}") for n in (1, 2)]
    return {
        "id": pair.pk,
        "name": pair.display_name,
        "players": [row for row in players if row is not None],
        "disqualified": pair.disqualified,
    }


# -- the rule set's sides --------------------------------------------------------------------


def rules_of(party: Party) -> tuple[RuleSet, RulesConfig]:
    """The party's rule set and the plain snapshot of its regulations."""
    tournament = party.round.tournament
    return tournament.engine, tournament.regulations.rules_config()


def side_names(party: Party, rule_set: RuleSet, cfg: RulesConfig) -> list[tuple[str, str]]:
    """(engine side, name) at the party's table: pairs and singles by side, else by seat."""
    players = party.seat_players()
    rows = []
    for side in rule_set.sides_for(cfg):
        if side in ("a", "b"):
            pair = party.pair(side)
            name = pair.display_name if pair is not None else str(_("bye"))
        else:
            player = players.get(side)
            name = player.name if player is not None else "—"
        rows.append((side, name))
    return rows


def seat_names(party: Party, rule_set: RuleSet, cfg: RulesConfig) -> list[tuple[str, str]]:
    """(seat, "A1 · name") of the players at the table, in playing order."""
    players = party.seat_players()
    return [
        (seat, f"{seat.upper()} · {players[seat].name}")
        for seat in rule_set.seats_for(cfg)
        if seat in players
    ]


def _kozel(party: Party, rule_set: RuleSet, cfg: RulesConfig, totals: Any) -> dict[str, Any]:
    """Kozel: memorized points, open accounts, the drawn fish's carry, the Goat, the ratings."""
    sides = rule_set.sides_for(cfg)
    memorized = getattr(totals, "memorized", {}) or {}
    opened = getattr(totals, "open", {}) or {}
    return {
        "goat_at": cfg.goat_at,
        "memorize_limit": cfg.memorize_limit,
        "fish_variant": cfg.fish_variant,
        "pairs": cfg.kozel_pairs,
        "memorized": {side: memorized.get(side, 0) for side in sides},
        "open": {side: bool(opened.get(side, False)) for side in sides},
        "carry": totals.carry,
        "pair_points": getattr(totals, "pair_points", None),
        "goat": party.loser if party.status == Party.Status.FINISHED else "",
        "ratings": kozel_ratings(party, totals),
    }


def _breaks(party: Party, rule_set: RuleSet) -> dict[str, Any] | None:
    """The rule set's break rule (UDL): none without the referee, none in the last minutes."""
    minutes = getattr(rule_set, "no_breaks_last_minutes", None)
    if minutes is None:
        return None
    left = party.seconds_left() if party.started_at else None  # None: no clock
    last = left is not None and party.status != Party.Status.FINISHED and left <= minutes * 60
    return {"minutes": minutes, "last": last}


def _match(party: Party, cfg: RulesConfig, totals: Any) -> dict[str, Any]:
    """A match of games (UDL, All Fives): the game in play, each game's score, game wins."""
    match = as_match(totals)
    started = party.started_at is not None
    games = [
        {
            "number": game.number,
            "points": by_party_side(game.points),
            "hands": game.hands,
            "closed": game.closed,
            "winner": game.winner or "",
        }
        for game in match.games
    ]
    wins = {side: match.game_wins.get(side, 0) for side in ("a", "b")}
    return {
        "game": party.game,
        "games_to_win": wins_needed(cfg),
        "best_of_three": cfg.match_format == MATCH_BEST_OF_THREE,
        "format": match_format_text(cfg),
        "game_wins": wins,
        "games": games,
        "clock": {
            "seconds_left": int(party.game_seconds_left())
            if started and party.status != Party.Status.FINISHED
            else None,
            "limit_seconds": cfg.game_minutes * 60,
            "time_expired_at": party.game_expired_at,
        },
    }


def layout_extras(party: Party, rule_set: RuleSet, cfg: RulesConfig, totals: Any) -> dict[str, Any]:
    """The rule set's own parts of the screen's state: ``match`` and ``kozel`` (or None)."""
    kozel = rule_set.layout_for(cfg).accounts
    return {
        "match": _match(party, cfg, totals) if rule_set.plays_games else None,
        "breaks": _breaks(party, rule_set),
        "kozel": _kozel(party, rule_set, cfg, totals) if kozel else None,
    }


def who_names(party: Party) -> dict[str, str]:
    """The name of every side and seat at the table: "a", "b" (pairs) and "a1" … "b2" (players)."""
    names = {seat: player.name for seat, player in party.seat_players().items()}
    for side in ("a", "b"):
        pair = party.pair(side)
        if pair is not None:
            names[side] = pair.display_name
    return names
