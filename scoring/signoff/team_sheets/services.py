"""Sign-off of a team match sheet, as of a party's protocol.

When every party of the team match has finished (the match is decided), each team's captain
confirms the sheet, with his PIN on the referee's device or on his own login; the referee (or
the chief referee, an organizer) countersigns last. The countersignature renders the PDF,
signs it with the installation's key (PAdES), and keeps it with its SHA-256 and the data it
shows. The parties' protocols need not be signed first: the sheet says which are.

Who signs for a team: its captain (``Team.captain``). A team without a captain named signs by
any of its players who play in this match, so that a sheet never waits for an organizer to
name one at the table; once a captain is named, only he signs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.access import permissions
from scoring.core.errors import ServiceError
from scoring.models import Party, Player, Round, Team, TeamMatch, TeamSheet, TeamSheetSignature
from scoring.models import Signature as ProtocolSignatureRow
from scoring.party.event_log import append_event
from scoring.protocols import protocol_payload, sha256_hex
from scoring.protocols.fingerprint import CanonicalForm
from scoring.protocols.team_sheet import (
    TeamSheetData,
    render_team_sheet,
    render_team_sheets,
    team_sheet_data_from_dict,
)
from scoring.signoff.identity import installation_signer
from scoring.signoff.pins import check_pin
from scoring.signoff.team_sheets.content import (
    UNSIGNED,
    build_sheet_content,
    match_parties,
    match_players,
    with_sheet_signatures,
)
from scoring.teams.results import TeamMatchResult, team_match_result

SIGN_REASON = "Team match sheet signed off by the captains and the referee"
ROUND_REASON = "Team match sheets of a round, printed together"
TEAM_MATCH_RELATED = ("round__tournament", "team_a__captain", "team_b__captain")


@dataclass
class SheetState:
    """A team match with what its sheet needs: its parties, result, sheet and signatures."""

    team_match: TeamMatch
    parties: list[Party]
    result: TeamMatchResult
    sheet: TeamSheet | None
    signatures: list[TeamSheetSignature]

    @property
    def signed(self) -> bool:
        """Whether the sheet is countersigned and its PDF signed."""
        return self.sheet is not None and self.sheet.status == TeamSheet.Status.SIGNED

    def signature_of(self, team: Team | None) -> TeamSheetSignature | None:
        """The signature given for ``team``, if any."""
        return next((s for s in self.signatures if team is not None and s.team_id == team.pk),
                    None)

    @property
    def countersignature(self) -> TeamSheetSignature | None:
        """The referee's countersignature, if given."""
        return next((s for s in self.signatures
                     if s.role == TeamSheetSignature.Role.REFEREE), None)


def team_match_queryset() -> Any:
    """Team matches with what the sheet names of them."""
    return TeamMatch.objects.select_related(*TEAM_MATCH_RELATED)


def sheet_state(team_match: TeamMatch) -> SheetState:
    """The team match's parties, result, sheet and signatures as they stand."""
    sheet = TeamSheet.objects.filter(team_match=team_match).first()
    signatures = list(sheet.signatures.select_related("player", "user")) if sheet else []
    return SheetState(team_match, match_parties(team_match), team_match_result(team_match),
                      sheet, signatures)


def undecided_reason(state: SheetState) -> str:
    """Why the sheet cannot be made yet ("" when it can)."""
    if state.team_match.is_bye:
        return _("A bye has no team match sheet.")
    if not state.parties:
        return _("The team match has no parties yet.")
    if not state.result.decided:
        playing = [f"{party.table.number if party.table else party.pk} "
                   f"({_('board')} {party.board})"
                   for party in state.parties if party.status != Party.Status.FINISHED]
        return _("The team match sheet is made when every party of the match has finished; "
                 "still playing: tables %(tables)s.") % {"tables": ", ".join(playing)}
    return ""


def _decided(state: SheetState) -> None:
    reason = undecided_reason(state)
    if reason:
        raise ServiceError("team_match", reason)


def may_run_sheet(user: Any, state: SheetState) -> bool:
    """A referee of one of the match's parties (the chief referee, an organizer) hands the
    device to the captains and countersigns."""
    return any(permissions.can_run_sign_off(user, party) for party in state.parties)


def signers_of(state: SheetState, team: Team) -> list[Player]:
    """Who may sign for ``team``: its captain, else its players in this match."""
    if team.captain is not None:
        return [team.captain]
    return match_players(state.team_match, team.pk, state.parties)


def _team(state: SheetState, team_id: Any) -> Team:
    for team in (state.team_match.team_a, state.team_match.team_b):
        if team is not None and str(team.pk) == str(team_id):
            return team
    raise ServiceError("team", _("The team does not play in this team match."))


def _signer(state: SheetState, team: Team, player_id: Any) -> Player:
    for player in signers_of(state, team):
        if str(player.pk) == str(player_id):
            return player
    if team.captain is not None:
        raise ServiceError("player", _("Only the captain of %(team)s, %(name)s, signs for the "
                                       "team.") % {"team": team.name, "name": team.captain.name})
    raise ServiceError("player", _("Only a player of %(team)s in this match signs for the "
                                   "team.") % {"team": team.name})


@dataclass
class _Signable:
    """The sheet being signed: its content without signature lines and its fingerprint."""

    sheet: TeamSheet
    content: TeamSheetData
    form: CanonicalForm
    fingerprint: str
    signatures: list[TeamSheetSignature]


def _locked_state(team_match_id: int) -> SheetState:
    """Lock the team match row and read its state (inside a transaction)."""
    found = TeamMatch.objects.select_for_update(of=("self",)).filter(pk=team_match_id).first()
    if found is None:
        raise ServiceError("team_match", _("No such team match."))
    return sheet_state(team_match_queryset().get(pk=found.pk))


def _signable(state: SheetState) -> _Signable:
    """The open sheet with its current content; signatures given to other content are dropped
    and the version goes up (the parties changed since)."""
    _decided(state)
    sheet = state.sheet or TeamSheet.objects.create(team_match=state.team_match)
    if sheet.status == TeamSheet.Status.SIGNED:
        raise ServiceError("team_match", _("The team match sheet is already signed."))
    content = build_sheet_content(state.team_match, state.result, state.parties, sheet)
    form = CanonicalForm(protocol_payload(content))
    fingerprint = form.fingerprint(**UNSIGNED)
    signatures = state.signatures
    if any(s.content_fingerprint != fingerprint for s in signatures):
        TeamSheetSignature.objects.filter(sheet=sheet).delete()
        sheet.version += 1
        sheet.save(update_fields=["version"])
        signatures = []
        content = build_sheet_content(state.team_match, state.result, state.parties, sheet)
        form = CanonicalForm(protocol_payload(content))
    return _Signable(sheet, content, form, fingerprint, signatures)


def _log(state: SheetState, kind: str, actor: Any, data: dict[str, Any]) -> None:
    """Write the step to the event log of the match's first party."""
    if state.parties:
        append_event(state.parties[0], kind, actor=actor,
                     data={"team_match": state.team_match.pk, **data})


def sign_as_captain(team_match_id: int, *, team_id: Any, player_id: Any, actor: Any,
                    pin: str = "", address: str | None = None) -> TeamSheetSignature:
    """A team's captain confirms the sheet: with his PIN on the referee's device, or on his
    own login. Once per team and version; refused before the match is decided."""
    team_match = team_match_queryset().filter(pk=team_match_id).first()
    if team_match is None:
        raise ServiceError("team_match", _("No such team match."))
    state = sheet_state(team_match)
    team = _team(state, team_id)
    player = _signer(state, team, player_id)
    own = getattr(actor, "is_authenticated", False) and player.user_id == actor.pk
    if not (may_run_sheet(actor, state) if pin else own):
        raise PermissionDenied
    _decided(state)
    if pin:
        check_pin(player, pin, address)
    method = ProtocolSignatureRow.Method.PIN if pin else ProtocolSignatureRow.Method.LOGIN
    return _sign(team_match_id, team.pk, player.pk, actor, method)


@transaction.atomic
def _sign(team_match_id: int, team_id: int, player_id: int, actor: Any,
          method: str) -> TeamSheetSignature:
    """Write a captain's signature with the team match locked."""
    state = _locked_state(team_match_id)
    team = _team(state, team_id)
    player = _signer(state, team, player_id)
    signable = _signable(state)
    if any(s.team_id == team.pk for s in signable.signatures):
        raise ServiceError("team", _("%(team)s has already signed this sheet.")
                           % {"team": team.name})
    signature = TeamSheetSignature.objects.create(
        sheet=signable.sheet, role=TeamSheetSignature.Role.CAPTAIN, team=team, player=player,
        user=actor if getattr(actor, "is_authenticated", False) else None, method=method,
        content_fingerprint=signable.fingerprint)
    _log(state, "team_sheet_signed", actor, {"team": team.name, "player": player.name,
                                              "method": method})
    return signature


@transaction.atomic
def countersign_sheet(team_match_id: int, *, actor: Any) -> TeamSheet:
    """The referee countersigns last: render, sign (PAdES) and keep the sheet for good."""
    state = _locked_state(team_match_id)
    if not may_run_sheet(actor, state):
        raise PermissionDenied
    signable = _signable(state)
    done = {s.team_id for s in signable.signatures}
    missing = [team.name for team in (state.team_match.team_a, state.team_match.team_b)
               if team is not None and team.pk not in done]
    if missing:
        raise ServiceError("team_match", _("Still to sign: the captain of %(teams)s.")
                           % {"teams": ", ".join(missing)})
    sheet = signable.sheet
    countersignature = TeamSheetSignature.objects.create(
        sheet=sheet, role=TeamSheetSignature.Role.REFEREE, user=actor,
        method=ProtocolSignatureRow.Method.LOGIN, content_fingerprint=signable.fingerprint)
    data = with_sheet_signatures(state.team_match, signable.content,
                                 [*signable.signatures, countersignature], state.parties)
    signed = {"signatures": [protocol_payload(line) for line in data.signatures]}
    sheet.fingerprint = signable.form.fingerprint(**signed)
    pdf = installation_signer().sign(render_team_sheet(data, sheet.fingerprint),
                                     reason=SIGN_REASON)
    sheet.sha256 = sha256_hex(pdf)
    sheet.data = protocol_payload(data)
    sheet.status = TeamSheet.Status.SIGNED
    sheet.signed_at = timezone.now()
    sheet.file.save("team-sheet.pdf", ContentFile(pdf), save=False)
    sheet.save(update_fields=["fingerprint", "sha256", "data", "status", "signed_at", "file"])
    _log(state, "team_sheet_countersigned", actor, {"version": sheet.version,
                                                     "sha256": sheet.sha256})
    return sheet


# -- files ---------------------------------------------------------------------------------


def sheet_pdf(state: SheetState) -> tuple[bytes, bool]:
    """Return ``(pdf, signed)``: the signed file, or a draft rendered now; refused (a service
    error naming ``team_match``) before the match is decided."""
    if state.signed and state.sheet is not None and state.sheet.file:
        with state.sheet.file.open("rb") as handle:
            return handle.read(), True
    _decided(state)
    content = build_sheet_content(state.team_match, state.result, state.parties, state.sheet)
    data = with_sheet_signatures(state.team_match, content, state.signatures, state.parties)
    return render_team_sheet(data, draft=True), False


def sheet_download(state: SheetState) -> tuple[bytes, str]:
    """Return ``(pdf, filename)``, e.g. ``team-match-r3-t5-v1.pdf`` (``-draft`` if unsigned)."""
    pdf, signed = sheet_pdf(state)
    team_match = state.team_match
    table = team_match.first_table or team_match.pk
    version = f"-v{state.sheet.version}" if state.sheet is not None else ""
    return pdf, (f"team-match-r{team_match.round.number}-t{table}{version}"
                 f"{'' if signed else '-draft'}.pdf")


def round_sheets_pdf(rnd: Round) -> tuple[bytes, int]:
    """The round's signed team match sheets in one fresh PDF, signed once as a whole (drawn
    from the data each was signed with), and how many team matches it leaves out."""
    matches = TeamMatch.objects.filter(round=rnd, team_b__isnull=False)
    sheets = list(TeamSheet.objects.filter(team_match__in=matches, status=TeamSheet.Status.SIGNED)
                  .select_related("team_match").order_by("team_match__first_table", "pk"))
    if not sheets:
        raise ServiceError("round", _("Nothing to print: no signed team match sheet in this "
                                      "round yet."))
    items = [(team_sheet_data_from_dict(sheet.data or {}), sheet.fingerprint) for sheet in sheets]
    pdf = installation_signer().sign(render_team_sheets(items), reason=ROUND_REASON)
    return pdf, matches.count() - len(sheets)
