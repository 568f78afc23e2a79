"""The desk's other actions, one input serializer each: undo, penalties and rulings (the
clock's are ``clock``), and every action by its name in URLs (``PARTY_ACTIONS``).

Each validates a request (from the API, or a page form turned into the same shape by
``form_data``) and ``perform``s it by calling one service.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from referee import services
from referee.serializers.clock import (
    CheckInInput,
    FinishInput,
    FirstMoverInput,
    GameTimeUpInput,
    PauseInput,
    PauseReasonInput,
    ResumeInput,
    StartInput,
    TimeUpInput,
)
from referee.serializers.deals import DealInput
from referee.serializers.inputs import (
    REDEAL_REASON_CHOICES,
    UDL_VIOLATION_CHOICES,
    WARNING_CATEGORY_CHOICES,
    ActionInput,
    CreatingInput,
    ReasonInput,
    StrictInput,
    TileField,
    WhoInput,
)
from scoring.models import (
    MAX_DEAL_POINTS,
    Party,
    Penalty,
    Ruling,
)


class UndoInput(ActionInput):
    """Undo an action just made: a deal (annulled), a warning or fine (cancelled), a ruling
    without lasting consequence; only its referee, within the undo window."""

    record = serializers.ChoiceField(
        choices=[(name, name) for name in services.UNDO_RECORDS],
        help_text=_("What the action made: a deal, a penalty or a ruling."),
    )
    id = serializers.IntegerField(
        min_value=1, max_value=2**63 - 1, help_text=_("The id of that record.")
    )

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Undo."""
        data = self.validated_data
        return services.undo_action(
            party.pk, record=data["record"], record_id=data["id"], **self.args(user)
        )


class CancelPenaltyInput(ReasonInput):
    """Cancel a warning or fine given by mistake, with a reason."""

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Cancel the penalty."""
        return services.cancel_penalty(
            record.pk, reason=self.validated_data["reason"], **self.args(user)
        )


class OffenderInput(WhoInput, CreatingInput):
    """Who is at fault: a side, or the player by his seat (or id); and why."""

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


class SeatRulingInput(WhoInput, CreatingInput):
    """A ruling about the player on a seat."""

    who: ClassVar[str] = "seat"
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


class NoShowInput(WhoInput, CreatingInput):
    """The absent side forfeits (after the regulations' wait): ``side`` is the absent one."""

    reason = serializers.CharField(required=False, allow_blank=True, max_length=300)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Rule."""
        data = self.validated_data
        return services.rule_no_show(
            party.pk,
            absent_side=data["side"],
            reason=data.get("reason", ""),
            **self.args(user, client_id),
        )


class PlayerTimeoutInput(WhoInput, CreatingInput):
    """Kozel: the player on ``seat`` timed out; the game stops by his fault (not the clock)."""

    who = "seat"
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Rule."""
        data = self.validated_data
        return services.rule_player_timeout(
            party.pk, seat=data["seat"], reason=data.get("reason", ""),
            **self.args(user, client_id),
        )


class RedealInput(WhoInput, CreatingInput):
    """A hand dealt again (Kozel: five or more doubles, or six or more tiles of one number).

    The player on ``seat`` holds it; the referee enters its tiles (``hand``), which the rules
    check, or confirms the reason (``redeal_reason``). Logged with the deal in play, whose
    number stays; nothing is scored.
    """

    who = "seat"
    hand = serializers.ListField(
        child=TileField(), required=False, allow_empty=True, max_length=28,
        help_text=_("The hand's tiles (the offending ones suffice), checked by the rules."),
    )
    redeal_reason = serializers.ChoiceField(
        choices=REDEAL_REASON_CHOICES, required=False, allow_blank=True,
        help_text=_("The reason the referee confirms without entering the tiles (with them: "
                    "one they show)."),
    )
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Rule."""
        data = self.validated_data
        return services.rule_redeal(
            party.pk, seat=data["seat"], hand=data.get("hand"),
            redeal_reason=data.get("redeal_reason") or "", reason=data.get("reason", ""),
            **self.args(user, client_id),
        )


class UdlViolationInput(WhoInput, CreatingInput):
    """A violation of the UDL tournament rules, with the consequence the rules give it.

    Slow play: a warning, then the regulations' points (20) paid to the opponent each time;
    out-of-turn play: the tile is exposed; hiding tiles: disqualified from the match;
    slamming and leaving: disqualified from the tournament; misconduct: removed from it.
    """

    violation = serializers.ChoiceField(choices=UDL_VIOLATION_CHOICES)
    tile = TileField(required=False, allow_null=True)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300)

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
    "pause-reason": PauseReasonInput,
    "resume": ResumeInput,
    "time-up": TimeUpInput,
    "game-time-up": GameTimeUpInput,
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
    "player-timeout": PlayerTimeoutInput,
    "redeal": RedealInput,
    "first-mover": FirstMoverInput,
    "udl-violation": UdlViolationInput,
    "undo": UndoInput,
}
"""Every action on a party by its name in URLs."""


# -- helpers without side effects ---------------------------------------------------------------


class MoveAdviceInput(StrictInput):
    """The move-time helper: a player's tiles and the open ends of the line."""

    hand = serializers.ListField(child=TileField(), allow_empty=True)
    open_ends = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=6),
        required=False,
        allow_null=True,
        min_length=2,
        max_length=4,
        help_text=_(
            "The numbers at the open ends of the line (two; up to four around a spinner in "
            "All Fives); empty for an empty table."
        ),
    )
    played = serializers.ListField(child=TileField(), required=False, default=list)
    boneyard_empty = serializers.BooleanField(
        required=False,
        default=False,
        help_text=_("Games with a boneyard: nothing is left to draw, so a player without a "
                    "move passes."),
    )


class MoveAdviceSerializer(serializers.Serializer):
    """How many moves, the time allowed, and whether a pass is false."""

    playable = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    moves = serializers.IntegerField()
    seconds_allowed = serializers.IntegerField()
    can_fish = serializers.BooleanField()
    pass_is_false = serializers.BooleanField()
    must_draw = serializers.BooleanField(
        help_text=_("No move, and the boneyard has tiles: the player draws.")
    )
    seconds_after_draw = serializers.IntegerField(
        allow_null=True, help_text=_("Seconds once a playable tile is drawn (UDL).")
    )
    rule = serializers.CharField(help_text=_("The rule set's time per move in words."))
