"""API of team match sheets under /api/v1/team-match-sheets/{team match id}/: the sheet's state
and its PDF (the signed file, or a draft once the match is decided; 400 naming
``team_match`` before)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import DefaultRouter

from scoring.access import permissions
from scoring.access.query import KnownQueryMixin
from scoring.models import TeamMatch, TeamSheet
from scoring.signoff.api import PDF_RESPONSE, pdf_action
from scoring.signoff.serializers import absolute
from scoring.signoff.team_sheets import services
from scoring.signoff.views import pdf_response


class TeamSheetSignatureSerializer(serializers.Serializer):
    """A captain's signature for his team, or the referee's countersignature."""

    role = serializers.ChoiceField(choices=["captain", "referee"])
    team = serializers.IntegerField(allow_null=True, help_text="The team signed for (captains).")
    player = serializers.IntegerField(allow_null=True, help_text="The captain who signed.")
    name = serializers.CharField()
    method = serializers.ChoiceField(choices=["login", "pin"])
    signed_at = serializers.DateTimeField()


class TeamSheetSerializer(serializers.Serializer):
    """A team match's sheet: whether it can be made, its signatures, the signed file's hash."""

    team_match = serializers.IntegerField()
    decided = serializers.BooleanField(help_text="Every party of the match has finished.")
    status = serializers.ChoiceField(
        choices=["undecided", *TeamSheet.Status.values],
        help_text="undecided (no sheet yet), awaiting (signatures) or signed.")
    version = serializers.IntegerField(allow_null=True)
    public_id = serializers.CharField(allow_blank=True)
    sha256 = serializers.CharField(allow_blank=True, help_text="The signed file's SHA-256.")
    signed_at = serializers.DateTimeField(allow_null=True)
    signatures = TeamSheetSignatureSerializer(many=True)
    pdf_url = serializers.URLField()


def sheet_data(state: services.SheetState, request: Request) -> dict[str, Any]:
    """The sheet's state as the API answers it."""
    sheet = state.sheet
    decided = not services.undecided_reason(state)
    return {
        "team_match": state.team_match.pk,
        "decided": decided,
        "status": sheet.status if sheet else ("awaiting" if decided else "undecided"),
        "version": sheet.version if sheet else None,
        "public_id": sheet.public_id if sheet else "",
        "sha256": sheet.sha256 if sheet else "",
        "signed_at": sheet.signed_at if sheet else None,
        "signatures": [{
            "role": s.role, "team": s.team_id, "player": s.player_id,
            "name": s.player.name if s.player else (s.user.get_full_name() or s.user.username
                                                    if s.user else ""),
            "method": s.method, "signed_at": s.signed_at} for s in state.signatures],
        "pdf_url": absolute(request, reverse("v1:team-match-sheet-pdf",
                                             args=[state.team_match.pk])),
    }


class TeamSheetViewSet(KnownQueryMixin, viewsets.ViewSet):
    """A team match's sheet (looked up by the team match's id): its state and PDF."""

    def _state(self, pk: str | None) -> services.SheetState:
        team_match: TeamMatch | None = (
            services.team_match_queryset().filter(pk=pk).first() if pk is not None else None)
        if team_match is None or not permissions.can_view(self.request.user,
                                                          team_match.round.tournament):
            raise Http404
        return services.sheet_state(team_match)

    @extend_schema(responses=TeamSheetSerializer)
    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        """The sheet's state: decided, awaiting signatures or signed, and its signatures."""
        return Response(TeamSheetSerializer(sheet_data(self._state(pk), request)).data)

    @extend_schema(responses=PDF_RESPONSE)
    @pdf_action
    def pdf(self, request: Request, pk: str | None = None) -> HttpResponse:
        """The sheet's PDF: the signed file, else a draft; 400 naming ``team_match`` before
        every party of the match has finished."""
        return pdf_response(*services.sheet_download(self._state(pk)))


router = DefaultRouter()
router.register("team-match-sheets", TeamSheetViewSet, basename="team-match-sheet")
