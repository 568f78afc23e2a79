"""API shapes of protocols, signatures and round print jobs."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from scoring.core.site import site_url
from scoring.models import PrintJob, Protocol, Signature


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
                  "fingerprint", "sha256", "unverified", "created_at", "signed_at",
                  "superseded_at", "signatures", "pdf_url", "verify_url"]
        extra_kwargs = {"unverified": {
            "help_text": "Set when the version was imported and its signed file did not "
                         "validate here (an unverified copy): why. Empty otherwise."}}

    def get_pdf_url(self, protocol: Protocol) -> str:
        """The API address of this version's PDF (signed file, else a draft)."""
        return absolute(self.context.get("request"), reverse("v1:protocol-pdf",
                                                             args=[protocol.public_id]))

    def get_verify_url(self, protocol: Protocol) -> str:
        """The public verification page of this version."""
        return absolute(self.context.get("request"), protocol.get_absolute_url())


class VerificationSerializer(serializers.Serializer):
    """What the verification page says about a protocol version, its stored file checked now."""

    public_id = serializers.CharField()
    short_code = serializers.CharField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Protocol.Status.choices)
    state = serializers.ChoiceField(
        choices=["authentic", "unverified", "awaiting"],
        help_text="authentic: signed, and the stored file matches its SHA-256 and its "
                  "signature validates against a certificate this installation trusts; "
                  "unverified: signed, but the file fails that check (or was imported as an "
                  "unverified copy); awaiting: not signed yet.")
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
