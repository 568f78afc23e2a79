"""The desk's other resources: the party's event log, the tournament's referee settings and
its referees' roles."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from scoring.models import PartyEvent, RefereeSettings, Table, TournamentRole
from scoring.models.event_text import describe_event


class EventSerializer(serializers.ModelSerializer):
    """An entry of the party's event log."""

    actor = serializers.CharField(
        source="actor.username", default=None, read_only=True, allow_null=True,
        help_text="Who acted (a username); null for what the system did (a clock that ran out, "
        "a no-show).",
    )
    created_at = serializers.DateTimeField(source="at", read_only=True)
    summary = serializers.SerializerMethodField()

    class Meta:
        model = PartyEvent
        fields = ["seq", "created_at", "actor", "kind", "summary", "data", "reason"]

    def get_summary(self, event: PartyEvent) -> str:
        """What the event did, in one line of the user's language, naming the pairs and players
        (the context's ``names``, as the desk and the party page do)."""
        return describe_event(event.kind, event.data or {}, self.context.get("names"))


class RefereeSettingsSerializer(serializers.ModelSerializer):
    """The tournament's penalty rules beyond its regulations.

    ``slow_play_points`` is read-only: the regulations' ``udl_slow_play_points``, the one
    setting every slow-play button pays.
    """

    slow_play_points = serializers.IntegerField(
        source="tournament.regulations.udl_slow_play_points", read_only=True
    )

    class Meta:
        model = RefereeSettings
        fields = ["penalty_preset", "slow_play_points"]


class RefereeRoleSerializer(serializers.ModelSerializer):
    """A referee or chief referee of the tournament, optionally for some tables."""

    username = serializers.SlugRelatedField(
        source="user", slug_field="username", queryset=get_user_model().objects.all()
    )
    tables = serializers.PrimaryKeyRelatedField(
        many=True, required=False, queryset=Table.objects.all()
    )
    role = serializers.ChoiceField(choices=[TournamentRole.Role.REFEREE, TournamentRole.Role.CHIEF])

    class Meta:
        model = TournamentRole
        fields = ["id", "username", "role", "tables"]

    def validate_tables(self, tables: list[Table]) -> list[Table]:
        """Only tables of this tournament."""
        tournament = self.context["tournament"]
        if any(table.tournament_id != tournament.pk for table in tables):
            raise serializers.ValidationError(_("A table of another tournament."))
        return tables
