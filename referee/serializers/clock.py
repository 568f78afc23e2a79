"""The desk's clock and table actions, one input serializer each: start, pause and resume,
time up (the party's, the game's), finish, check-in and the start-of-party draw.

Each validates a request and ``perform``s it by calling one service (as ``actions``).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from referee import services
from referee.serializers.inputs import ActionInput, WhoInput
from scoring.models import Party


class StartInput(ActionInput):
    """Start the party's clock."""

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Start."""
        return services.start_party(party.pk, **self.args(user))


class PauseInput(ActionInput):
    """Pause the clock at once; the reason is optional (it may be given afterwards)."""

    reason = serializers.CharField(max_length=300, required=False, allow_blank=True)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Pause."""
        return services.pause_clock(
            party.pk, reason=self.validated_data.get("reason", ""), **self.args(user)
        )


class PauseReasonInput(ActionInput):
    """The reason of the pause in progress, given after the clock stopped."""

    reason = serializers.CharField(max_length=300)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Record the reason."""
        return services.explain_pause(
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


class GameTimeUpInput(ActionInput):
    """The referee declares the game in play out of time (a match of timed games only)."""

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Mark the game's time as run out."""
        return services.mark_game_time_expired(party.pk, **self.args(user))


class FinishInput(ActionInput):
    """Finish a party the regulations have decided."""

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Finish."""
        return services.finish_party(party.pk, **self.args(user))


class CheckInInput(WhoInput, ActionInput):
    """Mark a player (``seat``) or every player of a side present at the table (or not)."""

    present = serializers.BooleanField(default=True)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Check in."""
        data = self.validated_data
        return services.check_in(
            party.pk, side=data["side"], seat=data.get("seat") or "", present=data["present"],
            **self.args(user),
        )


class FirstMoverInput(WhoInput, ActionInput):
    """The start-of-party draw: the player on ``seat`` makes the first move (leads deal 1)."""

    who = "seat"

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Record the draw."""
        return services.record_first_mover(
            party.pk, seat=self.validated_data["seat"], **self.args(user)
        )
