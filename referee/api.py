"""The referee desk's API: a party's actions (clock, deals, penalties, rulings), corrections,
and the desk's tournament resources under /api/v1/referee/.

``PartyActions``, ``DealCorrections`` and ``PenaltyCorrections`` are mixed into the one party,
deal and penalty resources of ``tournaments.api.parties``. Every unsafe request may carry
an ``Idempotency-Key`` (a retry gets the stored response) and a ``version`` (a stale one is
refused with 409). Permissions come from ``scoring.access.permissions``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import DefaultRouter

from referee import access, overview, services, state
from referee.corrections import record_to_correct
from referee.rulings import parse_tile, preview_hands
from referee.serializers import (
    PARTY_ACTIONS,
    ActionInput,
    ActionResultSerializer,
    AnnulDealInput,
    CancelPenaltyInput,
    CorrectDealInput,
    EventSerializer,
    MoveAdviceInput,
    MoveAdviceSerializer,
    OverviewSerializer,
    RefereeRoleSerializer,
    RefereeSettingsSerializer,
    TilesPreviewInput,
    TilesPreviewSerializer,
    record_data,
    represent,
    winner_and_went_out,
)
from referee.sides import who_names
from scoring.access.idempotency import IdempotentMixin, request_key
from scoring.access.permissions import request_grants
from scoring.access.query import KnownQueryMixin
from scoring.core.errors import number_parameter, translate_engine_error
from scoring.models import Deal, Party, Penalty, TournamentRole
from scoring.party.done import done_of
from scoring.rules import RuleError, get_rule_set


def run_action(
    request: Request, party: Party, input_class: type[ActionInput], record: Any = None
) -> Response:
    """Validate an action's input, perform it, answer with the party and the record."""
    serializer = input_class(data=request.data, context={"party": party, "strict": True})
    serializer.is_valid(raise_exception=True)
    done = done_of(serializer.perform(party, request.user, request_key(request), record))
    data = {"party": state.fresh_summary(party.pk, done), "record": record_data(done.record)}
    return Response(
        represent(ActionResultSerializer, data),
        status=status.HTTP_201_CREATED if serializer.creates else status.HTTP_200_OK,
    )


def _engine_call(call: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a rule-engine helper; its refusal becomes a 400 naming the field."""
    try:
        return call(*args, **kwargs)
    except RuleError as exc:
        raise translate_engine_error(exc) from exc


def advise(data: dict[str, Any], party: Party) -> dict[str, Any]:
    """The move-time helper's answer for validated input, by the party's rule set's time per
    move (a 400 naming ``rule_set`` where its rules set none)."""
    ends = data.get("open_ends")
    tournament = party.round.tournament
    advice = _engine_call(
        tournament.engine.move_advice,
        [_engine_call(parse_tile, t, "hand") for t in data["hand"]],
        tuple(ends) if ends else None,
        [_engine_call(parse_tile, t, "played") for t in data.get("played") or []],
        tournament.regulations.rules_config(),
        boneyard_empty=data.get("boneyard_empty", False),
    )
    return {
        "playable": [list(tile) for tile in advice.playable],
        "moves": advice.moves,
        "seconds_allowed": advice.seconds_allowed,
        "can_fish": advice.can_fish,
        "pass_is_false": advice.pass_is_false,
        "must_draw": advice.must_draw,
        "seconds_after_draw": advice.seconds_after_draw,
        "rule": _(advice.rule) if advice.rule else "",
    }


def preview(party: Party, data: dict[str, Any]) -> Any:
    """The sums of the tiles picked for a deal, scored by the party's rule set."""
    tournament = party.round.tournament
    return _engine_call(
        preview_hands,
        get_rule_set(tournament.rule_set),
        tournament.regulations.rules_config(),
        data["tiles"],
        outcome=data.get("outcome", "fish"),
        **winner_and_went_out(data, party),
    )


class PartyActions(IdempotentMixin):
    """A party's actions for its referee, its event log and the desk's helpers (a mixin of the
    party resource: ``/api/v1/parties/{id}/<action>/``)."""

    @extend_schema(responses=EventSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def events(self, request: Request, pk: str) -> Response:
        """The party's event log, newest first: who, when, what, why."""
        party = access.party_for_referee(
            request.user, int(pk), grants=request_grants(request)
        )
        context = {"request": request, "names": who_names(party)}
        return Response(EventSerializer(state.events(party), many=True, context=context).data)

    @extend_schema(request=MoveAdviceInput, responses=MoveAdviceSerializer)
    @action(detail=True, methods=["post"], url_path="move-advice", url_name="move-advice")
    def move_advice(self, request: Request, pk: str) -> Response:
        """Moves possible and the time allowed by the party's rule set (sport: 5 s, 20 s, 1 min
        for a fish; UDL: 15 s, 15 s once a drawn tile fits), a false pass or a draw due."""
        party = access.party_for_referee(request.user, int(pk), full=False)
        serializer = MoveAdviceInput(data=request.data, context={"strict": True})
        serializer.is_valid(raise_exception=True)
        return Response(advise(serializer.validated_data, party))

    @extend_schema(request=TilesPreviewInput, responses={200: TilesPreviewSerializer})
    @action(detail=True, methods=["post"], url_path="tiles-preview", url_name="tiles-preview")
    def tiles_preview(self, request: Request, pk: str) -> Response:
        """The pips of the tiles picked per player and pair, and the deal's winner and points."""
        party = access.party_for_referee(request.user, int(pk), full=False)
        serializer = TilesPreviewInput(data=request.data,
                                       context={"party": party, "strict": True})
        serializer.is_valid(raise_exception=True)
        result = preview(party, serializer.validated_data)
        error = translate_engine_error(result.error).message if result.error else ""
        winner = result.winner or ""
        return Response(
            {
                "pips": result.pips,
                "pips_by_side": result.by_side,
                "outcome": result.outcome,
                "side": winner if winner in ("a", "b") else winner[:1],
                "seat": "" if winner in ("", "a", "b") else winner,
                "points": result.points,
                "error": error,
            }
        )

    def act(self, request: Request, pk: str, input_class: type[ActionInput]) -> Response:
        """Run one party action for its referee (the party read once, with its lock)."""
        with access.party_for_action(
            request.user, int(pk), request_grants(request)
        ) as party:
            return run_action(request, party, input_class)


def _party_action(name: str, input_class: type[ActionInput]) -> Any:
    """The API endpoint of one party action (POST /api/v1/parties/{id}/<name>/)."""
    code = status.HTTP_201_CREATED if input_class.creates else status.HTTP_200_OK

    def endpoint(self: PartyActions, request: Request, pk: str) -> Response:
        return self.act(request, pk, input_class)

    endpoint.__name__ = name.replace("-", "_")
    endpoint.__doc__ = input_class.__doc__
    endpoint = action(detail=True, methods=["post"], url_path=name, url_name=name)(endpoint)
    return extend_schema(
        request=input_class,
        responses={code: ActionResultSerializer},
        operation_id=f"parties_{endpoint.__name__}",
    )(endpoint)


for _name, _input in PARTY_ACTIONS.items():
    setattr(PartyActions, _name.replace("-", "_"), _party_action(_name, _input))


class DealCorrections(IdempotentMixin):
    """Corrections of a recorded deal, under the pages' rule (``referee.corrections``): its
    referee, or the chief referee; a locked party only by the chief referee's amendment."""

    def _change(self, request: Request, pk: str, input_class: type[ActionInput]) -> Response:
        """Run a change of a deal the user may correct."""
        deal, party = record_to_correct(request.user, Deal, int(pk), "recorded_by_id")
        return run_action(request, party, input_class, deal)

    @extend_schema(
        request=CorrectDealInput,
        responses=ActionResultSerializer,
    )
    @action(detail=True, methods=["post"])
    def correct(self, request: Request, pk: str) -> Response:
        """Correct a deal, with a reason; the old values stay in the event log."""
        return self._change(request, pk, CorrectDealInput)

    @extend_schema(
        request=AnnulDealInput,
        responses=ActionResultSerializer,
    )
    @action(detail=True, methods=["post"])
    def annul(self, request: Request, pk: str) -> Response:
        """Annul a deal, with a reason: it scores nothing and stays on record."""
        return self._change(request, pk, AnnulDealInput)


class PenaltyCorrections(IdempotentMixin):
    """Cancelling a warning or fine given by mistake, under the pages' rule: its referee, or
    the chief referee; a locked party only by the chief referee's amendment."""

    @extend_schema(
        request=CancelPenaltyInput,
        responses=ActionResultSerializer,
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk: str) -> Response:
        """Cancel a penalty, with a reason; it stays on record, marked cancelled."""
        penalty, party = record_to_correct(request.user, Penalty, int(pk), "created_by_id")
        return run_action(request, party, CancelPenaltyInput, penalty)


class RefereeTournamentViewSet(KnownQueryMixin, IdempotentMixin, viewsets.ViewSet):
    """A tournament's referee desk: the overview, its referees and penalty settings."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses=OverviewSerializer,
        parameters=[OpenApiParameter("round_number", int, required=False,
                                     description="The round's number (the live round if "
                                     "absent).")],
    )
    @action(detail=True, methods=["get"])
    def overview(self, request: Request, pk: str) -> Response:
        """Every party of the round the user referees, with scores, clocks and alerts."""
        tournament = access.tournament_for_referee(request.user, pk=int(pk))
        number = number_parameter(request.query_params, "round_number")
        data = overview.round_overview(request.user, tournament, number)
        return Response(OverviewSerializer(data).data)

    @extend_schema(methods=["GET"], responses=RefereeRoleSerializer(many=True))
    @extend_schema(
        methods=["POST"], request=RefereeRoleSerializer, responses={201: RefereeRoleSerializer}
    )
    @action(detail=True, methods=["get", "post"])
    def referees(self, request: Request, pk: str) -> Response:
        """The tournament's referees (organizers assign them, optionally to tables)."""
        tournament = access.tournament_for_referee(request.user, manage=True, pk=int(pk))
        context = {"tournament": tournament}
        if request.method == "POST":
            serializer = RefereeRoleSerializer(data=request.data, context=context)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            role = services.assign_referee(
                tournament, user=data["user"], role=data["role"], tables=data.get("tables")
            )
            return Response(RefereeRoleSerializer(role).data, status=status.HTTP_201_CREATED)
        roles = referee_roles(tournament.pk)
        return Response(RefereeRoleSerializer(roles, many=True, context=context).data)

    @extend_schema(methods=["GET"], responses=RefereeSettingsSerializer)
    @extend_schema(
        methods=["PUT"], request=RefereeSettingsSerializer, responses=RefereeSettingsSerializer
    )
    @action(detail=True, methods=["get", "put"], url_path="referee-settings")
    def referee_settings(self, request: Request, pk: str) -> Response:
        """Penalty rules beyond the regulations (the UDL preset: paid slow play)."""
        tournament = access.tournament_for_referee(request.user, manage=True, pk=int(pk))
        found = services.referee_settings(tournament)
        if request.method == "PUT":
            serializer = RefereeSettingsSerializer(found, data=request.data)
            serializer.is_valid(raise_exception=True)
            found = services.save_referee_settings(tournament, **serializer.validated_data)
        return Response(RefereeSettingsSerializer(found).data)


def referee_roles(tournament_id: int) -> QuerySet[TournamentRole]:
    """The referee and chief-referee assignments of a tournament."""
    return (
        TournamentRole.objects.filter(
            tournament_id=tournament_id,
            role__in=[TournamentRole.Role.REFEREE, TournamentRole.Role.CHIEF],
        )
        .select_related("user")
        .prefetch_related("tables")
        .order_by("role", "user__username")
    )


class RefereeRoleViewSet(
    KnownQueryMixin, IdempotentMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet
):
    """Removing a referee from a tournament (its organizers)."""

    permission_classes = [IsAuthenticated]
    serializer_class = RefereeRoleSerializer
    queryset = TournamentRole.objects.none()

    def get_object(self) -> TournamentRole:
        """The assignment, if the user organizes its tournament."""
        role = get_object_or_404(
            TournamentRole.objects.exclude(role=TournamentRole.Role.ORGANIZER), pk=self.kwargs["pk"]
        )
        access.tournament_for_referee(self.request.user, manage=True, pk=role.tournament_id)
        return role


router = DefaultRouter()
router.include_root_view = False
router.register("referee/tournaments", RefereeTournamentViewSet, basename="referee-tournament")
router.register("referee/roles", RefereeRoleViewSet, basename="referee-role")

urlpatterns = router.urls
