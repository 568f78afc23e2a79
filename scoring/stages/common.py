"""What every stage service shares: the tournament's stages, the qualifying order, the engine's
errors as service errors."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, Max, OuterRef, QuerySet, Subquery
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import Match, Pair, Party, Regulations, Round, Stage, Tournament
from scoring.ranking.results import standings_table


def engine_error(err: Any) -> ServiceError:
    """A draw engine's ``FieldError`` as a service error on its field, translated."""
    message = _(err.message) % err.params if err.params else _(err.message)
    return ServiceError(getattr(err, "field", "stage"), message)


def qualifying_format(tournament: Tournament) -> str:
    """The stage format of a tournament's rounds as its regulations draw them."""
    if tournament.format == Tournament.Format.INDIVIDUAL:
        return Stage.Format.INDIVIDUAL
    if tournament.regulations.pairing_system == Regulations.PairingSystem.ROUND_ROBIN:
        return Stage.Format.ROUND_ROBIN
    return Stage.Format.SWISS


def first_stage(tournament: Tournament) -> Stage:
    """The tournament's first stage, made (of its regulations' format) if it has none yet; a
    round without a stage (of a file from before stages) belongs to it."""
    stage = tournament.stages.order_by("order").first()
    if stage is None:
        stage = Stage.objects.create(
            tournament=tournament, order=1, format=qualifying_format(tournament)
        )
    return stage


def current_stage(tournament: Tournament) -> Stage:
    """The tournament's latest stage (its first when it has only one)."""
    return tournament.stages.order_by("-order").first() or first_stage(tournament)


def knockout_stage(tournament: Tournament | int) -> Stage | None:
    """The tournament's knockout stage, if the finals have started."""
    return Stage.objects.filter(tournament=tournament, format=Stage.Format.KNOCKOUT).first()


STAGE_STATE = ("has_groups", "has_knockout", "matches_decided", "last_decision")
"""What :func:`with_stage_state` annotates a tournament with."""


def with_stage_state(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """Tournaments annotated with what their finals' pages show (no query of its own): whether
    they have a groups stage (``has_groups``) and a knockout one (``has_knockout``), how many
    of their matches are decided (``matches_decided``) and the latest decision
    (``last_decision``) — these change when a match is decided with no party changed (a bye,
    a decision taken back)."""
    stages = Stage.objects.filter(tournament=OuterRef("pk"))
    decided = (Match.objects.filter(stage__tournament=OuterRef("pk"),
                                    status=Match.Status.DECIDED)
               .order_by().values("stage__tournament"))
    return tournaments.annotate(
        has_groups=Exists(stages.filter(format=Stage.Format.GROUPS)),
        has_knockout=Exists(stages.filter(format=Stage.Format.KNOCKOUT)),
        matches_decided=Subquery(decided.annotate(n=Count("pk")).values("n")),
        last_decision=Subquery(decided.annotate(last=Max("decided_at")).values("last")),
    )


def stage_state(tournament: Tournament) -> dict[str, object]:
    """A tournament's :func:`with_stage_state` annotations (read once more when it was loaded
    without them)."""
    known = vars(tournament)
    if all(key in known for key in STAGE_STATE):
        return {key: known[key] for key in STAGE_STATE}
    found = with_stage_state(Tournament.objects.filter(pk=tournament.pk)).values(*STAGE_STATE)
    return dict(found.first() or {})


def groups_stage(tournament: Tournament | int) -> Stage | None:
    """The tournament's groups stage, if its groups are drawn."""
    return Stage.objects.filter(tournament=tournament, format=Stage.Format.GROUPS).first()


def next_round_number(tournament_id: int) -> int:
    """The number the tournament's next round takes."""
    last = Round.objects.filter(tournament_id=tournament_id).aggregate(n=Max("number"))["n"]
    return (last or 0) + 1


def require_all_finished(tournament: Tournament) -> None:
    """Refuse while a round of the tournament is a draft or a party of it is unfinished."""
    if tournament.rounds.filter(status=Round.Status.DRAFT).exists():
        raise ServiceError("round", _("Publish or delete the draft round first."))
    unfinished = Party.objects.filter(round__tournament=tournament).exclude(
        status=Party.Status.FINISHED).count()
    if unfinished:
        raise ServiceError(
            "round",
            _("Qualifying parties not finished: %(count)s.") % {"count": unfinished},
        )


def standings_order(tournament: Tournament) -> list[int]:
    """The pairs of the qualifying standings, best first (knockout parties never count)."""
    return [row.entrant for row in standings_table(tournament, per_player=False).rows]


def available_pairs(tournament: Tournament) -> set[int]:
    """The registered pairs that may still play (not withdrawn, not disqualified)."""
    return set(
        Pair.objects.filter(
            tournament=tournament, formed_in_round__isnull=True, withdrawn=False,
            disqualified=False,
        ).values_list("pk", flat=True)
    )
