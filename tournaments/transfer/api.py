"""API of the roster import: ``POST /api/tournaments/{id}/import/`` with a CSV or XLSX file."""

from __future__ import annotations

from typing import Any

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ParseError, PermissionDenied
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.access import permissions
from scoring.access.idempotency import IdempotentMixin
from scoring.access.permissions import visible_tournaments
from scoring.access.query import KnownQueryMixin
from scoring.core.json_input import JSONInputField
from tournaments.transfer.roster import RosterReport, import_roster
from tournaments.transfer.sheets import size_error


class RosterUploadSerializer(serializers.Serializer):
    """The roster file and how to import it."""

    file = serializers.FileField(
        help_text="A CSV or XLSX file: a header row (name, club, city, rating, partner, pair, "
        "birth_year, federation_id), one player a row."
    )
    skip_bad_rows = serializers.BooleanField(
        default=False, help_text="Import the good rows and report the bad ones as skipped."
    )
    dry_run = serializers.BooleanField(
        default=False, help_text="Only check the file: report what would be imported."
    )
    profiles = JSONInputField(
        binary=True, required=False, default=dict,
        help_text='The profile of each doubtful row (the report\'s `to_review`), as JSON: '
        '{"<row>": "<profile id>" or "new"}. Until every doubtful row has one nothing is '
        "imported.")

    def validate_profiles(self, value: Any) -> dict[int, str]:
        """Row numbers to "new" or a profile id."""
        if not isinstance(value, dict) or not all(
                str(k).isdigit() and (str(v).isdigit() or v == "new") for k, v in value.items()):
            raise serializers.ValidationError(_(
                "A JSON object of row numbers to a profile id or “new” is expected."))
        return {int(k): str(v) for k, v in value.items()}


class RosterRowSerializer(serializers.Serializer):
    """One row of the file and what became of it."""

    row = serializers.IntegerField(help_text="The row's number in the file (the header is 1).")
    name = serializers.CharField(allow_blank=True)
    values = serializers.DictField(child=serializers.CharField(allow_blank=True))
    status = serializers.ChoiceField(choices=["ok", "error", "skipped"])
    partner_row = serializers.IntegerField(allow_null=True)
    # DRF's metaclass takes declared fields out of the class, so this field does not hide
    # Serializer.errors; the stubs cannot tell
    errors = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Messages by column (name, club, city, rating, partner, pair, birth_year, "
        "federation_id, team, profile, row).",
    )
    profile = serializers.DictField(
        help_text="How the row links to a profile: status `linked` (`profile`, `reason`: "
        "federation_id, name_year_club or chosen), `new`, `review` (`reason`, `candidates`: "
        "id, name, club, city; birth_year and federation_id only of the candidates whose "
        "details you may read), `refused` (`reason` federation_id_hidden: the federation id "
        "belongs to a person in no tournament you can see; the row's `errors` say so under "
        "federation_id) or `unchecked`. Only the profiles you may see are matched and offered.")


class RosterReportSerializer(serializers.Serializer):
    """The row-by-row report of an import."""

    ok = serializers.BooleanField(help_text="Every row is right.")
    imported = serializers.BooleanField(help_text="Players and pairs were added.")
    dry_run = serializers.BooleanField()
    skip_bad_rows = serializers.BooleanField()
    players = serializers.IntegerField(help_text="Players added (or to be added).")
    pairs = serializers.IntegerField(help_text="Pairs added (or to be added).")
    teams = serializers.IntegerField(
        help_text="Team tournaments: teams the file's pairs make or join (the `team` column).")
    file_errors = serializers.ListField(child=serializers.CharField())
    to_review = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Rows whose profile must be chosen (``profiles``) before anything is imported.")
    rows = RosterRowSerializer(many=True)


def _status(report: RosterReport) -> int:
    """201 when added, 200 for a preview that would add, 400 when the file is refused or a
    doubtful row's profile was not chosen."""
    if report.refused or (report.to_review and not report.dry_run):
        return status.HTTP_400_BAD_REQUEST
    return status.HTTP_201_CREATED if report.imported else status.HTTP_200_OK


class RosterImportView(KnownQueryMixin, IdempotentMixin, APIView):
    """Import players and pairs into a tournament (its organizers only)."""

    parser_classes = [MultiPartParser]
    permission_classes = [IsAuthenticated]

    def handle_exception(self, exc: Exception) -> Response:
        """A body that cannot be parsed is refused with the report, as a wrong file is."""
        if isinstance(exc, ParseError):
            report = RosterReport(file_errors=[str(exc.detail)])
            return Response(report.as_dict(), status=status.HTTP_400_BAD_REQUEST)
        return super().handle_exception(exc)

    @extend_schema(
        operation_id="tournaments_import_roster",
        request={"multipart/form-data": RosterUploadSerializer},
        responses={
            200: OpenApiResponse(RosterReportSerializer, description="dry run: the file is "
                                 "right (or its good rows would be imported)"),
            201: OpenApiResponse(RosterReportSerializer, description="imported"),
            400: OpenApiResponse(RosterReportSerializer, description="refused: nothing was "
                                 "imported; the report names each wrong row and column, or "
                                 "the doubtful rows whose profile is to be chosen "
                                 "(`to_review`)"),
            403: OpenApiResponse(OpenApiTypes.OBJECT, description="Only the tournament's "
                                 "organizers import: {detail: message}."),
            404: OpenApiResponse(OpenApiTypes.OBJECT, description="No such tournament, or not "
                                 "visible to the user: {detail: message}."),
        },
        summary="Import players and pairs from CSV or XLSX",
        tags=["tournaments"],
    )
    def post(self, request: Request, pk: int) -> Response:
        """Check every row; import all, or the good ones with ``skip_bad_rows``; one transaction."""
        tournament = visible_tournaments(request.user).filter(pk=pk).first()
        if tournament is None:
            raise NotFound
        if not permissions.can_import_roster(request.user, tournament):
            raise PermissionDenied
        upload = RosterUploadSerializer(data=request.data)
        if not upload.is_valid():
            report = RosterReport(file_errors=[
                f"{field}: {message}" for field, messages in upload.errors.items()
                for message in messages])
            return Response(report.as_dict(), status=status.HTTP_400_BAD_REQUEST)
        data: dict[str, Any] = upload.validated_data
        file = data["file"]
        if size_error(file.size):
            report = RosterReport(file_errors=[size_error(file.size)])
            return Response(report.as_dict(), status=status.HTTP_400_BAD_REQUEST)
        report = import_roster(tournament, file.name or "", file.read(), viewer=request.user,
                               skip_bad_rows=data["skip_bad_rows"], dry_run=data["dry_run"],
                               choices=data.get("profiles") or {})
        return Response(report.as_dict(), status=_status(report))


urlpatterns = [
    path("tournaments/<int:pk>/import/", RosterImportView.as_view(), name="tournament-import"),
]
