"""What the referee desk sends and gets back: one input serializer per action, and the state.

Each action serializer validates a request (from the API, or from a page form turned into the
same shape by ``form_data``) and ``perform``s it by calling one service. Pages and the API share
them, so an action is checked the same way wherever it comes from.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from referee import services
from referee.rulings import hand_limit, pips_of_hands, read_hands, takes_tiles
from scoring import services as scoring
from scoring.errors import translate_engine_error
from scoring.models import (
    MAX_DEAL_POINTS,
    Deal,
    Party,
    PartyEvent,
    Penalty,
    RefereeSettings,
    Ruling,
    Table,
    TournamentRole,
)
from scoring.rules import SEATS, RuleError
from scoring.rules.moves import HAND_SIZE

SIDE_CHOICES = [("a", _("Pair A")), ("b", _("Pair B"))]
SEAT_CHOICES = [(seat, seat.upper()) for seat in SEATS]
SIDE_OR_SEAT_CHOICES = [*SIDE_CHOICES, *SEAT_CHOICES]
"""A side ("a", "b"), or a player's seat where every player keeps his own score."""
DEAL_ENTRY_OUTCOMES = [
    ("domino", "domino"),
    ("fish", "fish"),
    ("referee", "referee"),
    ("stopped", "stopped"),
]
UDL_VIOLATION_CHOICES = [(code, label) for code, label in services.UDL_VIOLATIONS.items()]
PREVIEW_OUTCOMES = [("domino", "domino"), ("fish", "fish")]
WARNING_CATEGORY_CHOICES = [(c.value, c.label) for c in services.WARNING_CATEGORIES]


def _engine_error(exc: RuleError) -> serializers.ValidationError:
    """A rule-engine refusal as a validation error naming its field."""
    err = translate_engine_error(exc)
    return serializers.ValidationError({err.field: [err.message]})


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "example": "3-5"},
            {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
        ]
    }
)
class TileField(serializers.Field):
    """A tile: "3-5" or [3, 5]; kept as given and checked by the rules."""

    def to_internal_value(self, data: Any) -> Any:
        """Accept a string or a pair of numbers."""
        if not isinstance(data, str | list | tuple):
            raise serializers.ValidationError(_("A tile is like 3-5."))
        return data

    def to_representation(self, value: Any) -> Any:
        """As given."""
        return value


PLAY_PATTERN = re.compile(r"([abAB][12]?)\s*[:+=]?\s*(\d+)")
PLAY_SEPARATORS = re.compile(r"[\s,;]*")


@extend_schema_field(
    {
        "type": "array",
        "items": {
            "type": "array",
            "items": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "minItems": 2,
            "maxItems": 2,
        },
        "example": [["a", 10], ["b", 15]],
    }
)
class PlaysField(serializers.Field):
    """The scoring plays of a hand in order: [player, points] each (All Fives, UDL).

    Also takes the page form's text, "a1:10 b1:15" (a side or a seat, then the points).
    """

    default_error_messages = {
        "invalid": _('Enter each scoring play as a player and his points, like "a1:10".'),
    }

    def to_internal_value(self, data: Any) -> list[list[Any]]:
        """A list of [player, points]; the rules check the points (multiples of five)."""
        if isinstance(data, str):
            if PLAY_SEPARATORS.fullmatch(PLAY_PATTERN.sub(" ", data)) is None:
                self.fail("invalid")
            return [[who.lower(), int(points)] for who, points in PLAY_PATTERN.findall(data)]
        if not isinstance(data, list | tuple):
            self.fail("invalid")
        plays = []
        for play in data:
            if not isinstance(play, list | tuple) or len(play) != 2:
                self.fail("invalid")
            who, points = play
            if not isinstance(who, str) or isinstance(points, bool):
                self.fail("invalid")
            try:
                points = int(points)
            except (TypeError, ValueError):
                self.fail("invalid")
            plays.append([who, points])
        return plays

    def to_representation(self, value: Any) -> Any:
        """As stored."""
        return value


# -- input: one serializer per action ---------------------------------------------------------


class ActionInput(serializers.Serializer):
    """The fields every party action takes: the version the client last saw."""

    version = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text=_("The party version the client last saw; a stale one is refused with 409."),
    )
    creates: ClassVar[bool] = False
    """Whether the action makes a record (201) or changes the party (200)."""

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Run the action's service on the party (or on ``record``, a deal or penalty of it).

        Returns the record made or changed, or the party.
        """
        raise NotImplementedError

    def args(self, user: Any) -> dict[str, Any]:
        """Keyword arguments every service takes."""
        return {"actor": user, "expected_version": self.validated_data.get("version")}


class CreatingInput(ActionInput):
    """An action that makes a record: a client id makes retries safe."""

    client_id = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text=_("Generated by the device; a retried request with it makes no second record."),
    )
    creates: ClassVar[bool] = True

    def args(self, user: Any, client_id: str = "") -> dict[str, Any]:
        """The common arguments plus the client id (the body's, else the Idempotency-Key)."""
        return {
            **super().args(user),
            "client_id": self.validated_data.get("client_id") or client_id,
        }


class StartInput(ActionInput):
    """Start the party's clock."""

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Start."""
        return services.start_party(party.pk, **self.args(user))


class PauseInput(ActionInput):
    """Pause the clock, with a reason."""

    reason = serializers.CharField(max_length=300)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Pause."""
        return services.pause_clock(
            party.pk, reason=self.validated_data["reason"], **self.args(user)
        )


class ResumeInput(ActionInput):
    """Resume a paused clock."""

    reason = serializers.CharField(max_length=300, required=False, allow_blank=True)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Resume."""
        return services.resume_clock(
            party.pk, reason=self.validated_data.get("reason", ""), **self.args(user)
        )


class TimeUpInput(ActionInput):
    """The referee declares the party's time up (the official clock ran out)."""

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Mark the time as run out."""
        return services.mark_time_expired(party.pk, **self.args(user))


class FinishInput(ActionInput):
    """Finish a party the regulations have decided."""

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Finish."""
        return services.finish_party(party.pk, **self.args(user))


class CheckInInput(ActionInput):
    """Mark a pair present at the table (or not)."""

    side = serializers.ChoiceField(choices=SIDE_CHOICES)
    present = serializers.BooleanField(default=True)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Check in."""
        data = self.validated_data
        return services.check_in(
            party.pk, side=data["side"], present=data["present"], **self.args(user)
        )


class DealFields(serializers.Serializer):
    """How a deal ended: quick (outcome, winner, points) or detailed (pips or tiles per seat)."""

    outcome = serializers.ChoiceField(
        choices=DEAL_ENTRY_OUTCOMES,
        help_text=_("domino, fish, or referee (the referee ended the deal and gives points)."),
    )
    winner = serializers.ChoiceField(
        choices=SIDE_OR_SEAT_CHOICES,
        required=False,
        allow_blank=True,
        help_text=_("The side that won the deal, or the player's seat where every player keeps "
                    "his own score (Kozel, the Draw, Block and Classic games)."),
    )
    went_out = serializers.ChoiceField(choices=SEAT_CHOICES, required=False, allow_blank=True)
    points = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_DEAL_POINTS),
        required=False,
        allow_null=True,
        help_text=_('Points per pair, e.g. {"a": 45, "b": 0}; per player where every player '
                    'keeps his own score, e.g. Kozel\'s deal totals {"a1": 5, "b1": 13, '
                    '"a2": 0, "b2": 22}; in All Fives and UDL the end count of the hand.'),
    )
    plays = PlaysField(
        required=False,
        allow_null=True,
        help_text=_('All Fives and UDL: the points made during the hand, in order, each a '
                    'multiple of five, e.g. [["a", 10], ["b", 15]] (a side or a seat).'),
    )
    led = serializers.ChoiceField(
        choices=SEAT_CHOICES,
        required=False,
        allow_blank=True,
        help_text=_("The seat that led the deal (la mano): the Latin pairs game gives it a "
                    "fish with equal pips."),
    )
    pips = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_DEAL_POINTS),
        required=False,
        allow_null=True,
        help_text=_('Pips left per seat, e.g. {"a1": 0, "a2": 12, "b1": 20, "b2": 7}.'),
    )
    tiles = serializers.DictField(
        child=serializers.ListField(child=TileField()),
        required=False,
        allow_null=True,
        help_text=_('Tiles left per seat, e.g. {"a2": ["3-5", "0-0"], "b1": ["6-6"]}.'),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Tiles give the pips: none twice, the sums computed.

        With the party in the context (``context["party"]``), the seats and hand sizes are its
        rule set's, and the games that read tiles themselves get the pips of the hands entered
        only (the others' pips are entered, or missing).
        """
        tiles = attrs.get("tiles")
        if tiles:
            party = self.context.get("party")
            rule_set = cfg = None
            if party is not None:
                tournament = party.round.tournament
                rule_set, cfg = tournament.engine, tournament.regulations.rules_config()
            seats = rule_set.seats_for(cfg) if rule_set is not None else SEATS
            size = hand_limit(rule_set, cfg) if rule_set is not None else HAND_SIZE
            try:
                hands = read_hands(tiles, seats, size)
            except RuleError as exc:
                raise _engine_error(exc) from exc
            if rule_set is not None and takes_tiles(rule_set):
                attrs["pips"] = {**(attrs.get("pips") or {}), **pips_of_hands(hands, list(hands))}
            else:
                attrs["pips"] = pips_of_hands(hands, SEATS)
            attrs["tiles"] = {seat: [list(t) for t in hand] for seat, hand in hands.items()}
        return attrs

    def deal_kwargs(self) -> dict[str, Any]:
        """The deal's values as the deal services take them."""
        data = self.validated_data
        return {
            "outcome": data["outcome"],
            "winner": data.get("winner") or None,
            "went_out": data.get("went_out") or None,
            "pips": data.get("pips") or None,
            "points": None if data.get("pips") else data.get("points") or None,
            "plays": data.get("plays") or None,
            "led": data.get("led") or None,
        }


class DealInput(DealFields, CreatingInput):
    """Record the deal in play."""

    number = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        help_text=_("The deal's number as the device saw it; a deal recorded twice is refused."),
    )
    note = serializers.CharField(required=False, allow_blank=True, max_length=300)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Record the deal."""
        data = self.validated_data
        return scoring.record_deal(
            party.pk,
            **self.deal_kwargs(),
            tiles=data.get("tiles") or None,
            number=data.get("number"),
            note=data.get("note", ""),
            **self.args(user, client_id),
        )


class CorrectDealInput(DealFields, ActionInput):
    """Correct a recorded deal, with a reason."""

    reason = serializers.CharField(max_length=300)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Correct the deal."""
        return scoring.correct_deal(
            record.pk,
            reason=self.validated_data["reason"],
            **self.deal_kwargs(),
            tiles=self.validated_data.get("tiles") or None,
            **self.args(user),
        )


class ReasonInput(ActionInput):
    """A change that needs only a reason."""

    reason = serializers.CharField(max_length=300)


class AnnulDealInput(ReasonInput):
    """Annul a recorded deal, with a reason."""

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Annul the deal."""
        return scoring.annul_deal(
            record.pk, reason=self.validated_data["reason"], **self.args(user)
        )


class CancelPenaltyInput(ReasonInput):
    """Cancel a warning or fine given by mistake, with a reason."""

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Cancel the penalty."""
        return services.cancel_penalty(
            record.pk, reason=self.validated_data["reason"], **self.args(user)
        )


class OffenderInput(CreatingInput):
    """Who is at fault: a pair, optionally the player (by seat or id); and why."""

    side = serializers.ChoiceField(choices=SIDE_CHOICES)
    seat = serializers.ChoiceField(choices=SEAT_CHOICES, required=False, allow_blank=True)
    player = serializers.IntegerField(required=False, allow_null=True)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300)

    def offender(self) -> dict[str, Any]:
        """The offender's arguments of the services."""
        data = self.validated_data
        return {
            "side": data["side"],
            "seat": data.get("seat") or "",
            "player_id": data.get("player"),
            "reason": data.get("reason", ""),
        }


class WarningInput(OffenderInput):
    """A violation: a warning, or a fine when the pair repeats the kind."""

    category = serializers.ChoiceField(
        choices=WARNING_CATEGORY_CHOICES
    )

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Warn (or fine)."""
        return services.give_warning(
            party.pk,
            category=self.validated_data["category"],
            **self.offender(),
            **self.args(user, client_id),
        )


class FineInput(OffenderInput):
    """A fine: the regulations' points unless given, in the regulations' mode."""

    category = serializers.ChoiceField(choices=Penalty.Category.choices)
    points = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_DEAL_POINTS
    )

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Fine."""
        data = self.validated_data
        return services.give_fine(
            party.pk,
            category=data["category"],
            points=data.get("points"),
            **self.offender(),
            **self.args(user, client_id),
        )


class SeatRulingInput(CreatingInput):
    """A ruling about the player on a seat."""

    seat = serializers.ChoiceField(choices=SEAT_CHOICES)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300)

    def ruling_args(self, user: Any, client_id: str) -> dict[str, Any]:
        """Seat, reason and the common arguments."""
        data = self.validated_data
        return {
            "seat": data["seat"],
            "reason": data.get("reason", ""),
            **self.args(user, client_id),
        }


class OutOfTurnInput(SeatRulingInput):
    """A tile played out of turn, and the opponents' choice."""

    choice = serializers.ChoiceField(
        choices=[Ruling.Choice.CONTINUE, Ruling.Choice.RESHUFFLE],
        help_text=_("continue: the exposed tile is played first; reshuffle: deal annulled, fine."),
    )
    tile = TileField(required=False, allow_null=True)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Rule."""
        data = self.validated_data
        return services.rule_out_of_turn(
            party.pk,
            choice=data["choice"],
            tile=data.get("tile"),
            **self.ruling_args(user, client_id),
        )


class FalsePassInput(SeatRulingInput):
    """A false pass: the deal ends with the referee's points and a fine."""

    points = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_DEAL_POINTS),
        required=False,
        allow_null=True,
        help_text=_("The deal's points per pair, or per player where every player keeps his "
                    "own score (the regulations' default: 0 for everybody)."),
    )

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Rule."""
        return services.rule_false_pass(
            party.pk, points=self.validated_data.get("points"), **self.ruling_args(user, client_id)
        )


class TouchedTileInput(SeatRulingInput):
    """A touched tile: played if it fits, else the pair is fined."""

    fits = serializers.BooleanField()
    tile = TileField(required=False, allow_null=True)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Rule."""
        data = self.validated_data
        return services.rule_touched_tile(
            party.pk, fits=data["fits"], tile=data.get("tile"), **self.ruling_args(user, client_id)
        )


class NoShowInput(CreatingInput):
    """The absent pair forfeits (after the regulations' wait)."""

    absent_side = serializers.ChoiceField(choices=SIDE_CHOICES)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Rule."""
        data = self.validated_data
        return services.rule_no_show(
            party.pk,
            absent_side=data["absent_side"],
            reason=data.get("reason", ""),
            **self.args(user, client_id),
        )


class UdlViolationInput(CreatingInput):
    """A violation of the UDL tournament rules, with the consequence the rules give it.

    Slow play: a warning, then the regulations' points (20) paid to the opponent each time;
    out-of-turn play: the tile is exposed; hiding tiles: disqualified from the match;
    slamming and leaving: disqualified from the tournament; misconduct: removed from it.
    """

    violation = serializers.ChoiceField(choices=UDL_VIOLATION_CHOICES)
    side = serializers.ChoiceField(choices=SIDE_CHOICES, required=False, allow_blank=True)
    seat = serializers.ChoiceField(choices=SEAT_CHOICES, required=False, allow_blank=True)
    tile = TileField(required=False, allow_null=True)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The player at fault: his side or his seat."""
        if not attrs.get("side") and not attrs.get("seat"):
            raise serializers.ValidationError({"side": [_("Choose the player at fault.")]})
        return attrs

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Rule."""
        data = self.validated_data
        return services.rule_udl_violation(
            party.pk,
            violation=data["violation"],
            side=data.get("side") or "",
            seat=data.get("seat") or "",
            tile=data.get("tile"),
            reason=data.get("reason", ""),
            **self.args(user, client_id),
        )


class DisqualifyInput(OffenderInput):
    """Disqualify a player or pair from the party or the tournament."""

    scope = serializers.ChoiceField(choices=[Ruling.Choice.PARTY, Ruling.Choice.TOURNAMENT])
    category = serializers.ChoiceField(
        choices=Penalty.Category.choices, default=Penalty.Category.OTHER
    )
    reason = serializers.CharField(max_length=300)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Rule."""
        data = self.validated_data
        return services.disqualify(
            party.pk,
            scope=data["scope"],
            category=data["category"],
            **self.offender(),
            **self.args(user, client_id),
        )


PARTY_ACTIONS: dict[str, type[ActionInput]] = {
    "start": StartInput,
    "pause": PauseInput,
    "resume": ResumeInput,
    "time-up": TimeUpInput,
    "finish": FinishInput,
    "check-in": CheckInInput,
    "deal": DealInput,
    "warning": WarningInput,
    "fine": FineInput,
    "out-of-turn": OutOfTurnInput,
    "false-pass": FalsePassInput,
    "touched-tile": TouchedTileInput,
    "no-show": NoShowInput,
    "disqualify": DisqualifyInput,
    "udl-violation": UdlViolationInput,
}
"""Every action on a party by its name in URLs."""


# -- helpers without side effects ---------------------------------------------------------------


class MoveAdviceInput(serializers.Serializer):
    """The move-time helper: a player's tiles and the open ends of the line."""

    hand = serializers.ListField(child=TileField(), allow_empty=True)
    open_ends = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=6),
        required=False,
        allow_null=True,
        min_length=2,
        max_length=2,
        help_text=_("The numbers at the two ends of the line; empty for an empty table."),
    )
    played = serializers.ListField(child=TileField(), required=False, default=list)


class MoveAdviceSerializer(serializers.Serializer):
    """How many moves, the time allowed, and whether a pass is false."""

    playable = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    moves = serializers.IntegerField()
    seconds_allowed = serializers.IntegerField()
    can_fish = serializers.BooleanField()
    pass_is_false = serializers.BooleanField()


class TilesPreviewInput(serializers.Serializer):
    """Tiles left per seat, for the sums before recording a deal."""

    tiles = serializers.DictField(child=serializers.ListField(child=TileField()))
    outcome = serializers.ChoiceField(choices=PREVIEW_OUTCOMES, default="fish")
    went_out = serializers.ChoiceField(choices=SEAT_CHOICES, required=False, allow_blank=True)
    winner = serializers.ChoiceField(
        choices=SIDE_OR_SEAT_CHOICES, required=False, allow_blank=True
    )


# -- output -----------------------------------------------------------------------------------


class ClockSerializer(serializers.Serializer):
    """The party's clock; the server's time is authoritative."""

    started_at = serializers.DateTimeField(allow_null=True)
    paused = serializers.BooleanField()
    seconds_left = serializers.IntegerField(allow_null=True)
    limit_seconds = serializers.IntegerField()
    time_expired_at = serializers.DateTimeField(allow_null=True)


class SidesSerializer(serializers.Serializer):
    """A number per pair."""

    a = serializers.IntegerField()
    b = serializers.IntegerField()


class TotalsSerializer(serializers.Serializer):
    """Totals derived from deals and fines, per party side (a player's points in his side's)."""

    points = SidesSerializer()
    deal_points = SidesSerializer()
    fine_points = SidesSerializer()
    by_side = serializers.DictField(
        child=serializers.IntegerField(),
        help_text=_("Points per side of the rule set: a, b; or per seat where every player "
                    "keeps his own score (Kozel, the Draw, Block and Classic games)."),
    )
    carry = serializers.IntegerField(
        help_text=_("Points of a drawn fish waiting for the next deal won (Kozel: fish for one).")
    )


class GameSerializer(serializers.Serializer):
    """One game of a match (UDL, All Fives)."""

    number = serializers.IntegerField()
    points = SidesSerializer()
    hands = serializers.IntegerField()
    closed = serializers.BooleanField()
    winner = serializers.CharField(allow_blank=True)


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
    goat = serializers.CharField(allow_blank=True, help_text=_("The Goat's seat (or pair)."))
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
    winner = serializers.CharField(allow_blank=True)
    loser = serializers.CharField(allow_blank=True, help_text=_("Kozel: the Goat."))
    rule_set = serializers.CharField()
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
    winner = serializers.CharField(allow_blank=True)
    points_a = serializers.IntegerField()
    points_b = serializers.IntegerField()
    running = SidesSerializer(allow_null=True)
    recorded_by = serializers.IntegerField(allow_null=True)
    game = serializers.IntegerField()
    scores = serializers.DictField(
        child=serializers.IntegerField(), help_text=_("Points per side of the rule set.")
    )
    plays = serializers.ListField(child=serializers.ListField())
    led = serializers.CharField(allow_blank=True)
    carry = serializers.IntegerField()
    running_by_side = serializers.DictField(child=serializers.IntegerField(), allow_null=True)


class SideRowSerializer(serializers.Serializer):
    """A side of the rule set (a pair, a single player, or a player's seat) with its score."""

    key = serializers.CharField()
    label = serializers.CharField()
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
    player = serializers.CharField(allow_blank=True)
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
    player = serializers.CharField(allow_blank=True)
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
    """Which pairs are present, and a raised no-show candidate."""

    a = serializers.BooleanField()
    b = serializers.BooleanField()
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
    table = serializers.IntegerField(allow_null=True)
    pairs = PairsSerializer()
    sides = SideRowSerializer(many=True)
    by_seat = serializers.BooleanField(
        help_text=_("Whether every player keeps his own score (the sides are the seats).")
    )
    deal_in_play = serializers.IntegerField()
    deals = DealRowSerializer(many=True)
    penalties = PenaltyRowSerializer(many=True)
    rulings = RulingRowSerializer(many=True)
    exposed = ExposedSerializer(many=True)
    check_in = CheckInSerializer()


class OverviewRowSerializer(CountsMixin, PartySummarySerializer):
    """A party in the referee's overview."""

    table = serializers.IntegerField(allow_null=True)
    pairs = PairsSerializer()


class OverviewSerializer(serializers.Serializer):
    """Every party of the round the referee runs."""

    tournament = serializers.DictField()
    round = serializers.IntegerField(allow_null=True)
    rounds = serializers.ListField(child=serializers.IntegerField())
    parties = OverviewRowSerializer(many=True)
    alert_count = serializers.IntegerField()


class EventSerializer(serializers.ModelSerializer):
    """An entry of the party's event log."""

    actor = serializers.CharField(source="actor.username", default=None, read_only=True)
    summary = serializers.CharField(read_only=True)

    class Meta:
        model = PartyEvent
        fields = ["seq", "at", "actor", "kind", "summary", "data", "reason"]


class ActionResultSerializer(serializers.Serializer):
    """The party after an action, and the record the action made or changed."""

    party = PartySummarySerializer()
    record = serializers.DictField(allow_null=True)


class RefereeSettingsSerializer(serializers.ModelSerializer):
    """The tournament's penalty rules beyond its regulations."""

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


RECORD_FIELDS: dict[type, tuple[str, tuple[str, ...]]] = {
    Deal: (
        "deal",
        ("number", "outcome", "winner", "points_a", "points_b", "scores", "game", "plays", "led"),
    ),
    Penalty: ("penalty", ("kind", "category", "side", "points", "mode", "cancelled")),
    Ruling: ("ruling", ("kind", "side", "seat", "choice", "deal_id", "penalty_id")),
}
"""What an action's answer says about the record it made or changed."""


def record_data(record: Any) -> dict[str, Any] | None:
    """The record an action made or changed, as plain data (None for the party itself)."""
    for model, (name, fields) in RECORD_FIELDS.items():
        if isinstance(record, model):
            values = {field.removesuffix("_id"): getattr(record, field) for field in fields}
            return {"type": name, "id": record.pk, **values}
    return None


def form_data(post: Any) -> dict[str, Any]:
    """A page form's flat fields in the shape the action serializers take.

    ``points`` with ``winner`` (quick entry), ``points_a``/``points_b``, ``pips_<seat>``,
    ``tiles_<seat>`` (several values), ``hand``/``played`` (several values) and
    ``end_1``/``end_2``; empty values are left out.
    """
    data: dict[str, Any] = {}
    for key in post:
        value = post.get(key)
        if key.startswith(("pips_", "tiles_", "points_", "end_")) or key in ("hand", "played"):
            continue
        if value not in ("", None):
            data[key] = value
    pips = {seat: post.get(f"pips_{seat}") for seat in SEATS if post.get(f"pips_{seat}")}
    if pips:
        data["pips"] = pips
    tiles = {seat: post.getlist(f"tiles_{seat}") for seat in SEATS if post.getlist(f"tiles_{seat}")}
    if tiles:
        data["tiles"] = tiles
    if post.get("points_a") or post.get("points_b"):
        data["points"] = {side: post.get(f"points_{side}") or 0 for side in ("a", "b")}
    elif "points" in data:
        winner = data.get("winner") or data.get("went_out", " ")[0]
        quick = data.pop("points")
        if winner in ("a", "b"):
            data["points"] = {winner: quick, "b" if winner == "a" else "a": 0}
    for key in ("hand", "played"):
        if key in post:
            data[key] = post.getlist(key)
    ends = [post.get("end_1"), post.get("end_2")]
    if all(end not in (None, "") for end in ends):
        data["open_ends"] = ends
    return data
