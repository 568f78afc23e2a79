"""What every desk action takes: the shared fields, the base inputs, the page forms' shape.

``PlaysField`` holds the one parser of scoring plays ("a1:10 b1:15" or a list of pairs) that the
API, the referee desk and the party page use.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from referee import services
from scoring.core.errors import translate_engine_error
from scoring.models import (
    Party,
)
from scoring.party.plays import parse_plays
from scoring.rules import ALL_REDEAL_REASONS, RULE_SETS, SEATS, RuleError

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
UDL_VIOLATION_CHOICES = [
    (code, _(label))  # noqa: INT001 - the rule set's catalogue is marked for translation
    for rule_set in RULE_SETS.values()
    for code, label in rule_set.violations.items()
]
"""Every violation code of the rule sets' catalogues (only UDL has one today)."""
REDEAL_REASON_CHOICES = [
    (code, _(label))  # noqa: INT001 - the rule sets' reasons are marked for translation
    for code, label in ALL_REDEAL_REASONS.items()
]
"""Every reason a rule set deals a hand again (only Kozel has some today)."""
PREVIEW_OUTCOMES = [("domino", "domino"), ("fish", "fish")]
WARNING_CATEGORY_CHOICES = [(c.value, c.label) for c in services.WARNING_CATEGORIES]


SIDE_HELP = _('The side concerned: "a" or "b" (pair A or B, or the single player of a side).')
SEAT_HELP = _('The player concerned, by his seat: "a1", "b1", "a2", "b2" (the game\'s seats '
              "only); his side follows from it.")


def check_who(attrs: dict[str, Any], party: Party | None, need: str) -> dict[str, Any]:
    """Check ``side`` and ``seat`` against the party's game; the side follows from the seat.

    ``need`` is ``"seat"`` (the player must be named), ``"either"`` (a side or a seat) or
    ``"any"`` (both optional). Refusals name the field at fault.
    """
    side, seat = attrs.get("side") or "", attrs.get("seat") or ""
    if need == "seat" and not seat:
        raise serializers.ValidationError({"seat": [_("Name the player's seat.")]})
    if need == "either" and not (side or seat):
        raise serializers.ValidationError({"side": [_("Name the side or the player's seat.")]})
    if party is not None:
        tournament = party.round.tournament
        seats = tournament.engine.seats_for(tournament.regulations.rules_config())
        if seat and seat not in seats:
            raise serializers.ValidationError({"seat": [
                _("This game has no seat %(seat)s (its seats: %(seats)s).")
                % {"seat": seat, "seats": ", ".join(seats)}
            ]})
        if side == "b" and party.pair_b_id is None:
            raise serializers.ValidationError({"side": [_("This party is a bye: no side b.")]})
    if seat and side and seat[0] != side:
        raise serializers.ValidationError({"seat": [
            _("Seat %(seat)s is not on side %(side)s.") % {"seat": seat, "side": side}
        ]})
    if seat:
        attrs["side"] = seat[0]
    return attrs


_PROTOTYPES: dict[type, dict[str, serializers.Field]] = {}
"""Each input class's declared fields, deep-copied once (``StrictInput.get_fields``)."""


def _fresh(field: serializers.Field) -> serializers.Field:
    """A field for one input: the prototype copied shallowly, its child (a list's or dict's
    items, bound already) too with the copy as its parent; ``bind`` then gives the copy its
    name and parent."""
    new = copy.copy(field)
    child = field.__dict__.get("child")
    if child is not None:
        fresh = new.__dict__["child"] = _fresh(child)
        # DRF binds a list's or dict's child to that field; the stubs say a parent is a serializer
        fresh.parent = new  # type: ignore[assignment]
    return new


class StrictInput(serializers.Serializer):
    """An input that refuses the fields it does not take when the API asks for it."""

    def get_fields(self) -> dict[str, serializers.Field]:
        """The declared fields, copied from a prototype made once per class.

        DRF deep-copies the declarations for every input, which makes every field again from
        its arguments (a third of a millisecond for a deal's 14); a field holds nothing of a
        request but its name and parent, which ``bind`` sets on the copy.
        """
        prototype = _PROTOTYPES.get(type(self))
        if prototype is None:
            prototype = _PROTOTYPES[type(self)] = copy.deepcopy(self._declared_fields)
        return {name: _fresh(field) for name, field in prototype.items()}

    def to_internal_value(self, data: Any) -> Any:
        """Refuse fields it does not take when the API asks (``context["strict"]``).

        A misspelt or old name (``winner``, ``absent_side``) would otherwise be dropped
        silently; page forms carry other fields of theirs and are not strict.
        """
        if self.context.get("strict") and hasattr(data, "keys"):
            unknown = sorted(set(data.keys()) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({
                    name: [_("Unknown field; this action takes: %(fields)s.")
                           % {"fields": ", ".join(self.fields)}]
                    for name in unknown
                })
        return super().to_internal_value(data)


class WhoInput(StrictInput):
    """Whom an action concerns, named the same way by every action: ``side`` and ``seat``."""

    side = serializers.ChoiceField(
        choices=SIDE_CHOICES, required=False, allow_blank=True, help_text=SIDE_HELP
    )
    seat = serializers.ChoiceField(
        choices=SEAT_CHOICES, required=False, allow_blank=True, help_text=SEAT_HELP
    )
    who: ClassVar[str] = "either"
    """What must be named: "seat", "either" (a side or a seat) or "any" (nothing)."""

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The side and seat checked against the party's game (``check_who``)."""
        return check_who(super().validate(attrs), self.context.get("party"), self.who)


def engine_error(exc: RuleError) -> serializers.ValidationError:
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
            plays = parse_plays(data)
            if plays is None:
                self.fail("invalid")
            return plays
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


class AwareDateTimeField(serializers.DateTimeField):
    """An ISO 8601 date and time that names its time zone (a bare local time is refused)."""

    default_error_messages = {
        "naive": _(
            "Give the time with its time zone, e.g. 2026-05-01T10:00:00+03:00."
        ),
    }

    def to_internal_value(self, value: Any) -> Any:
        """The moment; a string without a time zone is refused."""
        if isinstance(value, str):
            try:
                parsed = parse_datetime(value.strip())
            except ValueError:
                parsed = None
            if parsed is not None and parsed.tzinfo is None:
                self.fail("naive")
        return super().to_internal_value(value)


class ActionInput(StrictInput):
    """The fields every party action takes: the version the client last saw."""

    version = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text=_("The party version the client last saw; a stale one is refused with 409."),
    )
    entered_at = AwareDateTimeField(
        required=False,
        allow_null=True,
        help_text=_(
            "When the referee entered the action on his device, ISO 8601 with its offset, on the "
            "server's clock (the device's clock corrected by its measured offset). A deal's "
            "decides whether it was played before or after the party's time ran out, however "
            "late it arrives; one in the future or before the party's start (beyond a few "
            "seconds' tolerance) is refused with 400 naming entered_at. Without it the moment "
            "the request arrives counts. Every other action accepts it too."
        ),
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


class ReasonInput(ActionInput):
    """A change that needs only a reason."""

    reason = serializers.CharField(max_length=300)


def form_data(post: Any) -> dict[str, Any]:
    """A page form's flat fields in the shape the action serializers take.

    ``points`` with ``winner`` (quick entry), ``points_a``/``points_b``, ``pips_<seat>``,
    ``tiles_<seat>`` (several values), ``hand``/``played`` (several values) and
    ``end_1`` … ``end_4``; empty values are left out.
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
    went_out, winner = data.pop("went_out", ""), data.pop("winner", "")
    if went_out or winner in SEATS:  # the deal forms' names, in the API's vocabulary
        data["seat"] = went_out or winner
    if winner in ("a", "b"):
        data["side"] = winner
    if post.get("points_a") or post.get("points_b"):
        data["points"] = {side: post.get(f"points_{side}") or 0 for side in ("a", "b")}
    elif "points" in data:
        side = data.get("side") or data.get("seat", " ")[0]
        quick = data.pop("points")
        if side in ("a", "b"):
            data["points"] = {side: quick, "b" if side == "a" else "a": 0}
    for key in ("hand", "played"):
        if key in post:
            data[key] = post.getlist(key)
    ends = [post.get(f"end_{n}") for n in range(1, 5)]
    ends = [end for end in ends if end not in (None, "")]
    if len(ends) >= 2:
        data["open_ends"] = ends
    return data
