"""What the verification page and its API say of a protocol version or of an uploaded file.

A version is authentic when its stored file is the signed file (``scoring.signoff.checks``)
and the data kept with it is what the file signed. The page shows that signed data
(``scoring.signoff.snapshot``), never the live records: where these say otherwise it names the
parts, as a note (changed here after signing) or as the reason of an unverified copy (an
import whose records are not what was signed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from scoring.models import PrintJob, Protocol, TeamSheet
from scoring.party.protocol_lock import normalise_short_code
from scoring.protocols import VerifyResult, sha256_hex
from scoring.signoff import checks as protocol_checks
from scoring.signoff import snapshot
from scoring.signoff.services import protocol_queryset

#: An uploaded file that is validly signed, but is no file this installation issued.
UNKNOWN_FILE = "unknown"


@dataclass(frozen=True)
class Verification:
    """What the verification page says about a protocol or an uploaded file.

    ``problem`` is why it is not authentic: a ``Protocol.Problem`` (the stored or uploaded
    file failed its check, its kept data is not what it signed, or an import's records differ
    from it) or ``UNKNOWN_FILE``; empty when it is authentic.
    """

    protocol: Protocol | None = None
    latest: Protocol | None = None
    result: VerifyResult | None = None
    print_job: PrintJob | None = None
    team_sheet: TeamSheet | None = None
    """The signed team match sheet an uploaded file is (by its SHA-256), if it is one."""
    file_matches: bool = False
    problem: str = ""
    uploaded_sha256: str = ""
    """The SHA-256 of the file the visitor uploaded (empty for a code or QR look-up)."""
    signed: dict[str, Any] | None = None
    """What the version signed (its kept data, confirmed by the signed file's data
    fingerprint); None while it awaits signatures or when its file or data fails the check."""
    differences: tuple[str, ...] = ()
    """The parts (``snapshot.PARTS``) in which the records differ from ``signed``."""

    @property
    def authentic(self) -> bool:
        """A file: validly signed here and known; a looked-up protocol: signed, file checked."""
        if self.result is not None:
            return not self.problem
        return self.protocol is not None and self.protocol.is_signed and not self.problem

    @property
    def state(self) -> str:
        """``authentic``, ``unverified`` (a copy that fails its check) or ``awaiting``."""
        if self.authentic:
            return "authentic"
        if self.result is None and self.protocol is not None and not self.protocol.is_signed:
            return "awaiting"
        return "unverified"

    @property
    def reason(self) -> str:
        """Why it is not authentic, in the visitor's language ("" when it is)."""
        if self.problem == UNKNOWN_FILE:
            return _("The signature is valid, but this installation never issued this file.")
        text = protocol_checks.problem_text(self.problem)
        if self.problem == Protocol.Problem.RECORDS and self.differences:
            text = _("%(problem)s They differ in: %(parts)s.") % {
                "problem": text, "parts": snapshot.parts_text(self.differences)}
        return text

    @property
    def note(self) -> str:
        """For an authentic version whose records were changed after signing: which parts."""
        return snapshot.changed_note(self.differences) if self.authentic else ""

    @property
    def newer(self) -> Protocol | None:
        """The party's latest version, when it is newer than this one."""
        if self.protocol and self.latest and self.latest.version > self.protocol.version:
            return self.latest
        return None


def _as_signed(protocol: Protocol | None, problem: str) -> dict[str, Any]:
    """``signed`` and ``differences`` of a version with ``problem``.

    The kept data is shown only when the file confirms it (no problem, or only the import's
    records verdict); the current version's records are compared with it now, a superseded
    one's not (its amendment changed them).
    """
    if protocol is None or not protocol.is_signed:
        return {}
    if problem == Protocol.Problem.RECORDS:
        return {"signed": protocol.data, "differences": tuple(protocol.unverified_parts or ())}
    if problem:
        return {}
    differences: list[str] = []
    if protocol.status == Protocol.Status.SIGNED:
        differences = snapshot.records_differ(protocol)
    return {"signed": protocol.data, "differences": tuple(differences)}


def _with_latest(protocol: Protocol | None, **fields: Any) -> Verification:
    latest = None
    if protocol is not None:
        latest = Protocol.objects.filter(party_id=protocol.party_id).order_by("-version").first()
    return Verification(protocol=protocol, latest=latest, **fields)


def look_up(public_id: str = "", short_code: str = "") -> Verification:
    """A protocol version by its public id (the QR code) or its short code (typed in).

    A signed version's stored file is checked (SHA-256, signature, the kept data's
    fingerprint) before it is called authentic.
    """
    protocol = None
    if public_id:
        protocol = protocol_queryset().filter(public_id=public_id).first()
    elif short_code:
        protocol = protocol_queryset().filter(short_code=normalise_short_code(short_code)).first()
    problem = protocol_checks.stored_problem(protocol) if protocol is not None else ""
    return _with_latest(protocol, problem=problem, **_as_signed(protocol, problem))


def verify_upload(pdf: bytes) -> Verification:
    """Validate an uploaded PDF's signature and find the signed file it is (by SHA-256)."""
    digest = sha256_hex(pdf)
    result = protocol_checks.validate(pdf, digest)
    problem = protocol_checks.signature_problem(result)
    protocol = protocol_queryset().filter(sha256=digest).first()
    if protocol is not None:
        problem = protocol_checks.uploaded_problem(protocol, result)
        return _with_latest(protocol, result=result, file_matches=True, problem=problem,
                            uploaded_sha256=digest, **_as_signed(protocol, problem))
    job = PrintJob.objects.select_related("round__tournament").filter(sha256=digest).first()
    if job is not None:
        return Verification(result=result, print_job=job, problem=problem,
                            uploaded_sha256=digest)
    sheet = TeamSheet.objects.select_related(
        "team_match__round__tournament", "team_match__team_a", "team_match__team_b",
    ).filter(sha256=digest).first()
    if sheet is not None:
        return Verification(result=result, team_sheet=sheet, problem=problem,
                            uploaded_sha256=digest)
    claimed = None
    if result.public_id:  # the file names a protocol, but it is not that protocol's file
        claimed = protocol_queryset().filter(public_id=result.public_id).first()
    described = _as_signed(claimed, protocol_checks.stored_problem(claimed)) if claimed else {}
    return _with_latest(claimed, result=result, file_matches=False,
                        problem=problem or UNKNOWN_FILE, uploaded_sha256=digest, **described)
