"""API of a player's record: ``GET /api/v1/profiles/<pk>/record/`` (public, read-only; a
person seen only through a tournament the user may see, as the profiles' own endpoints).

The figures, tournaments with places, partners and rating history of one profile, as its
public page shows them (:mod:`scoring.people.careers`, :mod:`scoring.people.career_figures`). The
profiles' own list and detail endpoints are another resource; this one only reads the record.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.access.profiles import can_see_profile
from scoring.access.query import KnownQueryMixin
from scoring.people import career_figures as figures
from scoring.people.career_figures import Together
from scoring.people.careers import Career, load_career, resolve_profile


class FiguresSerializer(serializers.Serializer):
    """The record's figures."""

    tournaments = serializers.IntegerField(help_text="Public tournaments he entered.")
    parties = serializers.IntegerField(help_text="Finished parties against an opponent.")
    won = serializers.IntegerField(help_text="Parties won, forfeits included.")
    win_rate = serializers.IntegerField(allow_null=True, help_text="Parties won, per cent.")
    points = serializers.IntegerField(help_text="His (or his pair's) points over the parties.")
    deals = serializers.IntegerField(help_text="Deals played (annulled ones left out).")
    average_points_per_deal = serializers.FloatField(allow_null=True)
    dominoes_made = serializers.IntegerField(help_text="Deals he ended by going out himself.")
    dominoes_won = serializers.IntegerField(help_text="Dominoes won by him or his pair.")
    fish_made = serializers.IntegerField(help_text="Fish he made (he blocked the line).")
    fish_won = serializers.IntegerField(help_text="Fish won by him or his pair.")
    fines = serializers.IntegerField(help_text="Fines received (his own and his pair's).")
    fine_points = serializers.IntegerField()


class TournamentLineSerializer(serializers.Serializer):
    """One tournament of the record."""

    tournament = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField()
    date = serializers.DateField()
    format = serializers.CharField()
    rule_set = serializers.CharField()
    player = serializers.IntegerField(help_text="His entry (a player id) in the tournament.")
    place = serializers.IntegerField(
        allow_null=True, help_text="As the standings show it; null where they are not public."
    )
    shared = serializers.BooleanField()
    field_size = serializers.IntegerField()


class TogetherSerializer(serializers.Serializer):
    """A partner or an opponent, with the parties played with (or against) him."""

    name = serializers.CharField()
    profile = serializers.IntegerField(allow_null=True)
    parties = serializers.IntegerField()
    won = serializers.IntegerField()
    win_rate = serializers.IntegerField(allow_null=True)


class RatingPointSerializer(serializers.Serializer):
    """One row of the rating history."""

    rating_list = serializers.IntegerField()
    list_name = serializers.CharField()
    subject = serializers.CharField(help_text='The rated subject: "12", or "12+34" for a pair.')
    partner = serializers.CharField(help_text="The partner's name in a list of fixed pairs.")
    sequence = serializers.IntegerField(help_text="The rating period.")
    tournament = serializers.CharField()
    date = serializers.DateField()
    rating = serializers.FloatField()
    deviation = serializers.FloatField(allow_null=True)


class RecordSerializer(serializers.Serializer):
    """A player's record across public tournaments."""

    profile = serializers.IntegerField(
        help_text="The profile that holds the results (a merged profile's id leads to it)."
    )
    name = serializers.CharField()
    club = serializers.CharField()
    city = serializers.CharField()
    figures = FiguresSerializer()
    tournaments = TournamentLineSerializer(many=True)
    partners = TogetherSerializer(many=True)
    opponents = TogetherSerializer(many=True)
    points_per_deal = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="[from, to, deals]: how many deals brought from … to points (included).",
    )
    ratings = RatingPointSerializer(many=True)


def _together(rows: list[Together]) -> list[dict[str, Any]]:
    """Partners or opponents as plain data."""
    return [
        {"name": t.person.name, "profile": t.person.profile_id, "parties": t.parties,
         "won": t.won, "win_rate": t.win_rate}
        for t in rows
    ]


def career_data(record: Career) -> dict[str, Any]:
    """The record as the API answers it."""
    profile = record.profile
    return {
        "profile": profile.pk,
        "name": profile.name,
        "club": profile.club,
        "city": profile.city,
        "figures": figures.summary(record),
        "tournaments": [
            {"tournament": line.tournament.pk, "slug": line.tournament.slug,
             "name": line.tournament.name, "date": line.tournament.start_date,
             "format": line.tournament.format, "rule_set": line.tournament.rule_set,
             "player": line.player_id, "place": line.place, "shared": line.shared,
             "field_size": line.field_size}
            for line in record.tournaments
        ],
        "partners": _together(figures.partners(record.parties)),
        "opponents": _together(figures.opponents(record.parties)),
        "points_per_deal": [list(b) for b in figures.points_histogram(record.deals)],
        "ratings": [
            {"rating_list": p.list_id, "list_name": p.list_name, "subject": p.subject,
             "partner": p.partner, "sequence": p.sequence, "tournament": p.tournament,
             "date": p.date, "rating": p.rating, "deviation": p.deviation}
            for p in record.ratings
        ],
    }


class ProfileRecordView(KnownQueryMixin, APIView):
    """A player's public record: figures, tournaments and places, partners, rating history."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="profiles_record",
        responses={
            200: RecordSerializer,
            404: OpenApiResponse(OpenApiTypes.OBJECT, description="No such profile, or the "
                                 "person plays in no tournament the user may see."),
        },
        tags=["profiles"],
    )
    def get(self, request: Request, pk: int) -> Response:
        """The record of the profile (a merged profile answers with the one it merged into)."""
        profile = resolve_profile(pk)
        if profile is None or not can_see_profile(request.user, profile):
            raise NotFound
        return Response(RecordSerializer(career_data(load_career(profile))).data)
