"""API shapes of protocols, signatures and round print jobs."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from scoring.core.site import site_url
from scoring.models import PrintJob, Protocol, Signature
from scoring.signoff.snapshot import PART_KEYS, signed_summary


class SignatureSerializer(serializers.ModelSerializer):
    """A player's signature or refusal, or the referee's countersignature."""

    player_name = serializers.CharField(source="player.name", read_only=True, default="")

    class Meta:
        model = Signature
        fields = ["id", "role", "player", "player_name", "method", "refused", "reason",
                  "signed_at"]


class ProtocolSerializer(serializers.ModelSerializer):
    """One version of a party's protocol, with its signatures and links."""

    signatures = SignatureSerializer(many=True, read_only=True)
    pdf_url = serializers.SerializerMethodField()
    verify_url = serializers.SerializerMethodField()

    class Meta:
        model = Protocol
        fields = ["public_id", "party", "version", "status", "short_code", "reason",
                  "fingerprint", "sha256", "unverified", "unverified_parts", "created_at",
                  "signed_at", "superseded_at", "signatures", "pdf_url", "verify_url"]
        extra_kwargs = {
            "unverified": {
                "help_text": "Set when the version was imported and its signed file did not "
                             "validate here, the data kept with it is not what the file "
                             "signed, or the imported records differ from it (`records`): an "
                             "unverified copy, and why. Empty otherwise."},
        }

    unverified_parts = serializers.ListField(
        child=serializers.ChoiceField(choices=PART_KEYS), read_only=True,
        help_text="With `unverified` = `records`: the parts of the protocol in which the "
                  "imported records differ from what was signed. Empty otherwise.")

    def get_pdf_url(self, protocol: Protocol) -> str:
        """The API address of this version's PDF (signed file, else a draft)."""
        return absolute(self.context.get("request"), reverse("v1:protocol-pdf",
                                                             args=[protocol.public_id]))

    def get_verify_url(self, protocol: Protocol) -> str:
        """The public verification page of this version."""
        return absolute(self.context.get("request"), protocol.get_absolute_url())


class SignedPlayerSerializer(serializers.Serializer):
    """A player of a side as the signed protocol names him."""

    seat = serializers.CharField()
    name = serializers.CharField()


class SignedSideSerializer(serializers.Serializer):
    """A side (pair, or player) as the signed protocol names it."""

    side = serializers.CharField()
    name = serializers.CharField()
    players = SignedPlayerSerializer(many=True)


class SignedSeatSerializer(serializers.Serializer):
    """A player's line where each scores for himself, as signed."""

    seat = serializers.CharField()
    name = serializers.CharField()
    points = serializers.IntegerField(allow_null=True)


class SignedProtocolSerializer(serializers.Serializer):
    """What a version signed, from the data kept with its signed file (never live records)."""

    tournament = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    table = serializers.CharField(allow_blank=True)
    date = serializers.CharField(allow_blank=True)
    version = serializers.IntegerField(allow_null=True)
    sides = SignedSideSerializer(many=True)
    seats = SignedSeatSerializer(many=True, help_text="Games where each player scores for "
                                                      "himself; empty otherwise.")
    result = serializers.CharField(allow_blank=True)
    match_points = serializers.CharField(allow_blank=True)
    game_wins = serializers.CharField(allow_blank=True)
    winner_name = serializers.CharField(allow_blank=True, help_text="The winner as printed.")
    goat_name = serializers.CharField(allow_blank=True, help_text="Kozel's Goat as printed.")
    referee = serializers.CharField(allow_blank=True)
    countersigned_at = serializers.CharField(
        allow_blank=True, help_text="When the referee countersigned, as printed (the "
                                    "tournament's time zone).")


class VerificationSerializer(serializers.Serializer):
    """What the verification page says about a protocol version, its stored file checked now."""

    public_id = serializers.CharField()
    short_code = serializers.CharField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Protocol.Status.choices)
    state = serializers.ChoiceField(
        choices=["authentic", "unverified", "awaiting"],
        help_text="authentic: signed, and the stored file matches its SHA-256 and its "
                  "signature validates against a certificate this installation trusts, and the "
                  "data kept with it is what it signed; unverified: signed, but it fails that "
                  "check, or it was imported and the imported records differ from what was "
                  "signed (an unverified copy); awaiting: not signed yet.")
    authentic = serializers.BooleanField()
    problem = serializers.ChoiceField(
        choices=[("", "none"), *Protocol.Problem.choices], allow_blank=True,
        help_text="Why it is not authentic (empty when it is, or while awaiting signatures).")
    reason = serializers.CharField(allow_blank=True,
                                   help_text="The problem in the request's language.")
    latest_version = serializers.IntegerField(help_text="The party's newest version.")
    sha256 = serializers.CharField(allow_blank=True, help_text="The signed file's SHA-256.")
    fingerprint = serializers.CharField(allow_blank=True,
                                        help_text="The data SHA-256 printed on the protocol.")
    signed_at = serializers.DateTimeField(allow_null=True)
    verify_url = serializers.CharField(help_text="The public verification page.")
    signed = SignedProtocolSerializer(
        allow_null=True, help_text="What this version signed (names, result, round, table), "
        "from the data kept with its signed file and confirmed by the data SHA-256 that file "
        "carries; null while awaiting signatures or when the file or its data fails the check.")
    differences = serializers.ListField(
        child=serializers.ChoiceField(choices=PART_KEYS),
        help_text="The parts of the protocol in which this installation's records differ from "
                  "`signed`: changed after signing (with `state` authentic and `note`), or an "
                  "import's records (with `problem` records).")
    note = serializers.CharField(allow_blank=True, help_text="An authentic version whose "
                                 "records were changed after signing: which parts, in the "
                                 "request's language. Empty otherwise.")


def verification_data(verification: Any, request: Any = None) -> dict[str, Any]:
    """The ``VerificationSerializer`` payload of a looked-up protocol version."""
    protocol = verification.protocol
    latest = verification.latest or protocol
    return {
        "public_id": protocol.public_id, "short_code": protocol.short_code,
        "version": protocol.version, "status": protocol.status,
        "state": verification.state, "authentic": verification.authentic,
        "problem": verification.problem, "reason": verification.reason,
        "latest_version": latest.version, "sha256": protocol.sha256,
        "fingerprint": protocol.fingerprint, "signed_at": protocol.signed_at,
        "verify_url": absolute(request, protocol.get_absolute_url()),
        "signed": signed_summary(verification.signed),
        "differences": list(verification.differences), "note": verification.note,
    }


class PartyProtocolSerializer(serializers.Serializer):
    """A party's protocol: the current version and every version before it."""

    party = serializers.IntegerField()
    party_version = serializers.IntegerField(help_text="The party's version (for countersign).")
    locked = serializers.BooleanField(help_text="Signed: changes need the chief referee.")
    current = ProtocolSerializer(allow_null=True)
    versions = ProtocolSerializer(many=True)
    pdf_url = serializers.CharField(help_text="The current PDF: signed, else an unsigned draft.")


class SignInput(serializers.Serializer):
    """A player signs: on his own login, or with his PIN on the referee's table device."""

    player = serializers.IntegerField()
    pin = serializers.CharField(required=False, allow_blank=True, max_length=8,
                                help_text="The player's PIN when the referee's login holds "
                                          "the table device.")


class RefuseInput(serializers.Serializer):
    """The referee records a player's refusal to sign."""

    player = serializers.IntegerField()
    reason = serializers.CharField(max_length=300)


class CountersignInput(serializers.Serializer):
    """The referee countersigns last; ``version`` is the party's version read before."""

    version = serializers.IntegerField(required=False, allow_null=True)


class PinInput(serializers.Serializer):
    """A player's signing PIN (4 to 8 digits)."""

    player = serializers.IntegerField()
    pin = serializers.CharField(max_length=8)
    current = serializers.CharField(
        max_length=128, required=False, default="", allow_blank=True, write_only=True,
        help_text="The player changing his own PIN: the old PIN or his password.")


class PrintJobInput(serializers.Serializer):
    """Print a round: blank protocols before it, or every signed protocol after it."""

    round = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=PrintJob.Kind.choices)


class PrintJobSerializer(serializers.ModelSerializer):
    """A round print's progress, and its PDF's address when ready."""

    percent = serializers.IntegerField(read_only=True)
    pdf_url = serializers.SerializerMethodField()

    class Meta:
        model = PrintJob
        fields = ["id", "round", "kind", "status", "done", "total", "percent", "skipped",
                  "sha256", "created_at", "finished_at", "expires_at", "pdf_url"]

    def get_pdf_url(self, job: PrintJob) -> str | None:
        """The API address of the PDF once the job is done."""
        if job.status != PrintJob.Status.DONE:
            return None
        return absolute(self.context.get("request"), reverse("v1:print-job-pdf", args=[job.pk]))


def absolute(request: Any, path: str) -> str:
    """A path of the site as an absolute URL (as the request reached it; else ``site_url()``)."""
    if request is not None:
        return request.build_absolute_uri(path)
    return site_url() + path


def party_protocol_data(party: Any, current: Protocol | None,
                        versions: list[Protocol], locked: bool, request: Any = None
                        ) -> dict[str, Any]:
    """The ``PartyProtocolSerializer`` payload of a party."""
    return {
        "party": party.pk,
        "party_version": party.version,
        "locked": locked,
        "current": current,
        "versions": versions,
        "pdf_url": absolute(request, reverse("v1:party-protocol-pdf", args=[party.pk])),
    }
