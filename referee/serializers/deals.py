"""The one deal stack of pages and API: entering, correcting and annulling a deal.

``DealFields`` is the one validator of a deal's values; the desk's screen, its correction
editor, the party page and the API all send their deals through these inputs.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from referee.rulings import hand_limit, pips_of_hands, read_hands, scores_by_seat, takes_tiles
from referee.serializers.inputs import (
    DEAL_ENTRY_OUTCOMES,
    PREVIEW_OUTCOMES,
    SEAT_CHOICES,
    ActionInput,
    CreatingInput,
    PlaysField,
    ReasonInput,
    TileField,
    WhoInput,
    engine_error,
)
from scoring.core.errors import ServiceError
from scoring.models import (
    MAX_DEAL_POINTS,
    Party,
)
from scoring.party import deals as scoring
from scoring.rules import SEATS, RuleError, RuleSet
from scoring.rules.moves import HAND_SIZE


def winner_and_went_out(data: dict[str, Any], party: Party | None) -> dict[str, str | None]:
    """The services' ``winner`` and ``went_out`` from the API's ``side`` and ``seat``.

    A domino: ``seat`` went out. The deal's winner is ``side`` (its seat's side), or the
    ``seat`` itself where every player keeps his own score.
    """
    side, seat = data.get("side") or "", data.get("seat") or ""
    by_seat = False
    if party is not None:
        tournament = party.round.tournament
        by_seat = scores_by_seat(tournament.engine, tournament.regulations.rules_config())
    return {
        "winner": (seat if by_seat else side) or seat or side or None,
        "went_out": seat if seat and data.get("outcome") == "domino" else None,
    }


VOCABULARY = {"winner": "side", "went_out": "seat"}
"""The services' names of a deal's fields, by the API's name of the same thing."""


def rename_error(err: ServiceError, data: dict[str, Any]) -> None:
    """A service's refusal naming ``winner``/``went_out`` renamed to the field the client sent."""
    field = VOCABULARY.get(err.field)
    if field == "side" and data.get("seat") and not data.get("side"):
        field = "seat"
    err.field = field or err.field


class DealFields(WhoInput):
    """How a deal ended: quick (outcome, side or seat, points) or detailed (pips or tiles).

    ``side`` is the side that won the deal; ``seat`` the player who went out (a domino), or
    the player who won where every player keeps his own score (Kozel, the Draw, Block and
    Classic games).
    """

    who: ClassVar[str] = "any"
    outcome = serializers.ChoiceField(
        choices=DEAL_ENTRY_OUTCOMES,
        help_text=_("domino, fish, or referee (the referee ended the deal and gives points)."),
    )
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
        """Side and seat checked (``check_who``); tiles give the pips: none twice, summed.

        With the party in the context (``context["party"]``), the seats and hand sizes are its
        rule set's, and the games that read tiles themselves get the pips of the hands entered
        only (the others' pips are entered, or missing).
        """
        attrs = super().validate(attrs)
        tiles = attrs.get("tiles")
        if tiles:
            party: Party | None = self.context.get("party")
            rule_set: RuleSet | None = None
            seats: tuple[str, ...] = SEATS
            size: int | None = HAND_SIZE
            if party is not None:
                tournament = party.round.tournament
                rule_set, cfg = tournament.engine, tournament.regulations.rules_config()
                seats, size = rule_set.seats_for(cfg), hand_limit(rule_set, cfg)
            try:
                hands = read_hands(tiles, seats, size)
            except RuleError as exc:
                raise engine_error(exc) from exc
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
            **winner_and_went_out(data, self.context.get("party")),
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
    fish_by = serializers.ChoiceField(
        choices=SEAT_CHOICES, required=False, allow_blank=True,
        help_text=_("A fish: the seat of the player who made it (Kozel: he leads the next deal)."),
    )
    play_ended_before_time_up = serializers.BooleanField(
        required=False,
        default=False,
        help_text=_(
            "The party's time ran out while this deal was counted or the tiles shuffled: its "
            "play ended in time, so it is not the last deal."
        ),
    )

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Record the deal."""
        data = self.validated_data
        try:
            return scoring.record_deal(
                party.pk,
                **self.deal_kwargs(),
                tiles=data.get("tiles") or None,
                number=data.get("number"),
                note=data.get("note", ""),
                play_ended_before_time_up=data.get("play_ended_before_time_up", False),
                fish_by=data.get("fish_by") or None,
                entered_at=data.get("entered_at"),
                **self.args(user, client_id),
            )
        except ServiceError as err:
            rename_error(err, data)
            raise


class CorrectDealInput(DealFields, ActionInput):
    """Correct a recorded deal, with a reason."""

    reason = serializers.CharField(max_length=300)

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Correct the deal."""
        try:
            return scoring.correct_deal(
                record.pk,
                reason=self.validated_data["reason"],
                **self.deal_kwargs(),
                tiles=self.validated_data.get("tiles") or None,
                **self.args(user),
            )
        except ServiceError as err:
            rename_error(err, self.validated_data)
            raise


class AnnulDealInput(ReasonInput):
    """Annul a recorded deal, with a reason."""

    def perform(self, party: Party, user: Any, client_id: str, record: Any = None) -> Any:
        """Annul the deal."""
        return scoring.annul_deal(
            record.pk, reason=self.validated_data["reason"], **self.args(user)
        )


class TilesPreviewInput(WhoInput):
    """Tiles left per seat, for the sums before recording a deal (``side``/``seat`` as a deal's)."""

    who: ClassVar[str] = "any"
    tiles = serializers.DictField(child=serializers.ListField(child=TileField()))
    outcome = serializers.ChoiceField(choices=PREVIEW_OUTCOMES, default="fish")
