"""The records an action made or changed (a deal, a penalty, a ruling), in their one shape."""

from __future__ import annotations

from typing import Any

from django.db.models import Model
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from referee.serializers.outputs import SCORES_HELP
from scoring.models import Deal, Penalty, Ruling, side_and_seat


class WhoMixin(serializers.Serializer):
    """The side and seat a record concerns (``scoring.models.side_and_seat``)."""

    side = serializers.SerializerMethodField(help_text=_('The side: "a" or "b".'))
    seat = serializers.SerializerMethodField(
        help_text=_("The player's seat (a1, b1, a2, b2), or blank.")
    )

    def get_side(self, record: Any) -> str:
        """The table side."""
        return side_and_seat(record)[0]

    def get_seat(self, record: Any) -> str:
        """The player's seat, or blank."""
        return side_and_seat(record)[1]


class DealRecordSerializer(WhoMixin, serializers.ModelSerializer):
    """A recorded deal, as the protocol shows it."""

    points = serializers.SerializerMethodField(help_text=SCORES_HELP)

    class Meta:
        model = Deal
        fields = ["id", "party", "number", "game", "outcome", "side", "seat", "points",
                  "carry", "plays", "led", "pips", "tiles", "note", "recorded_at",
                  "updated_at"]

    def get_points(self, deal: Deal) -> dict[str, int]:
        """The deal's points by the game's scoring units."""
        return deal.points_by_side()


class PenaltyRecordSerializer(WhoMixin, serializers.ModelSerializer):
    """A warning, fine or disqualification given in a party."""

    player_name = serializers.CharField(source="player.name", default="", read_only=True)

    class Meta:
        model = Penalty
        fields = ["id", "party", "kind", "category", "side", "seat", "player", "player_name",
                  "points", "mode",
                  "deal_number", "game", "escalated_from", "cancelled", "reason", "created_at"]


class RulingRecordSerializer(WhoMixin, serializers.ModelSerializer):
    """A referee's ruling in a party (out of turn, false pass, touched tile, no-show, …)."""

    player_name = serializers.CharField(source="player.name", default="", read_only=True)

    class Meta:
        model = Ruling
        fields = ["id", "party", "kind", "side", "seat", "player", "player_name", "choice",
                  "deal_number",
                  "deal", "penalty", "details", "reason", "created_at"]


RECORD_SERIALIZERS: dict[type[Model], tuple[str, type[serializers.Serializer]]] = {
    Deal: ("deal", DealRecordSerializer),
    Penalty: ("penalty", PenaltyRecordSerializer),
    Ruling: ("ruling", RulingRecordSerializer),
}
"""The record an action made or changed, by its model: its type name and its one shape."""


_PROTOTYPES: dict[type[serializers.Serializer], serializers.Serializer] = {}


def represent(serializer_class: type[serializers.Serializer], instance: Any) -> dict[str, Any]:
    """``serializer_class(instance).data``, from one instance of the class with its fields
    bound once per process (for the shapes that read no context: every action answers with
    them, and building their fields cost more than filling them)."""
    prototype = _PROTOTYPES.get(serializer_class)
    if prototype is None:
        prototype = _PROTOTYPES.setdefault(serializer_class, serializer_class())
    return prototype.to_representation(instance)


def record_data(record: Any) -> dict[str, Any] | None:
    """The record an action made or changed, as plain data (None for the party itself)."""
    for model, (name, serializer) in RECORD_SERIALIZERS.items():
        if isinstance(record, model):
            return {"type": name, **represent(serializer, record)}
    return None
