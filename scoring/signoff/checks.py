"""Whether a protocol file is authentic: its SHA-256 is the one recorded, its PAdES signature
validates against a certificate this installation trusts, it names the protocol it is, and the
signed data kept with it is the data it signed (the data fingerprint it carries).

The verification page, its API and the tournament import all ask here. A validation (~15 ms
with pyHanko) is kept per process for each file hash and set of trusted certificates, so a
QR code scanned again costs only the file's hash.
"""

from __future__ import annotations

import threading

from scoring.models import Protocol
from scoring.protocols import VerifyResult, payload_fingerprint, sha256_hex, verify_pdf
from scoring.signoff.identity import trusted_certificates

Problem = Protocol.Problem
CACHE_SIZE = 4096

_results: dict[tuple[str, tuple], VerifyResult] = {}
_lock = threading.Lock()


def _trust_key(paths: list) -> tuple:
    """The trusted certificates as a cache key: a rotation or a new file changes it."""
    key = []
    for path in paths:
        try:
            key.append((str(path), path.stat().st_mtime_ns))
        except OSError:
            key.append((str(path), None))
    return tuple(key)


def validate(pdf: bytes, digest: str | None = None) -> VerifyResult:
    """Validate ``pdf``'s signature against the trusted certificates (cached per file hash)."""
    digest = digest or sha256_hex(pdf)
    trusted = trusted_certificates()
    key = (digest, _trust_key(trusted))
    result = _results.get(key)
    if result is None:
        result = verify_pdf(pdf, trusted)
        with _lock:
            if len(_results) >= CACHE_SIZE:
                _results.clear()
            _results[key] = result
    return result


def forget_validations() -> None:
    """Drop the validations this process keeps: the next ``validate`` of a file runs anew."""
    with _lock:
        _results.clear()


def signature_problem(result: VerifyResult) -> str:
    """Why a validated file is not authentic (a ``Protocol.Problem``), or "" when it is."""
    if result.error is not None:
        return Problem.UNSIGNED
    if not (result.intact and result.valid) or result.modified or not result.total_document:
        return Problem.MODIFIED
    if not result.trusted:
        return Problem.UNTRUSTED
    return ""


def pdf_problem(pdf: bytes | None, *, sha256: str, public_id: str) -> str:
    """Why ``pdf`` is not the authentic signed file of protocol ``public_id`` ("" if it is)."""
    if pdf is None:
        return Problem.MISSING
    digest = sha256_hex(pdf)
    if digest != sha256:
        return Problem.ALTERED
    result = validate(pdf, digest)
    problem = signature_problem(result)
    if not problem and result.public_id and result.public_id != public_id:
        return Problem.OTHER
    return problem


def read_stored(protocol: Protocol) -> bytes | None:
    """The stored signed file of a protocol version, or None when it is gone."""
    if not protocol.file:
        return None
    try:
        with protocol.file.open("rb") as handle:
            return handle.read()
    except OSError:
        return None


def signed_data_problem(protocol: Protocol, signed_fingerprint: str | None) -> str:
    """``DATA`` when the data kept with a signed version is not what its file signed, else "".

    The file's data fingerprint (``signed_fingerprint``, from its validated signature), the
    recorded one and that of the kept snapshot must be one: only then is the snapshot what
    the verification page may show as signed.
    """
    kept = payload_fingerprint(protocol.data) if protocol.data else ""
    if not kept or kept != protocol.fingerprint or kept != signed_fingerprint:
        return Problem.DATA
    return ""


def file_problem(protocol: Protocol) -> str:
    """Why a version's stored file is not its authentic signed file, checked now ("" if it is).

    The import sets an imported version's ``unverified`` flag from this: a version keeps its
    signed status only if its file validates against a certificate this installation trusts
    (whatever the file said about it elsewhere) and the signed data it carries is the file's.
    Unsigned versions: "".
    """
    if not protocol.sha256:
        return ""
    pdf = read_stored(protocol)
    problem = pdf_problem(pdf, sha256=protocol.sha256, public_id=protocol.public_id)
    if problem or pdf is None:
        return problem
    return signed_data_problem(protocol, validate(pdf, protocol.sha256).fingerprint)


def _kept_verdict(protocol: Protocol) -> str:
    """The verdict an import stored that no check now can lift ("" or ``RECORDS``: none)."""
    return "" if protocol.unverified == Problem.RECORDS else protocol.unverified


def stored_problem(protocol: Protocol) -> str:
    """Why a signed version is not authentic here ("" when it is; unsigned versions: "").

    An unverified copy (flagged on import) stays one; otherwise the stored file is checked
    now: its SHA-256 against the recorded one, its signature against the trusted certificates,
    the kept signed data against the fingerprint it carries. A copy whose imported records
    differ from what was signed (``RECORDS``) says first what is wrong with its file, if any.
    """
    return _kept_verdict(protocol) or file_problem(protocol) or protocol.unverified


def uploaded_problem(protocol: Protocol, result: VerifyResult) -> str:
    """``stored_problem`` of a version whose very file was uploaded and validated (``result``)."""
    return (_kept_verdict(protocol) or signature_problem(result)
            or signed_data_problem(protocol, result.fingerprint) or protocol.unverified)


def problem_text(problem: str) -> str:
    """The visitor's-language sentence for a ``Protocol.Problem`` ("" for none)."""
    return str(Problem(problem).label) if problem else ""
