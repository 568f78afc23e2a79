"""API of protocols under /api/: a party's protocol and its versions, sign-off, round prints.

Unsafe requests may carry an ``Idempotency-Key`` (a retry gets the stored response); refused
requests answer 400 ``{field: [message]}``, a stale party version 409, a foreign party 403.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar, cast

from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import DefaultRouter

from scoring.access import permissions
from scoring.access.idempotency import IdempotentMixin
from scoring.access.permissions import visible_tournaments
from scoring.access.query import KnownQueryMixin
from scoring.models import PARTY_RELATED, Party, PrintJob, Protocol
from scoring.party.protocol_lock import current_protocol
from scoring.people import lockouts
from scoring.signoff import pins, printing
from scoring.signoff import services as protocol_services
from scoring.signoff.serializers import (
    CountersignInput,
    PartyProtocolSerializer,
    PinInput,
    PrintJobInput,
    PrintJobSerializer,
    ProtocolSerializer,
    RefuseInput,
    SignatureSerializer,
    SignInput,
    VerificationSerializer,
    party_protocol_data,
    verification_data,
)
from scoring.signoff.verification import look_up
from scoring.signoff.views import pdf_response

if TYPE_CHECKING:
    from rest_framework.decorators import ViewSetAction

PDF = "application/pdf"
OCTET_STREAM = "application/octet-stream"
PDF_RESPONSE = {(200, PDF): OpenApiResponse(OpenApiTypes.BINARY),
                (200, OCTET_STREAM): OpenApiResponse(OpenApiTypes.BINARY)}
"""A PDF download: the PDF, labelled as a generic binary for a client that asks so."""


def _quality(accept: str, media_type: str) -> float:
    """How much an Accept header wants one media type named in it (0 when not named)."""
    for item in accept.split(","):
        name, *params = (part.strip() for part in item.split(";"))
        if name.lower() == media_type:
            for param in params:
                key, _eq, value = param.partition("=")
                if key.strip() == "q":
                    try:
                        return float(value)
                    except ValueError:
                        return 0.0
            return 1.0
    return 0.0


def labelled(response: HttpResponse, request: Request) -> HttpResponse:
    """The PDF as ``application/octet-stream`` when the client's Accept prefers that type to
    ``application/pdf`` (generated clients read a binary answer so); else as it is."""
    accept = request.headers.get("Accept") or ""
    if _quality(accept, OCTET_STREAM) > _quality(accept, PDF):
        response["Content-Type"] = OCTET_STREAM
    return response


class PdfNegotiation(DefaultContentNegotiation):
    """A PDF endpoint answers a client that accepts only ``application/pdf`` (its errors stay
    JSON) instead of refusing it with 406."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        """DRF's choice, or the first renderer when the client asked for the PDF only."""
        offered = list(renderers)
        try:
            return super().select_renderer(request, offered, format_suffix)
        except NotAcceptable:
            return offered[0], offered[0].media_type


_PdfView = TypeVar("_PdfView", bound=Callable[..., HttpResponse])


def pdf_action(view: _PdfView) -> ViewSetAction[_PdfView]:
    """The action of every PDF download: a GET on one object, negotiated by PdfNegotiation,
    its answer labelled as the client asks (``labelled``)."""

    @functools.wraps(view)
    def download(self: object, request: Request, *args: object, **kwargs: object) -> HttpResponse:
        return labelled(view(self, request, *args, **kwargs), request)

    return action(detail=True, methods=["get"],
                  content_negotiation_class=PdfNegotiation)(cast(_PdfView, download))


class PartyProtocolViewSet(KnownQueryMixin, IdempotentMixin, viewsets.ViewSet):
    """A party's protocol (looked up by the party's id): state, sign-off actions, PDF."""


    def _party(self, pk: str | None) -> Party:
        if pk is None:
            raise Http404
        party = Party.objects.select_related(*PARTY_RELATED).filter(pk=pk).first()
        if party is None or not permissions.can_view(self.request.user,
                                                     party.round.tournament):
            raise Http404
        return party

    def _state(self, party: Party) -> Response:
        versions = list(protocol_services.protocol_queryset().filter(party=party)
                        .order_by("-version"))
        current = next((v for v in versions if v.status != Protocol.Status.SUPERSEDED), None)
        locked = current is not None and current.status == Protocol.Status.SIGNED
        party.refresh_from_db(fields=["version"])
        return Response(PartyProtocolSerializer(
            party_protocol_data(party, current, versions, locked, self.request),
            context={"request": self.request}).data)

    @extend_schema(responses=PartyProtocolSerializer)
    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        """The party's current protocol version, its signatures and all versions."""
        return self._state(self._party(pk))

    @extend_schema(request=SignInput, responses={201: SignatureSerializer, 429: OpenApiResponse(
        OpenApiTypes.OBJECT, description="The player's PIN is locked after repeated wrong "
        "PINs: {pin: [message with the minutes left]}.")})
    @action(detail=True, methods=["post"])
    def sign(self, request: Request, pk: str | None = None) -> Response:
        """A player of this party signs (own login, or PIN on the referee's device); once."""
        party = self._party(pk)
        data = SignInput(data=request.data)
        data.is_valid(raise_exception=True)
        signature = protocol_services.sign_as_player(
            party.pk, player_id=data.validated_data["player"], actor=request.user,
            pin=data.validated_data.get("pin", ""), address=lockouts.client_address(request))
        return Response(SignatureSerializer(signature).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=RefuseInput, responses={201: SignatureSerializer})
    @action(detail=True, methods=["post"])
    def refuse(self, request: Request, pk: str | None = None) -> Response:
        """The referee records that a player refuses to sign, with the reason."""
        party = self._party(pk)
        data = RefuseInput(data=request.data)
        data.is_valid(raise_exception=True)
        signature = protocol_services.record_refusal(
            party.pk, player_id=data.validated_data["player"],
            reason=data.validated_data["reason"], actor=request.user)
        return Response(SignatureSerializer(signature).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=CountersignInput, responses={200: ProtocolSerializer})
    @action(detail=True, methods=["post"])
    def countersign(self, request: Request, pk: str | None = None) -> Response:
        """The referee countersigns last: the PDF is signed and the party locked."""
        party = self._party(pk)
        data = CountersignInput(data=request.data)
        data.is_valid(raise_exception=True)
        protocol = protocol_services.countersign(
            party.pk, actor=request.user, expected_version=data.validated_data.get("version"))
        fresh = protocol_services.protocol_queryset().get(pk=protocol.pk)
        return Response(ProtocolSerializer(fresh, context={"request": request}).data)

    @extend_schema(responses=PDF_RESPONSE)
    @pdf_action
    def pdf(self, request: Request, pk: str | None = None) -> HttpResponse:
        """The current protocol PDF: the signed file, or an unsigned draft rendered now."""
        party = self._party(pk)
        protocol = current_protocol(party)
        return pdf_response(*protocol_services.protocol_download(party, protocol))


class ProtocolViewSet(KnownQueryMixin, viewsets.ReadOnlyModelViewSet):
    """Protocol versions of visible tournaments, by public id; filter with ``?party=``."""

    serializer_class = ProtocolSerializer
    lookup_field = "public_id"
    lookup_value_converter = "slug"
    filterset_fields = ["party", "status"]

    def get_queryset(self) -> QuerySet[Protocol]:
        """Versions of tournaments the user may see."""
        return protocol_services.protocol_queryset().filter(
            party__round__tournament__in=visible_tournaments(self.request.user)
        ).order_by("party_id", "version")

    @extend_schema(responses=PDF_RESPONSE)
    @pdf_action
    def pdf(self, request: Request, public_id: str | None = None) -> HttpResponse:
        """This version's PDF: its signed file, or a draft while it awaits signatures."""
        protocol = self.get_object()
        return pdf_response(*protocol_services.protocol_download(protocol.party, protocol))

    @extend_schema(responses=VerificationSerializer)
    @action(detail=True, methods=["get"])
    def verification(self, request: Request, public_id: str | None = None) -> Response:
        """As the verification page: authentic only if the stored file's SHA-256 matches, its
        PAdES signature validates against a certificate this installation trusts and the data
        kept with it is what it signed; ``signed`` is that data, never the live records."""
        protocol = self.get_object()
        checked = look_up(public_id=protocol.public_id)
        return Response(VerificationSerializer(verification_data(checked, request)).data)


class PrintJobViewSet(KnownQueryMixin, IdempotentMixin, mixins.CreateModelMixin,
                      mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Round prints: start one (or get the one with the same input) and poll it."""

    serializer_class = PrintJobSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self) -> QuerySet[PrintJob]:
        """Print jobs of tournaments the user may print."""
        return PrintJob.objects.select_related("round__tournament")

    def get_object(self) -> PrintJob:
        """A job of a tournament the user prints (404 otherwise)."""
        job = get_object_or_404(self.get_queryset(), pk=self.kwargs["pk"])
        if not permissions.can_print_round(self.request.user, job.round.tournament):
            raise Http404
        return job

    @extend_schema(request=PrintJobInput, responses={202: PrintJobSerializer})
    def create(self, request: Request, *args: object, **kwargs: object) -> Response:
        """Queue a round print; the same input as a queued, running or ready one reuses it."""
        data = PrintJobInput(data=request.data)
        data.is_valid(raise_exception=True)
        job = printing.request_print_job(
            data.validated_data["round"], data.validated_data["kind"], actor=request.user)
        job.refresh_from_db()
        return Response(PrintJobSerializer(job, context={"request": request}).data,
                        status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses=PDF_RESPONSE)
    @pdf_action
    def pdf(self, request: Request, pk: str | None = None) -> HttpResponse:
        """The finished print's PDF (404 until it is ready)."""
        job = self.get_object()
        if job.status != PrintJob.Status.DONE or not job.file:
            raise Http404
        with job.file.open("rb") as handle:
            return pdf_response(handle.read(), f"round-{job.round.number}-{job.kind}.pdf")


class SigningPinViewSet(KnownQueryMixin, IdempotentMixin, viewsets.ViewSet):
    """A player's signing PIN for the table device (the player himself, or an organizer)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=PinInput, responses={204: None})
    def create(self, request: Request) -> Response:
        """Set the PIN (stored hashed)."""
        data = PinInput(data=request.data)
        data.is_valid(raise_exception=True)
        pins.set_signing_pin(
            data.validated_data["player"], data.validated_data["pin"], actor=request.user,
            current=data.validated_data["current"])
        return Response(status=status.HTTP_204_NO_CONTENT)


router = DefaultRouter()
router.register("party-protocols", PartyProtocolViewSet, basename="party-protocol")
router.register("protocols", ProtocolViewSet, basename="protocol")
router.register("print-jobs", PrintJobViewSet, basename="print-job")
router.register("signing-pins", SigningPinViewSet, basename="signing-pin")

urlpatterns = router.urls
