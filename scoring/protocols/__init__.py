"""Party protocols as PDF: rendering, blank paper protocols, round batches, PAdES signing and
verification. Plain Python (no Django): the Django layer builds ``ProtocolData`` and calls
these functions.
"""

from .data import (
    DEFAULT_LABELS,
    GAMES,
    KOZEL,
    RUSSIAN_LABELS,
    SEATS,
    ProtocolData,
    ProtocolDeal,
    ProtocolGame,
    ProtocolPenalty,
    ProtocolPlayer,
    ProtocolSeat,
    ProtocolSide,
    ProtocolSignature,
    labels_for,
    protocol_data_from_dict,
    protocol_payload,
)
from .fingerprint import (
    CanonicalForm,
    canonical_json,
    payload_fingerprint,
    protocol_fingerprint,
)
from .fonts import missing_glyphs, register_fonts
from .render import render_batch, render_blank, render_protocol
from .signing import (
    TRUSTED_DIRNAME,
    ProtocolSigner,
    SigningError,
    VerifyResult,
    ensure_signing_identity,
    get_signer,
    rotate_signing_identity,
    sha256_hex,
    trusted_in,
    verify_pdf,
)

__all__ = [
    "DEFAULT_LABELS",
    "GAMES",
    "KOZEL",
    "RUSSIAN_LABELS",
    "SEATS",
    "TRUSTED_DIRNAME",
    "CanonicalForm",
    "ProtocolData",
    "ProtocolDeal",
    "ProtocolGame",
    "ProtocolPenalty",
    "ProtocolPlayer",
    "ProtocolSeat",
    "ProtocolSide",
    "ProtocolSignature",
    "ProtocolSigner",
    "SigningError",
    "VerifyResult",
    "canonical_json",
    "ensure_signing_identity",
    "get_signer",
    "labels_for",
    "missing_glyphs",
    "payload_fingerprint",
    "protocol_data_from_dict",
    "protocol_fingerprint",
    "protocol_payload",
    "register_fonts",
    "render_batch",
    "render_blank",
    "render_protocol",
    "rotate_signing_identity",
    "sha256_hex",
    "trusted_in",
    "verify_pdf",
]
