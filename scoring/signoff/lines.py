"""The lines of a party's score sheet, as the protocol and the party pages show them.

The players and sides, each deal's line with the running totals from ``scoring.totals.compute``, the
games of a match and every player's line, laid out as the tournament's rule set says
(its layout object: ``RuleSet.layout_for``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.core.site import site_url
from scoring.models import Deal, Party, Penalty, Player, Tournament
from scoring.models.event_text import uncollected_text
from scoring.protocols import (
    ProtocolDeal,
    ProtocolGame,
    ProtocolPlayer,
    ProtocolSeat,
    ProtocolSide,
)
from scoring.rules import Layout, MatchTotals, Totals
from scoring.totals.compute import compute_party_totals, kozel_ratings


def party_players(party: Party) -> list[tuple[str, Player]]:
    """The party's players with their seats (``a1``, ``a2``, ``b1``, ``b2``) in seat order."""
    seated = []
    for side in ("a", "b"):
        pair = party.pair(side)
        if pair is not None:
            seated += [(f"{side}{n}", player) for n, player in enumerate(pair.players, start=1)]
    return seated


def verify_url(public_id: str) -> str:
    """The absolute address of a protocol's verification page (what the QR code holds)."""
    return f"{site_url()}{reverse('scoring:verify_protocol', args=[public_id])}"


def _zone(party: Party) -> ZoneInfo:
    """The tournament's time zone (the server's if the name is unknown)."""
    try:
        return ZoneInfo(party.round.tournament.time_zone)
    except (KeyError, ValueError):
        return ZoneInfo(settings.TIME_ZONE)


def _clock(moment: datetime | None, zone: ZoneInfo) -> str:
    return moment.astimezone(zone).strftime("%H:%M") if moment else ""


def _stamp(moment: datetime | None, zone: ZoneInfo) -> str | None:
    return moment.astimezone(zone).strftime("%Y-%m-%d %H:%M") if moment else None


def _table(party: Party) -> str:
    table = party.table
    if table is None:
        return ""
    return f"{table.number} ({table.label})" if table.label else str(table.number)


def _sides(party: Party) -> list[ProtocolSide]:
    sides = []
    for side in ("a", "b"):
        pair = party.pair(side)
        if pair is None:
            continue
        players = [
            ProtocolPlayer(player.name, seat.upper())
            for seat, player in party_players(party)
            if seat.startswith(side)
        ]
        sides.append(ProtocolSide(side, pair.display_name, players))
    return sides


def layout_of(party: Party) -> Layout:
    """How the party lays out its deals: its tournament's layout object."""
    return tournament_layout(party.round.tournament)


def tournament_layout(tournament: Tournament) -> Layout:
    """How the parties of a tournament lay out their deals: the rule set's layout object
    (``RuleSet.layout_for``)."""
    return tournament.engine.layout_for(tournament.regulations.rules_config())


def seat_order(party: Party) -> list[str]:
    """The seats taken at the party's table, in playing order (a1, b1, a2, b2)."""
    tournament = party.round.tournament
    return list(tournament.engine.seats_for(tournament.regulations.rules_config()))


def _play_totals(party: Party, deals: Sequence[Deal], penalties: Sequence[Penalty],
                 *, result: bool = False) -> Totals:
    """The totals of the deals as played (the rows' running totals), by ``totals.compute``.

    With ``result`` a party decided by a ruling has its forfeit totals instead (a match: the
    games its winner is credited with), as every other view shows it.
    """
    tournament = party.round.tournament
    finished = party.status == Party.Status.FINISHED
    return compute_party_totals(
        tournament.rule_set, tournament.regulations.rules_config(), deals, penalties,
        end_reason=party.end_reason if finished and result else "",
        winner=party.winner if finished else "", game=party.game)


def plays_text(deal: Deal) -> str:
    """A hand's scoring plays in order, e.g. ``A 10 · B 5 · A 15``."""
    return " · ".join(f"{str(who).upper()} {points}" for who, points in deal.plays or [])


def _outcome_names() -> dict[str, str]:
    """The outcomes' names in the active language (Django's ``get_outcome_display`` rebuilds
    its choices' dictionary on every call: once per protocol is enough)."""
    return {value: str(label) for value, label in Deal.Outcome.choices}


def _outcome(deal: Deal, layout: Layout, names: dict[str, str] | None = None) -> str:
    """How a deal ended, with who went out (who took a fish, what a drawn fish left)."""
    names = names if names is not None else _outcome_names()
    outcome = names.get(deal.outcome, deal.outcome)
    if deal.went_out:
        outcome = f"{outcome} · {deal.went_out.upper()}"
    elif layout.outcome_details and deal.outcome == Deal.Outcome.FISH and deal.winner:
        outcome = f"{outcome} · {deal.winner.upper()}"
    if layout.outcome_details and deal.outcome == Deal.Outcome.DRAWN_FISH and deal.carry:
        carried = _("%(points)s points carried over") % {"points": deal.carry}
        outcome = f"{outcome} · {carried}"
    if deal.led:
        led = _("%(seat)s led") % {"seat": deal.led.upper()}
        outcome = f"{outcome} · {led}"
    return outcome


def _opened_after_each(party: Party, deals: Sequence[Deal]) -> list[dict[str, bool]]:
    """Kozel: whose account is open after each deal (the engine's totals of the deals so far)."""
    tournament = party.round.tournament
    cfg = tournament.regulations.rules_config()
    flags = []
    for count in range(1, len(deals) + 1):
        totals = compute_party_totals(tournament.rule_set, cfg, deals[:count], [])
        flags.append(dict(getattr(totals, "open", None) or {}))
    return flags


def deal_lines(party: Party, deals: Sequence[Deal],
               penalties: Sequence[Penalty]) -> list[ProtocolDeal]:
    """Every deal with its points and the running totals from ``scoring.totals.compute``.

    A match's hands carry their game, its score after them and their scoring plays; where
    every player scores for himself, the points per seat (Kozel: the accounts, memorized
    points and open accounts after each deal).
    """
    layout = layout_of(party)
    totals = _play_totals(party, deals, penalties)
    names = _outcome_names()
    rows = []
    if layout.per_seat:
        memorized = getattr(totals, "running_memorized", None) or [None] * len(deals)
        opened = _opened_after_each(party, deals) if layout.accounts else [None] * len(deals)
        for deal, running, kept, flags in zip(deals, totals.running, memorized, opened,
                                              strict=True):
            rows.append(ProtocolDeal(
                deal.number, _outcome(deal, layout, names), deal.points_a, deal.points_b,
                sum(v for k, v in running.items() if k.startswith("a")),
                sum(v for k, v in running.items() if k.startswith("b")), deal.note,
                seat_points=deal.points_by_side(), seat_running=dict(running),
                memorized=dict(kept) if kept is not None else None,
                opened=flags or None))
        return rows
    uncollected = totals.uncollected or [{}] * len(deals)
    for deal, running, held in zip(deals, totals.running, uncollected, strict=True):
        rows.append(ProtocolDeal(
            deal.number, _outcome(deal, layout, names), deal.points_a, deal.points_b,
            running.get("a", 0), running.get("b", 0), _with_uncollected(deal.note, held),
            game=deal.game if layout.games else None,
            plays=plays_text(deal) if layout.games else ""))
    return rows


def _with_uncollected(note: str, held: dict[str, int]) -> str:
    """A deal's note, then the points it scored that were not collected (UDL: on the board)."""
    return " · ".join(filter(None, [note, uncollected_text(held)]))


def side_name(party: Party, key: str) -> str:
    """Who a side or seat is: a pair's (or lone player's) name, or the player at a seat."""
    if not key:
        return ""
    if key in ("a", "b"):
        pair = party.pair(key)
        return pair.display_name if pair else ""
    player = party.seat_players().get(key)
    return player.name if player else key.upper()


def game_winners(totals: Totals) -> list[tuple[int, dict[str, int], str | None]]:
    """The games of a match: number, final score per side and winner (a side, or None)."""
    if not isinstance(totals, MatchTotals):
        return []
    return [(score.number, dict(score.points), score.winner) for score in totals.games]


def party_games(party: Party, totals: Totals) -> list[tuple[int, dict[str, int], str | None]]:
    """``game_winners`` of a party (its totals as played: ``_play_totals``)."""
    return game_winners(totals)


def match_games(party: Party, totals: Totals) -> tuple[list[ProtocolGame], str]:
    """The games of a match as printed, and the games won by each side (``3 : 1``)."""
    games = party_games(party, totals)
    wins = {side: sum(1 for _n, _points, winner in games if winner == side) for side in "ab"}
    printed = [ProtocolGame(number, points.get("a", 0), points.get("b", 0),
                            side_name(party, winner or ""))
               for number, points, winner in games]
    return printed, f"{wins['a']} : {wins['b']}" if games else ""


def _is(key: str, seat: str) -> bool:
    """Whether a winner or loser ``key`` (a seat, or a pair when playing in pairs) is ``seat``."""
    return bool(key) and (key == seat or key == seat.rstrip("0123456789"))


def seat_lines(party: Party, totals: Totals, layout: Layout) -> list[ProtocolSeat]:
    """Every player's points and fines at the end (Kozel: memorized points, open account and,
    once the party is over, the rating after the game), with the Goat and the winner."""
    players = party.seat_players()
    finished = party.status == Party.Status.FINISHED
    kozel = layout.accounts
    ratings = (kozel_ratings(party, totals) if kozel else None) or {}
    memorized = getattr(totals, "memorized", {})  # a forfeit's totals have none
    opened = getattr(totals, "open", {})
    lines = []
    for seat in seat_order(party):
        player = players.get(seat)
        lines.append(ProtocolSeat(
            seat=seat,
            name=player.name if player else "",
            points=totals.points.get(seat, 0),
            fines=totals.fine_points.get(seat, 0),
            memorized=memorized.get(seat, 0) if kozel else None,
            opened=opened.get(seat, False) if kozel else None,
            rating=ratings.get(seat),
            goat=finished and _is(party.loser, seat),
            winner=finished and _is(party.winner, seat),
        ))
    return lines
