"""API of a tournament's entry settings: ``tournaments/{id}/entry-settings/`` (on
``TournamentViewSet``): read by whoever sees the tournament, changed by its organizers."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.models import MAIL_KINDS, EntrySettings
from scoring.people import entries as rules
from tournaments.api.common import REFUSED, require_manage
from tournaments.entries.decisions import update_entry_settings


class EntrySettingsSerializer(serializers.ModelSerializer):
    """How the tournament takes entries, with its places taken and its waiting list now."""

    disabled_mails = serializers.ListField(
        child=serializers.ChoiceField(choices=MAIL_KINDS), required=False,
        help_text="The kinds of mail switched off.")
    state = serializers.SerializerMethodField(
        help_text='"open", "not_yet", "closed" or "off".')
    places_taken = serializers.SerializerMethodField()
    waiting = serializers.SerializerMethodField()

    class Meta:
        model = EntrySettings
        fields = ["open", "opens_at", "closes_at", "mode", "capacity", "rating_min",
                  "rating_max", "season", "confirm_hours", "disabled_mails", "state",
                  "places_taken", "waiting"]

    def get_state(self, conf: EntrySettings) -> str:
        """Whether entries are open now."""
        return rules.window_state(conf)

    def get_places_taken(self, conf: EntrySettings) -> int:
        """Places taken (entrants and entries holding one)."""
        return rules.places_taken(conf.tournament, conf)

    def get_waiting(self, conf: EntrySettings) -> int:
        """Entries on the waiting list."""
        return rules.waiting_count(conf.tournament)


class EntrySettingsMixin:
    """The tournament's ``entry-settings/`` action (on ``TournamentViewSet``)."""

    @extend_schema(
        methods=["GET"], responses=EntrySettingsSerializer,
        summary="The tournament's entry settings",
        description="The entry window, places (pairs when a pair enters together, players "
        "otherwise), limits, the partner's hours, the mails switched off; the places taken "
        "and the waiting list now.")
    @extend_schema(
        methods=["PUT", "PATCH"], request=EntrySettingsSerializer,
        responses={200: EntrySettingsSerializer, **REFUSED},
        summary="Change the entry settings (organizers)",
        description="More places move the waiting list up. Refused with 400 naming the "
        "field: the window's end before its start (`closes_at`), a lowest rating above the "
        "highest, an unknown mail kind (`disabled_mails`).")
    @action(detail=True, methods=["get", "put", "patch"], url_path="entry-settings")
    def entry_settings(self, request: Request, pk: str | None = None) -> Response:
        """GET: the settings. PUT/PATCH: change them (organizers)."""
        tournament = self.get_object()  # type: ignore[attr-defined]
        conf = rules.settings_of(tournament)
        if request.method == "GET":
            return Response(EntrySettingsSerializer(conf).data)
        require_manage(request, tournament)
        serializer = EntrySettingsSerializer(conf, data=request.data,
                                             partial=request.method == "PATCH")
        serializer.is_valid(raise_exception=True)
        fields: dict[str, Any] = dict(serializer.validated_data)
        conf, _promoted = update_entry_settings(tournament.pk, actor=request.user, **fields)
        return Response(EntrySettingsSerializer(conf).data)
