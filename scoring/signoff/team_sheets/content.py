"""What a team match sheet says, built from the database as the renderer's plain data.

The team figures (parties won, points, the team score under ``Tournament.team_scoring``, the
winner) are ``scoring.teams.results``'; each board's points and fines are its party's totals
as its protocol prints them (``scoring.signoff.content.party_totals``). Texts are in the
tournament's language, times in its time zone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.models import (
    PARTY_RELATED,
    Party,
    Player,
    Protocol,
    TeamMatch,
    TeamSheet,
    TeamSheetSignature,
    Tournament,
)
from scoring.protocols import ProtocolSignature, protocol_payload
from scoring.protocols.figures import signed_points
from scoring.protocols.fingerprint import CanonicalForm
from scoring.protocols.team_sheet_data import (
    SheetBoard,
    SheetTeam,
    TeamSheetData,
    team_sheet_labels,
)
from scoring.signoff.content import party_totals
from scoring.signoff.lines import _stamp, _table, _zone
from scoring.signoff.referees import user_name
from scoring.teams.results import TeamMatchResult, team_match_result

#: What a captain's content fingerprint leaves blank: the signature lines and the sheet's ids.
UNSIGNED: dict[str, Any] = {"signatures": [], "public_id": "", "version": 0}


def match_parties(team_match: TeamMatch) -> list[Party]:
    """The team match's parties by half and board."""
    return list(Party.objects.filter(team_match=team_match).select_related(*PARTY_RELATED)
                .order_by("half", "board", "table__number", "id"))


def team_a_side(party: Party, team_match: TeamMatch) -> str:
    """The party's side (``"a"`` or ``"b"``) where team A's pair sits."""
    return "b" if party.pair_b is not None and party.pair_b.team_id == team_match.team_a_id \
        else "a"


def match_players(team_match: TeamMatch, team_id: int,
                  parties: Sequence[Party] | None = None) -> list[Player]:
    """The players of ``team_id`` who play in this team match (its pairs at the boards)."""
    found: dict[int, Player] = {}
    for party in parties if parties is not None else match_parties(team_match):
        for pair in (party.pair_a, party.pair_b):
            if pair is not None and pair.team_id == team_id:
                for player in pair.players:
                    found.setdefault(player.pk, player)
    return list(found.values())


def _number(value: Any) -> str:
    """A team figure as printed: ``2``, ``1.5``."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def scoring_text(scoring: str) -> str:
    """How the team score is counted, in a few words of the active language."""
    texts: dict[str, str] = {
        Tournament.TeamScoring.MATCH_POINTS: _("match points"),
        Tournament.TeamScoring.PARTIES: _("parties won"),
        Tournament.TeamScoring.POINTS: _("points over the boards"),
        Tournament.TeamScoring.EFECTIVENESS: _("efectiveness over the boards"),
    }
    return texts.get(scoring, scoring)


def _protocol_text(protocol: Protocol | None) -> str:
    """What the sheet says of a party's protocol: signed (its code and version) or not."""
    if protocol is not None and protocol.status == Protocol.Status.SIGNED:
        return _("protocol signed, code %(code)s, version %(version)s") % {
            "code": protocol.short_code, "version": protocol.version}
    return _("protocol not signed yet")


def _boards(team_match: TeamMatch, parties: Sequence[Party]) -> list[SheetBoard]:
    """Each party as a board line, team A's pair first whichever side it sat."""
    protocols = {p.party_id: p for p in Protocol.objects.filter(party__in=parties)
                 .exclude(status=Protocol.Status.SUPERSEDED)}
    names = {"a": team_match.team_a.name,
             "b": team_match.team_b.name if team_match.team_b else ""}
    boards = []
    for party in parties:
        totals = party_totals(party)
        own = team_a_side(party, team_match)
        other = "b" if own == "a" else "a"
        pair_a, pair_b = party.pair(own), party.pair(other)
        winner = {own: "a", other: "b"}.get(party.winner, "")
        boards.append(SheetBoard(
            board=party.board or 0, half=party.half, table=_table(party),
            pair_a=pair_a.players_label if pair_a else "",
            pair_b=pair_b.players_label if pair_b else "",
            points_a=str(totals.points.get(own, 0)), points_b=str(totals.points.get(other, 0)),
            fines_a=signed_points(totals.fine_points.get(own, 0)),
            fines_b=signed_points(totals.fine_points.get(other, 0)),
            winner=winner, winner_name=names.get(winner, ""),
            protocol=_protocol_text(protocols.get(party.pk))))
    return boards


def _tables(parties: Sequence[Party]) -> str:
    numbers = sorted({party.table.number for party in parties if party.table is not None})
    if len(numbers) == 2 and numbers[1] == numbers[0] + 1:
        return f"{numbers[0]}–{numbers[1]}"
    return ", ".join(str(number) for number in numbers)


def _team(team: Any) -> SheetTeam:
    return SheetTeam(team.name, team.club, team.captain.name if team.captain else "",
                     team.country)


def signature_lines(team_match: TeamMatch, signatures: Sequence[TeamSheetSignature],
                    labels: dict[str, str], parties: Sequence[Party]) -> list[ProtocolSignature]:
    """The captains' lines (team A, team B), then the referee's: who signed and when, or who
    is to sign (the captain, else a player of the team)."""
    zone = _zone(parties[0]) if parties else None
    by_team = {s.team_id: s for s in signatures if s.team_id}
    lines = []
    for key, team in (("captain_a", team_match.team_a), ("captain_b", team_match.team_b)):
        if team is None:
            continue
        found = by_team.get(team.pk)
        if found is not None and found.player is not None:
            name = found.player.name
        else:
            name = team.captain.name if team.captain else ""
        stamp = _stamp(found.signed_at, zone) if found and zone else None
        lines.append(ProtocolSignature(labels[key], name, stamp))
    referee = next((s for s in signatures if s.role == TeamSheetSignature.Role.REFEREE), None)
    lines.append(ProtocolSignature(
        labels["referee"], user_name(referee.user) if referee else "",
        _stamp(referee.signed_at, zone) if referee and zone else None))
    return lines


def build_sheet_content(team_match: TeamMatch, result: TeamMatchResult | None = None,
                        parties: Sequence[Party] | None = None,
                        sheet: TeamSheet | None = None) -> TeamSheetData:
    """What the captains confirm of ``team_match``: everything but the signature lines."""
    tournament = team_match.round.tournament
    language = tournament.language or settings.LANGUAGE_CODE
    parties = list(parties) if parties is not None else match_parties(team_match)
    result = result or team_match_result(team_match)
    with translation.override(language):
        labels = team_sheet_labels(language)
        side_b = result.b
        score = parties_won = points = winner = ""
        if side_b is not None:
            score = f"{_number(result.a.score)} : {_number(side_b.score)}"
            parties_won = f"{result.a.parties_won} : {side_b.parties_won}"
            points = f"{result.a.points} : {side_b.points}"
        if result.decided:
            teams = {team_match.team_a_id: team_match.team_a.name}
            if team_match.team_b is not None:
                teams[team_match.team_b.pk] = team_match.team_b.name
            winner = teams.get(result.winner, "") if result.winner else labels["draw"]
        moment = next((p.started_at for p in parties if p.started_at), None) \
            or team_match.round.scheduled_start
        zone = _zone(parties[0]) if parties else None
        return TeamSheetData(
            tournament=tournament.name,
            round_number=team_match.round.number,
            date=moment.astimezone(zone).date().isoformat() if moment and zone else "",
            tables=_tables(parties),
            team_a=_team(team_match.team_a),
            team_b=_team(team_match.team_b) if team_match.team_b else SheetTeam(""),
            boards=_boards(team_match, parties),
            scoring=scoring_text(tournament.team_scoring),
            score=score, parties_won=parties_won, points=points, winner=winner,
            signatures=[],
            public_id=sheet.public_id if sheet else "",
            version=sheet.version if sheet else 0,
            labels=labels, language=language)


def with_sheet_signatures(team_match: TeamMatch, data: TeamSheetData,
                          signatures: Sequence[TeamSheetSignature],
                          parties: Sequence[Party]) -> TeamSheetData:
    """``data`` with the signature lines of ``signatures``."""
    return dataclasses.replace(
        data, signatures=signature_lines(team_match, signatures, data.labels, parties))


def content_fingerprint(data: TeamSheetData) -> str:
    """The fingerprint of what the captains confirm: the data without signatures or ids."""
    return CanonicalForm(protocol_payload(data)).fingerprint(**UNSIGNED)
