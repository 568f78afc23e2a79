"""What the referee desk answers: the party's state, the overview, an action's result, the
tiles' preview (the event log and the tournament's desk settings and roles are ``resources``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring.models import (
    Party,
    Penalty,
    Ruling,
    who,
)

# -- output -----------------------------------------------------------------------------------


@extend_schema_field({
    "type": "object",
    "properties": {"side": {"type": "string"}, "seat": {"type": "string"}},
    "required": ["side", "seat"],
    "example": {"side": "a", "seat": ""},
})
class WhoField(serializers.Field):
    """A side-or-seat value as ``{"side": …, "seat": …}`` (both blank when nobody)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> dict[str, str]:
        """The side, and the seat where a player (not a side) is meant."""
        return who(value or "")


class ClockSerializer(serializers.Serializer):
    """The party's clock; the server's time is authoritative."""

    started_at = serializers.DateTimeField(allow_null=True)
    paused = serializers.BooleanField()
    seconds_left = serializers.IntegerField(
        allow_null=True, help_text=_("Null before the start, or when the party has no clock.")
    )
    limit_seconds = serializers.IntegerField(
        allow_null=True,
        help_text=_("Null: the party has no clock (party_minutes empty, the Kozel preset)."),
    )
    time_expired_at = serializers.DateTimeField(allow_null=True)


class SidesSerializer(serializers.Serializer):
    """A number per pair."""

    a = serializers.IntegerField()
    b = serializers.IntegerField()


LOSER_HELP = _(
    "Who lost the finished party: the other side of the winner (the other seat of two single "
    "players keeping their own scores); in Kozel the Goat's seat. Both blank while it is not "
    "finished, for a bye, or where nobody lost alone (three or four players each for himself)."
)
"""A party's ``loser`` in every answer that shows one."""

SCORES_HELP = _(
    'Per side ("a", "b") in the pairs and singles games; per seat ("a1", "b1", "a2", "b2") '
    "where every player keeps his own score (Kozel, the Draw, Block and Classic games): "
    "see the party's scored_by."
)


def scores_field(**kwargs: Any) -> serializers.DictField:
    """Numbers keyed by the game's own scoring units: the sides, or the seats."""
    kwargs.setdefault("help_text", SCORES_HELP)
    return serializers.DictField(child=serializers.IntegerField(), **kwargs)


class TotalsSerializer(serializers.Serializer):
    """Totals derived from deals and fines, by the game's scoring units (sides or seats)."""

    points = scores_field()
    deal_points = scores_field()
    fine_points = scores_field()
    floored_points = scores_field(help_text=_(
        "The fine points not taken because a total may not go below zero (the regulations' "
        "allow_negative off: the total is floored at zero after each deal's fines and points, "
        "so no debt is carried); points = deal_points + fine_points + floored_points."))
    carry = serializers.IntegerField(
        help_text=_("Points of a drawn fish waiting for the next deal won (Kozel: fish for one).")
    )


class GameSerializer(serializers.Serializer):
    """One game of a match (UDL, All Fives)."""

    number = serializers.IntegerField()
    points = SidesSerializer()
    hands = serializers.IntegerField()
    closed = serializers.BooleanField()
    winner = WhoField()


class GameClockSerializer(serializers.Serializer):
    """The clock of the game in play, beside the match's."""

    seconds_left = serializers.IntegerField(allow_null=True)
    limit_seconds = serializers.IntegerField()
    time_expired_at = serializers.DateTimeField(allow_null=True)


class MatchSerializer(serializers.Serializer):
    """A party played as a match of games (UDL, All Fives)."""

    game = serializers.IntegerField(help_text=_("The game in play."))
    games_to_win = serializers.IntegerField()
    game_wins = SidesSerializer()
    games = GameSerializer(many=True)
    clock = GameClockSerializer()


class KozelSerializer(serializers.Serializer):
    """Kozel: each player's memorized points and open account, the Goat, the ratings."""

    goat_at = serializers.IntegerField()
    memorize_limit = serializers.IntegerField()
    fish_variant = serializers.CharField()
    pairs = serializers.BooleanField()
    memorized = serializers.DictField(child=serializers.IntegerField())
    open = serializers.DictField(child=serializers.BooleanField())
    carry = serializers.IntegerField()
    pair_points = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    goat = WhoField(help_text=_("The Goat: a seat, or a side where Kozel is played in pairs."))
    ratings = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text=_("Each player's rating after the game, once the party is finished."),
    )


class AlertSerializer(serializers.Serializer):
    """Something that needs the referee's attention."""

    code = serializers.ChoiceField(
        choices=[
            "not_started",
            "time_expired",
            "paused",
            "no_show",
            "awaiting_signatures",
            "next_game",
            "overtime",
        ]
    )
    message = serializers.CharField()


class PartySummarySerializer(serializers.Serializer):
    """A party's version, status, phase, clock and totals."""

    id = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Party.Status.choices)
    phase = serializers.ChoiceField(
        choices=[
            "scheduled",
            "continue",
            "last_deal",
            "extra_deal",
            "next_game",
            "overtime",
            "finished",
        ]
    )
    phase_label = serializers.CharField()
    end_reason = serializers.CharField(allow_blank=True)
    winner = WhoField(help_text=_("Who won the party: a side, or a seat where every player "
                                  "keeps his own score."))
    loser = WhoField(help_text=LOSER_HELP)
    rule_set = serializers.CharField()
    scored_by = serializers.ChoiceField(
        choices=["side", "seat"],
        help_text=_("What the totals are keyed by: the sides, or the seats where every player "
                    "keeps his own score."),
    )
    clock = ClockSerializer()
    totals = TotalsSerializer()
    match = MatchSerializer(allow_null=True)
    kozel = KozelSerializer(allow_null=True)


class PlayerRowSerializer(serializers.Serializer):
    """A player at a seat."""

    seat = serializers.CharField()
    id = serializers.IntegerField()
    name = serializers.CharField()


class PairRowSerializer(serializers.Serializer):
    """A pair of the party."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    players = PlayerRowSerializer(many=True)
    disqualified = serializers.BooleanField()


class PairsSerializer(serializers.Serializer):
    """Both pairs (B is null for a bye)."""

    a = PairRowSerializer()
    b = PairRowSerializer(allow_null=True)


class DealRowSerializer(serializers.Serializer):
    """A deal with the running totals after it."""

    id = serializers.IntegerField()
    number = serializers.IntegerField()
    outcome = serializers.CharField()
    outcome_label = serializers.CharField()
    side = serializers.CharField(allow_blank=True, help_text=_("The side that won the deal."))
    seat = serializers.CharField(
        allow_blank=True,
        help_text=_("The seat that went out, or that won where every player keeps his score."),
    )
    points = scores_field()
    running = scores_field(allow_null=True)
    recorded_by = serializers.IntegerField(allow_null=True)
    game = serializers.IntegerField()
    plays = serializers.ListField(child=serializers.ListField())
    led = serializers.CharField(allow_blank=True)
    carry = serializers.IntegerField()


class SideRowSerializer(serializers.Serializer):
    """A side of the rule set (a pair, a single player, or a player's seat) with its score."""

    key = serializers.CharField()
    # DRF's metaclass takes declared fields off the class: this is no Field.label (stubs)
    label = serializers.CharField()  # type: ignore[assignment]
    name = serializers.CharField()
    points = serializers.IntegerField()
    deal_points = serializers.IntegerField()
    fine_points = serializers.IntegerField()
    won = serializers.BooleanField()
    lost = serializers.BooleanField()
    game_wins = serializers.IntegerField(required=False)
    game_points = serializers.IntegerField(required=False)
    memorized = serializers.IntegerField(required=False)
    open = serializers.BooleanField(required=False)
    rating = serializers.IntegerField(required=False, allow_null=True)


class PenaltyRowSerializer(serializers.Serializer):
    """A warning, fine or disqualification."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Penalty.Kind.choices)
    kind_label = serializers.CharField()
    category = serializers.ChoiceField(choices=Penalty.Category.choices)
    category_label = serializers.CharField()
    side = serializers.CharField()
    seat = serializers.CharField(allow_blank=True)
    player = serializers.IntegerField(allow_null=True)
    player_name = serializers.CharField(allow_blank=True)
    points = serializers.IntegerField()
    mode = serializers.CharField(allow_blank=True)
    deal_number = serializers.IntegerField(allow_null=True)
    escalated = serializers.BooleanField()
    reason = serializers.CharField(allow_blank=True)
    cancelled = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class RulingRowSerializer(serializers.Serializer):
    """A ruling."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Ruling.Kind.choices)
    kind_label = serializers.CharField()
    side = serializers.CharField()
    seat = serializers.CharField(allow_blank=True)
    player = serializers.IntegerField(allow_null=True)
    player_name = serializers.CharField(allow_blank=True)
    choice = serializers.CharField(allow_blank=True)
    choice_label = serializers.CharField(allow_blank=True)
    deal_number = serializers.IntegerField(allow_null=True)
    details = serializers.DictField()
    reason = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()


class ExposedSerializer(serializers.Serializer):
    """A tile exposed out of turn, to be played at the first opportunity."""

    seat = serializers.CharField()
    tile = serializers.ListField(child=serializers.IntegerField(), allow_null=True)


class CheckInSerializer(serializers.Serializer):
    """Which players and pairs are present, and a raised no-show candidate."""

    a = serializers.BooleanField(help_text=_("Every player of pair A is present."))
    b = serializers.BooleanField(help_text=_("Every player of pair B is present."))
    seats = serializers.DictField(
        child=serializers.BooleanField(),
        help_text=_("Each player by seat (a1, a2, b1, b2): checked in or not. A pair with one "
                    "or both players absent when the wait is over is a no-show."),
    )
    no_show_due_at = serializers.DateTimeField(allow_null=True)
    no_show_candidate = serializers.CharField(allow_blank=True)


class CountsMixin(serializers.Serializer):
    """Warnings and fines per pair."""

    warnings = SidesSerializer()
    warnings_by_kind = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField())
    )
    fines = SidesSerializer()
    alerts = AlertSerializer(many=True)


class PartyStateSerializer(CountsMixin, PartySummarySerializer):
    """Everything the party screen shows."""

    tournament = serializers.DictField()
    round = serializers.IntegerField()
    round_number = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    table_number = serializers.IntegerField(allow_null=True)
    pairs = PairsSerializer()
    sides = SideRowSerializer(many=True)
    deal_in_play = serializers.IntegerField()
    deals = DealRowSerializer(many=True)
    penalties = PenaltyRowSerializer(many=True)
    rulings = RulingRowSerializer(many=True)
    exposed = ExposedSerializer(many=True)
    check_in = CheckInSerializer()


class OverviewRowSerializer(CountsMixin, PartySummarySerializer):
    """A party in the referee's overview."""

    table = serializers.IntegerField(allow_null=True)
    table_number = serializers.IntegerField(allow_null=True)
    pairs = PairsSerializer()


class OverviewSerializer(serializers.Serializer):
    """Every party of the round the referee runs."""

    tournament = serializers.DictField()
    round = serializers.IntegerField(allow_null=True)
    round_number = serializers.IntegerField(allow_null=True)
    round_numbers = serializers.ListField(child=serializers.IntegerField())
    parties = OverviewRowSerializer(many=True)
    alert_count = serializers.IntegerField()


class TilesPreviewSerializer(serializers.Serializer):
    """The sums of the tiles picked for a deal, and the deal's result by the rule set."""

    pips = serializers.DictField(child=serializers.IntegerField(),
                                 help_text="Pips left per seat.")
    pips_by_side = serializers.DictField(child=serializers.IntegerField(),
                                         help_text='Pips left per side ("a", "b").')
    outcome = serializers.CharField(allow_blank=True, help_text="domino or fish.")
    side = serializers.CharField(allow_blank=True, help_text="The side that wins the deal.")
    seat = serializers.CharField(
        allow_blank=True,
        help_text="The seat that wins, where every player keeps his own score; else blank.",
    )
    points = scores_field(allow_null=True)
    error = serializers.CharField(
        allow_blank=True, help_text="Why the tiles cannot be scored; blank when they can."
    )


class ActionResultSerializer(serializers.Serializer):
    """The party after an action, and the record the action made or changed."""

    party = PartySummarySerializer()
    record = serializers.DictField(allow_null=True)
