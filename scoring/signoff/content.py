"""What a party's protocol says, built from the database as the PDF renderer's plain data.

Texts are in the tournament's language and times in its time zone. The deals' running totals
and the result come from ``scoring.totals.compute`` (the one function for totals); the match points
from the standings engine under the tournament's regulations.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.models import Deal, Party, Penalty, Protocol, Ruling, Signature, TournamentRole
from scoring.models.event_text import redeal_reason_text
from scoring.party.match_format import match_format_text
from scoring.party.rows import PartyRows, party_rows
from scoring.protocols import (
    CanonicalForm,
    ProtocolData,
    ProtocolGame,
    ProtocolPenalty,
    ProtocolSeat,
    ProtocolSignature,
    labels_for,
    protocol_payload,
)
from scoring.protocols.figures import signed_points
from scoring.ranking.loaders import FORFEIT_REASONS
from scoring.rules import EXTRA_DEAL, Totals, get_rule_set
from scoring.signoff.lines import (
    _clock,
    _play_totals,
    _sides,
    _stamp,
    _table,
    _zone,
    deal_lines,
    game_winners,
    layout_of,
    match_games,
    party_games,
    party_players,
    plays_text,
    seat_lines,
    seat_order,
    side_name,
    tournament_layout,
    verify_url,
)
from scoring.signoff.referees import blank_date, referee_name, referee_roles, table_referee
from scoring.standings import PartyResult, Tally
from scoring.totals.compute import compute_party_totals, deals_after

__all__ = [
    "build_blank_data",
    "build_protocol_data",
    "content_fingerprint",
    "content_payload_fingerprint",
    "deal_lines",
    "game_winners",
    "party_games",
    "party_players",
    "party_totals",
    "protocol_content",
    "plays_text",
    "side_name",
    "tournament_layout",
    "verify_url",
    "with_signatures",
]
"""This module's own names and those of ``scoring.signoff.lines`` other modules import here."""


def _result(totals: Totals) -> str:
    """The result of two sides, ``A : B``, with what the floor at zero gave back, if anything
    (so the deals' totals, the fines and the result add up)."""
    result = f"{totals.points.get('a', 0)} : {totals.points.get('b', 0)}"
    floored = [f"{side.upper()} {signed_points(value)}"
               for side, value in sorted(totals.floored.items()) if value]
    if floored:
        kept = _("not below zero: %(sides)s") % {"sides": ", ".join(floored)}
        result = f"{result} ({kept})"
    return result


def _penalty_points(penalty: Penalty | None) -> int:
    """A fine's points as printed: deducted negative, awarded to the opponents positive."""
    if penalty is None or penalty.cancelled or penalty.kind != Penalty.Kind.FINE:
        return 0
    return penalty.points if penalty.mode == Penalty.Mode.AWARD else -penalty.points


def _penalty_kind(penalty: Penalty) -> list[str]:
    parts = [str(penalty.get_kind_display()), str(penalty.get_category_display())]
    if penalty.kind == Penalty.Kind.FINE and penalty.mode == Penalty.Mode.AWARD:
        parts.append(str(penalty.get_mode_display()))
    if penalty.cancelled:
        parts.append(_("cancelled"))
    return parts


def _penalties(
    penalties: Iterable[Penalty], rulings: Iterable[Ruling], zone: ZoneInfo
) -> list[ProtocolPenalty]:
    """Warnings, fines and rulings by time; a ruling's own fine is shown on the ruling's row."""
    rows: list[tuple[datetime, int, ProtocolPenalty]] = []
    by_ruling = set()
    for ruling in rulings:
        kind = [str(ruling.get_kind_display())]
        if ruling.choice:
            kind.append(str(ruling.get_choice_display()))
        if ruling.details.get("redeal_reason"):
            kind.append(redeal_reason_text(ruling.details["redeal_reason"]))
        if ruling.details.get("undone"):
            kind.append(_("undone"))
        if ruling.penalty is not None:
            by_ruling.add(ruling.penalty_id)
            kind += _penalty_kind(ruling.penalty)
        reason = ruling.reason or (ruling.penalty.reason if ruling.penalty else "")
        rows.append((ruling.created_at, ruling.pk, ProtocolPenalty(
            _clock(ruling.created_at, zone), ruling.side.upper(),
            ruling.player.name if ruling.player else "", " · ".join(kind),
            _penalty_points(ruling.penalty), reason)))
    for penalty in penalties:
        if penalty.pk in by_ruling:
            continue
        rows.append((penalty.created_at, penalty.pk, ProtocolPenalty(
            _clock(penalty.created_at, zone), penalty.side.upper(),
            penalty.player.name if penalty.player else "", " · ".join(_penalty_kind(penalty)),
            _penalty_points(penalty), penalty.reason)))
    rows.sort(key=lambda row: (row[0], row[1]))
    return [row[2] for row in rows]


def _ended_with_extra_deal(party: Party, deals: Sequence[Deal],
                           penalties: Sequence[Penalty]) -> bool:
    """Whether the rule set asked for an extra deal before the party's last deal."""
    if party.end_reason not in (Party.EndReason.TARGET, Party.EndReason.TIME) or not deals:
        return False
    tournament = party.round.tournament
    cfg = tournament.regulations.rules_config()
    before = compute_party_totals(tournament.rule_set, cfg, deals[:-1], penalties)
    after_expiry = max(0, deals_after(deals, party.time_expired_at) - 1)
    decision = get_rule_set(tournament.rule_set).decide(
        before, cfg, time_expired=party.time_expired_at is not None,
        deals_after_expiry=after_expiry)
    return decision.state == EXTRA_DEAL


def _end_reason(party: Party, extra_deal: bool) -> str:
    if not party.end_reason:
        return ""
    regulations = party.round.tournament.regulations
    layout = layout_of(party)
    text = str(party.get_end_reason_display())
    if party.end_reason == Party.EndReason.TARGET and layout.accounts:
        text = f"{text} · {regulations.goat_at}"
    elif party.end_reason == Party.EndReason.TARGET and not layout.games:  # games: the wins
        text = f"{text} · {regulations.target}"
    elif party.end_reason == Party.EndReason.TIME and regulations.party_minutes is not None:
        minutes = _("min")
        text = f"{text} · {regulations.party_minutes} {minutes}"
    if extra_deal:
        extra = _("extra deal")
        text = f"{text} · {extra}"
    return text


def _labels(party: Party, language: str) -> dict[str, str]:
    """The captions in ``language``; where a side is one player, penalties name his seat.

    A match of games adds ``match_format``, how the match is won (the games' heading).
    """
    tournament = party.round.tournament
    labels = labels_for(language)
    if tournament.singles:
        labels["side"] = labels["seat"]
    if tournament.plays_games:
        with translation.override(language):
            labels["match_format"] = match_format_text(tournament.regulations.rules_config())
    return labels


def match_points(party: Party, points: dict[str, int]) -> dict[str, int]:
    """The match points each pair earns from this party under the regulations."""
    if (party.status != Party.Status.FINISHED or party.winner not in ("a", "b")
            or party.pair_b_id is None or layout_of(party).per_seat):
        return {}
    forfeit = party.end_reason in FORFEIT_REASONS
    ids = {"a": 1, "b": 2}
    result = PartyResult(
        round=1, a=1, b=2, points_a=points.get("a", 0), points_b=points.get("b", 0),
        winner=ids[party.winner], forfeit=forfeit,
        forfeited_by=ids["b" if party.winner == "a" else "a"] if forfeit else None)
    tally = Tally.build([result], party.round.tournament.regulations.standings_config())
    return {side: int(tally.match_points.get(ids[side], 0)) for side in ids}


def _signature_lines(party: Party, signatures: Iterable[Signature], referee: str,
                     labels: dict[str, str], zone: ZoneInfo) -> list[ProtocolSignature]:
    """The four players' lines in seat order, then the referee's."""
    by_player = {s.player_id: s for s in signatures if s.player_id}
    countersign = next((s for s in signatures if s.role == Signature.Role.REFEREE), None)
    lines = []
    for _seat, player in party_players(party):
        found = by_player.get(player.pk)
        lines.append(ProtocolSignature(
            labels["player"], player.name, _stamp(found.signed_at, zone) if found else None,
            found.reason if found and found.refused else None))
    lines.append(ProtocolSignature(
        labels["referee"], referee, _stamp(countersign.signed_at, zone) if countersign else None))
    return lines


def with_signatures(party: Party, data: ProtocolData,
                    signatures: Sequence[Signature]) -> ProtocolData:
    """``data`` with the signature lines (and the referee) of ``signatures``."""
    referee = referee_name(party, signatures)
    lines = _signature_lines(party, signatures, referee, data.labels, _zone(party))
    return dataclasses.replace(data, referee=referee, signatures=lines)


def build_protocol_data(party: Party, protocol: Protocol | None = None,
                        signatures: Sequence[Signature] | None = None) -> ProtocolData:
    """The protocol of ``party`` as it stands now, as version ``protocol`` with ``signatures``.

    Without ``signatures`` the protocol's own are used; without ``protocol`` it is a draft.
    """
    if signatures is None:
        signatures = list(protocol.signatures.select_related("user")) if protocol else []
    return with_signatures(party, protocol_content(party, protocol), signatures)


def party_totals(party: Party, rows: PartyRows | None = None) -> Totals:
    """The party's totals as its protocol prints them (``scoring.totals.compute`` over its
    deals and fines; ``rows``: its records, when the caller has them)."""
    rows = rows or party_rows(party)
    tournament = party.round.tournament
    return compute_party_totals(
        tournament.rule_set, tournament.regulations.rules_config(), rows.deals, rows.penalties,
        end_reason=party.end_reason, winner=party.winner)


def protocol_content(party: Party, protocol: Protocol | None = None) -> ProtocolData:
    """What the players confirm of ``party`` as version ``protocol``: no signature lines yet.

    Its ``content_fingerprint`` is that of ``build_protocol_data`` (signatures are not in it).
    """
    tournament = party.round.tournament
    zone = _zone(party)
    language = tournament.language or settings.LANGUAGE_CODE
    rows = party_rows(party)
    deals, penalties, rulings = rows.deals, rows.penalties, rows.rulings
    with translation.override(language):
        totals = party_totals(party, rows)
        finished = party.status == Party.Status.FINISHED
        earned = match_points(party, totals.points)
        layout = layout_of(party)
        result = _result(totals) if finished else ""
        games: list[ProtocolGame] = []
        wins = ""
        seats: list[ProtocolSeat] = []
        if layout.games:
            games, wins = match_games(party, _play_totals(party, deals, penalties, result=True))
            result = ""
        elif layout.per_seat:
            seats = seat_lines(party, totals, layout)
            result = ""
        moment = party.started_at or party.finished_at or party.round.scheduled_start
        content = ProtocolData(
            tournament=tournament.name,
            round_number=party.round.number,
            table=_table(party),
            date=moment.astimezone(zone).date().isoformat() if moment else "",
            start_time=_clock(party.started_at, zone),
            end_time=_clock(party.finished_at, zone),
            referee="",
            sides=_sides(party),
            deals=deal_lines(party, deals, penalties),
            penalties=_penalties(penalties, rulings, zone),
            end_reason=_end_reason(party, _ended_with_extra_deal(party, deals, penalties)),
            result=result,
            match_points=f"{earned['a']} : {earned['b']}" if earned else "",
            winner=side_name(party, party.winner) if finished else "",
            signatures=[],
            public_id=protocol.public_id if protocol else "",
            short_code=protocol.short_code if protocol else "",
            verify_url=verify_url(protocol.public_id) if protocol else "",
            version=protocol.version if protocol else 0,
            labels=_labels(party, language),
            language=language,
            layout=layout.protocol_form,
            games=games,
            game_wins=wins,
            seats=seats,
            goat=side_name(party, party.loser) if finished and layout.accounts else "",
            first_move=_first_move(party),
        )
        return content


def _first_move(party: Party) -> str:
    """The start-of-party draw's winner as the protocol names him ("A1 · name"), or ""."""
    if not party.first_mover:
        return ""
    player = party.seat_players().get(party.first_mover)
    name = player.name if player is not None else ""
    return " · ".join(part for part in (party.first_mover.upper(), name) if part)


def build_blank_data(party: Party, roles: Sequence[TournamentRole] | None = None) -> ProtocolData:
    """A paper protocol of ``party`` pre-filled with tournament, round, table, date, referee
    and pairs (``roles``: the tournament's referees, when the caller has them)."""
    tournament = party.round.tournament
    zone = _zone(party)
    language = tournament.language or settings.LANGUAGE_CODE
    labels = _labels(party, language)
    referee = referee_name(party, []) or table_referee(
        party, referee_roles(party) if roles is None else roles)
    return ProtocolData(
        tournament=tournament.name, round_number=party.round.number, table=_table(party),
        date=blank_date(party, zone),
        start_time="", end_time="", referee=referee, sides=_sides(party), deals=[], penalties=[],
        end_reason="", result="", match_points="", winner="",
        signatures=_signature_lines(party, [], referee, labels, zone),
        public_id="", short_code="", verify_url="", version=0, labels=labels,
        language=language, layout=layout_of(party).protocol_form, seats=_blank_seats(party))


def _blank_seats(party: Party) -> list[ProtocolSeat]:
    """The players in playing order, for a paper sheet with a column group per player."""
    if not layout_of(party).per_seat:
        return []
    players = party.seat_players()
    return [ProtocolSeat(seat, players[seat].name if seat in players else "", 0)
            for seat in seat_order(party)]


#: What the players' content fingerprint leaves blank: the signatures and the version's ids.
UNSIGNED = {"signatures": [], "referee": "", "public_id": "", "version": 0}


def content_fingerprint(data: ProtocolData) -> str:
    """The fingerprint of what the players confirm: the data without signatures or ids."""
    return content_payload_fingerprint(protocol_payload(data))


def content_payload_fingerprint(payload: dict[str, Any]) -> str:
    """``content_fingerprint`` of the data as ``dataclasses.asdict`` gives it."""
    return CanonicalForm(payload).fingerprint(**UNSIGNED)
