"""Standings, results and the deal-by-deal record of a tournament as sheets (CSV or XLSX).

What is exported depends on the tournament's data only, never on who asks or which database
holds it: draft rounds are left out for everyone, texts are in the tournament's language
(unless another is asked for), rows come in a fixed order (round, table number, byes last),
no database id appears, and totals come from ``scoring.totals.compute`` (the one function for party
totals) and the standings from ``scoring.ranking.results``. Two installations holding the same
tournament therefore give byte-identical files.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.models import Pair, Party, Player, Round, Tournament
from scoring.ranking.results import standings_table
from scoring.rules import SIDE_PAIR, Layout
from scoring.signoff.content import (
    deal_lines,
    party_games,
    plays_text,
    side_name,
    tournament_layout,
)
from scoring.totals.compute import party_totals, prefetched_rows
from tournaments.transfer.sheets import Cell, Sheet

EXPORTS = ("standings", "results", "deals")
FORMATS = ("csv", "xlsx")


def export_language(tournament: Tournament, language: str | None = None) -> str:
    """The language of an export: the one asked for if the site has it, else the tournament's."""
    known = {code for code, _name in settings.LANGUAGES}
    if language in known:
        return str(language)
    return tournament.language if tournament.language in known else settings.LANGUAGE_CODE


def _document_time(tournament: Tournament) -> dt.datetime:
    """The XLSX document's date: the tournament's start, so that it is the same everywhere."""
    return dt.datetime.combine(tournament.start_date, dt.time())


def _entrant_note(entrant: Pair | Player) -> str:
    """The note of a disqualified or withdrawn pair or player (empty otherwise)."""
    if entrant.disqualified:
        return _("disqualified")
    if entrant.withdrawn:
        return _("withdrawn")
    return ""


def standings_sheet(tournament: Tournament, *, after_round: int | None = None,
                    per_player: bool | None = None) -> Sheet:
    """The standings as on the standings page: rank ("2=" when shared), name, every metric."""
    table = standings_table(tournament, per_player=per_player, after_round=after_round)
    header = [_("Rank"), _("Player") if table.per_player else _("Pair")]
    if not table.per_player:
        header.append(_("Players"))
    header += [_("Note"), *(_(metric.name) for metric in table.columns)]
    rows: list[list[Cell]] = []
    for row, entrant, values in table.lines():
        line: list[Cell] = [f"{row.rank}=" if row.shared else row.rank]
        if isinstance(entrant, Player):  # the standings per player
            line.append(entrant.name)
        else:
            line += [entrant.display_name, entrant.players_label]
        line += [_entrant_note(entrant), *values]
        rows.append(line)
    title = _("Standings")
    if after_round is not None:
        title = _("Standings after round %(number)s") % {"number": after_round}
    return Sheet(title=title, header=header, rows=rows, when=_document_time(tournament))


def published_parties(tournament: Tournament) -> list[Party]:
    """The parties of the published rounds with their deals and fines, in export order.

    Ordered by round, then table number (parties without a table, the byes, last), then the
    first pair's name: the same order whatever the database (NULLs sort differently).
    """
    parties: QuerySet[Party] = (
        Party.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related(
            "round__tournament__regulations", "table", "pair_a__player1", "pair_a__player2",
            "pair_b__player1", "pair_b__player2",
        )
        .prefetch_related("deals", "penalties")
        .order_by("id")
    )
    big = 1 << 62
    return sorted(parties, key=lambda p: (
        p.round.number, p.table.number if p.table else big, p.pair_a.display_name, p.pk))


def _party_cells(party: Party) -> list[Cell]:
    """Round, table, pair A and pair B of a party."""
    return [
        party.round.number,
        party.table.number if party.table else "",
        party.pair_a.display_name,
        party.pair_b.display_name if party.pair_b else _("bye"),
    ]


def _party_header(tournament: Tournament) -> list[str]:
    """The header cells of ``_party_cells``, the sides named as the rule set names them."""
    engine, cfg = tournament.engine, tournament.regulations.rules_config()
    return [_("Round"), _("Table"), _(engine.side_label("a", cfg)), _(engine.side_label("b", cfg))]


def _seats(tournament: Tournament) -> list[str]:
    """The seats of a tournament's tables in playing order (a1, b1, a2, b2)."""
    return list(tournament.engine.seats_for(tournament.regulations.rules_config()))


def results_sheet(tournament: Tournament, **_options: Any) -> Sheet:
    """Every party of the published rounds: table, pairs, score, winner, how it ended.

    A match of games (UDL, All Fives) adds the games each side won; where every player scores
    for himself (Kozel, Draw, Block, Classic) the points are each seat's, and Kozel names the
    Goat.
    """
    layout = tournament_layout(tournament)
    per_seat = layout.per_seat
    seats = _seats(tournament) if per_seat else []
    if per_seat:
        points_header = [_("Points %(seat)s") % {"seat": seat.upper()} for seat in seats]
    else:
        points_header = [_("Points A"), _("Points B")]
    if layout.games:
        points_header += [_("Games won A"), _("Games won B")]
    header = [*_party_header(tournament), *points_header, _("Winner")]
    if layout.accounts:
        header.append(_("Goat"))
    header += [_("How the party ended"), _("Status")]
    rows: list[list[Cell]] = []
    for party in published_parties(tournament):
        totals = party_totals(party, prefetched_rows(party))
        points = totals.points
        if per_seat:
            cells: list[Cell] = [points.get(seat, "") for seat in seats]
        else:
            cells = [points.get("a", 0), points.get("b", 0) if party.pair_b else ""]
        if layout.games:
            games = party_games(party, totals)
            cells += [sum(1 for _n, _p, won in games if won == side) for side in "ab"]
        finished = party.status == Party.Status.FINISHED
        cells.append(side_name(party, party.winner) if finished else "")
        if layout.accounts:
            cells.append(side_name(party, party.loser) if finished else "")
        rows.append([
            *_party_cells(party),
            *cells,
            party.get_end_reason_display(),
            party.get_status_display(),
        ])
    return Sheet(title=_("Results"), header=header, rows=rows, when=_document_time(tournament))


def _deal_header(tournament: Tournament, layout: Layout) -> list[str]:
    """The deal sheet's columns after the party's: the sport sheet's, plus each rule set's."""
    if layout.games:
        return [_("Deal"), _("Game"), _("How it ended"), _("Winner"), _("Went out"),
                _("Points A"), _("Points B"), _("Scoring plays"), _("Game score A"),
                _("Game score B")]
    if layout.per_seat:
        header = [_("Deal"), _("How it ended"), _("Winner"), _("Went out")]
        for seat in _seats(tournament):
            label = seat.upper()
            header.append(_("Points %(seat)s") % {"seat": label})
            if layout.accounts:
                header += [_("Account %(seat)s") % {"seat": label},
                           _("Memorized %(seat)s") % {"seat": label}]
            else:
                header.append(_("Total %(seat)s") % {"seat": label})
        return header
    winning = _("Winning pair") if tournament.engine.side_kind_for(
        tournament.regulations.rules_config()) == SIDE_PAIR else _("Winner")
    header = [_("Deal"), _("How it ended"), winning, _("Went out"),
              _("Points A"), _("Points B"), _("Total A"), _("Total B")]
    if tournament.engine.uses_led:
        header.append(_("Led the deal"))
    return header


def deals_sheet(tournament: Tournament, **_options: Any) -> Sheet:
    """Every deal of the published rounds with the running totals after it.

    A match's hands add their game, scoring plays and the game's score after them; where
    every player scores for himself, each seat's points and total (Kozel: account and
    memorized points) after the deal; Latin pairs, the seat that led.
    """
    layout = tournament_layout(tournament)
    header = [*_party_header(tournament), *_deal_header(tournament, layout)]
    seats = _seats(tournament)
    rows: list[list[Cell]] = []
    for party in published_parties(tournament):
        deals = sorted(party.deals.all(), key=lambda d: d.number)
        if not deals:
            continue
        cells = _party_cells(party)
        if layout.games or layout.per_seat:
            lines = deal_lines(party, deals, list(party.penalties.all()))
            for deal, line in zip(deals, lines, strict=True):
                row: list[Cell] = [*cells, deal.number]
                if layout.games:
                    row.append(deal.game)
                row += [deal.get_outcome_display(), side_name(party, deal.winner),
                        deal.went_out.upper()]
                if layout.games:
                    row += [deal.points_a, deal.points_b, plays_text(deal), line.running_a,
                            line.running_b]
                else:
                    for seat in seats:
                        row.append((line.seat_points or {}).get(seat, 0))
                        row.append((line.seat_running or {}).get(seat, 0))
                        if layout.accounts:
                            row.append((line.memorized or {}).get(seat, 0))
                rows.append(row)
            continue
        totals = party_totals(party, prefetched_rows(party))
        for deal, running in zip(deals, totals.running, strict=False):
            winner = party.pair(deal.winner) if deal.winner else None
            row = [
                *cells,
                deal.number,
                deal.get_outcome_display(),
                winner.display_name if winner else "",
                deal.went_out.upper(),
                deal.points_a,
                deal.points_b,
                running.get("a", 0),
                running.get("b", 0),
            ]
            if tournament.engine.uses_led:
                row.append(deal.led.upper())
            rows.append(row)
    return Sheet(title=_("Deals"), header=header, rows=rows, when=_document_time(tournament))


SHEETS: dict[str, Callable[..., Sheet]] = {
    "standings": standings_sheet,
    "results": results_sheet,
    "deals": deals_sheet,
}


def export_sheet(tournament: Tournament, what: str, *, language: str | None = None,
                 after_round: int | None = None, per_player: bool | None = None) -> Sheet:
    """The sheet ``what`` ("standings", "results" or "deals") in the export's language."""
    with translation.override(export_language(tournament, language)):
        return SHEETS[what](tournament, after_round=after_round, per_player=per_player)


def export_filename(tournament: Tournament, what: str, fmt: str,
                    after_round: int | None = None) -> str:
    """The download's file name, e.g. ``spring-cup-standings-r3.csv``."""
    suffix = f"-r{after_round}" if after_round is not None else ""
    return f"{tournament.slug}-{what}{suffix}.{fmt}"
