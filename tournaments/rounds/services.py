"""Round-flow services: create the next round, draw it, edit, publish, start and close it.

Every service runs in one transaction with the round's row locked (``SELECT … FOR UPDATE``),
checks the round's status and refuses with a :class:`~scoring.core.errors.ServiceError` that
names the field at fault. The flow of a round: ``create_round`` (a draft) → ``generate_draw``
(and/or ``edit_draw``, ``swap_tables``) → ``publish_round`` (players see it) →
``start_round`` (every party's clock) → the parties are played → ``close_round``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee import services as referee_services
from scoring.core.errors import ConflictError, ServiceError, translate_engine_error
from scoring.models import Pair, Party, Player, Round, Tournament
from scoring.ranking.seasons import schedule_refresh
from scoring.webhooks import services as webhooks
from tournaments.pairing import (
    DrawUserError,
    IndividualTable,
    Pairing,
    validate_manual,
    validate_manual_individual,
)
from tournaments.rounds.draws import (
    DrawField,
    Seating,
    clear_draw,
    fixed_table_warnings,
    load_field,
    run_engine,
    seat,
    table_numbers,
    warnings_data,
    write_draw,
)
from tournaments.tasks import warm_standings

logger = logging.getLogger(__name__)


def _actor_id(actor: Any) -> Any:
    """The id of the user who acted, for the log (None for the system)."""
    return getattr(actor, "pk", None)


def lock_round(round_id: int) -> Round:
    """Lock a round's row for this transaction (its tournament and regulations loaded)."""
    try:
        return (
            Round.objects.select_for_update(of=("self",))
            .select_related("tournament__regulations")
            .get(pk=round_id)
        )
    except Round.DoesNotExist as exc:
        raise ServiceError("round", _("No such round.")) from exc


def _require_status(rnd: Round, *allowed: str) -> None:
    """Refuse an action the round's status does not allow."""
    if rnd.status in allowed:
        return
    messages: dict[str, str] = {
        Round.Status.DRAFT: _("The draw of this round is not published yet."),
        Round.Status.PUBLISHED: _("The draw of this round is already published."),
        Round.Status.IN_PROGRESS: _("The round is in progress."),
        Round.Status.FINISHED: _("The round is closed."),
    }
    raise ServiceError("round", messages[rnd.status])


def _unfinished(rounds: Any) -> int:
    """How many parties of the given rounds are not finished."""
    return Party.objects.filter(round__in=rounds).exclude(status=Party.Status.FINISHED).count()


def _require_previous_finished(rnd: Round) -> None:
    """A round is drawn only when every party of the earlier rounds is finished."""
    earlier = Round.objects.filter(tournament_id=rnd.tournament_id, number__lt=rnd.number)
    if _unfinished(earlier):
        raise ServiceError(
            "round",
            _("Round %(number)s still has unfinished parties.") % {"number": rnd.number - 1},
        )


def _engine_error(err: DrawUserError, draw_field: DrawField | None) -> ServiceError:
    """A translated service error from the engine's, entrant ids replaced by names."""
    if draw_field is not None:
        err.params = warnings_data([err], draw_field.names)[0]["params"]
    error = translate_engine_error(err)
    error.field = "draw"
    return error


@transaction.atomic
def create_round(tournament_id: int, *, actor: Any = None) -> Round:
    """Create the next round as a draft; the previous one must be closed first."""
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("regulations")
        .get(pk=tournament_id)
    )
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.FINISHED:
        if _unfinished([last]):
            raise ServiceError(
                "round",
                _("Round %(number)s still has unfinished parties.") % {"number": last.number},
            )
        raise ServiceError("round", _("Close round %(number)s first.") % {"number": last.number})
    number = last.number + 1 if last else 1
    planned = tournament.regulations.rounds_planned
    if number > planned:
        raise ServiceError(
            "round",
            _("The regulations plan %(planned)s rounds; change them to add another.")
            % {"planned": planned},
        )
    try:
        with transaction.atomic():
            rnd = Round.objects.create(tournament=tournament, number=number)
    except IntegrityError as exc:  # a concurrent request made it first
        message = _("Round %(number)s exists already.") % {"number": number}
        raise ConflictError("round", message) from exc
    logger.info("round created: tournament=%s round=%s number=%s actor=%s",
                tournament.pk, rnd.pk, number, _actor_id(actor))
    return rnd


@transaction.atomic
def delete_round(round_id: int, *, actor: Any = None) -> None:
    """Delete a draft round that is the tournament's last one, with its draw."""
    rnd = lock_round(round_id)
    _require_status(rnd, Round.Status.DRAFT)
    if Round.objects.filter(tournament_id=rnd.tournament_id, number__gt=rnd.number).exists():
        raise ServiceError("round", _("Only the last round can be deleted."))
    clear_draw(rnd)
    logger.info("round deleted: tournament=%s round=%s number=%s actor=%s",
                rnd.tournament_id, rnd.pk, rnd.number, _actor_id(actor))
    rnd.delete()


def _save_draw(rnd: Round, warnings: Sequence[str], draw_field: DrawField, seed: Any) -> Round:
    """Record the draw's seed, warnings and time on the locked round."""
    rnd.seed = seed
    rnd.draw_warnings = warnings_data(warnings, draw_field.names)
    rnd.drawn_at = timezone.now()
    rnd.save(update_fields=["seed", "draw_warnings", "drawn_at"])
    return rnd


@transaction.atomic
def generate_draw(round_id: int, *, seed: int | None = None, actor: Any = None) -> Round:
    """Draw a draft round with the regulations' system, replacing any draw it had.

    The same ``seed`` (recorded on the round) reproduces a draw by lot. Parties are seated
    in standings order; byes are finished at once. Warnings are kept for the preview.
    """
    rnd = lock_round(round_id)
    _require_status(rnd, Round.Status.DRAFT)
    _require_previous_finished(rnd)
    tournament = rnd.tournament
    draw_field = None
    try:
        draw_field = load_field(tournament, rnd)
        draw = run_engine(tournament, rnd, draw_field, seed)
        seating = seat(draw, draw_field, table_numbers(tournament))
    except DrawUserError as err:
        raise _engine_error(err, draw_field) from err
    write_draw(rnd, seating, draw.byes, draw_field.individual)
    logger.info("round drawn: tournament=%s round=%s seed=%s parties=%s byes=%s actor=%s",
                rnd.tournament_id, rnd.pk, draw.seed, len(seating), len(draw.byes),
                _actor_id(actor))
    return _save_draw(rnd, draw.warnings, draw_field, draw.seed)


def _check_tables(numbers: Sequence[int], tables: dict[int, int]) -> None:
    """Refuse a table number the tournament does not have."""
    for number in numbers:
        if number not in tables:
            raise ServiceError("tables", _("There is no table %(number)s.") % {"number": number})


@transaction.atomic
def edit_draw(
    round_id: int,
    *,
    parties: Sequence[tuple[int, Any, Any]],
    byes: Sequence[int] = (),
    actor: Any = None,
) -> Round:
    """Replace a draft round's draw with one made by hand.

    ``parties`` are ``(table number, side a, side b)``: pair ids, or in an individual event
    two player ids per side. The draw is refused only when it cannot be played (an entrant
    twice or missing, a table twice); rematches, repeat partners, same-club parties and
    entrants away from their fixed table are kept as warnings.
    """
    rnd = lock_round(round_id)
    _require_status(rnd, Round.Status.DRAFT)
    _require_previous_finished(rnd)
    tournament = rnd.tournament
    draw_field = load_field(tournament, rnd)
    numbers = [int(number) for number, _a, _b in parties]
    _check_tables(numbers, table_numbers(tournament))
    seating: Seating
    try:
        if draw_field.individual:
            sides = [(tuple(a), tuple(b)) for _n, a, b in parties]
            warnings = validate_manual_individual(
                sides,
                byes,
                draw_field.players(),
                table_numbers=numbers,
                free_for_all=draw_field.alone is not None,
                table_size=draw_field.alone or 4,
            )
            seating = [(n, IndividualTable(a, b)) for n, (a, b) in zip(numbers, sides, strict=True)]
        else:
            pairs = [(int(a), int(b)) for _n, a, b in parties]
            warnings = validate_manual(
                pairs,
                byes,
                draw_field.pairs(),
                tables=numbers,
                avoid_same_club=tournament.regulations.avoid_same_club,
            )
            rank = {e.id: e.rank for e in draw_field.entrants}
            seating = [
                (n, Pairing(a, b) if rank[a] <= rank[b] else Pairing(b, a))
                for n, (a, b) in zip(numbers, pairs, strict=True)
            ]
    except DrawUserError as err:
        raise _engine_error(err, draw_field) from err
    seating.sort(key=lambda item: item[0])
    warnings += fixed_table_warnings(seating, draw_field)
    write_draw(rnd, seating, list(byes), draw_field.individual)
    logger.info("round draw edited: tournament=%s round=%s parties=%s byes=%s actor=%s",
                rnd.tournament_id, rnd.pk, len(seating), len(byes), _actor_id(actor))
    return _save_draw(rnd, warnings, draw_field, rnd.seed)


@transaction.atomic
def swap_tables(round_id: int, first: int, second: int, *, actor: Any = None) -> Round:
    """Swap the parties at two tables (or move one to a free table) before they start."""
    rnd = lock_round(round_id)
    _require_status(rnd, Round.Status.DRAFT, Round.Status.PUBLISHED, Round.Status.IN_PROGRESS)
    tables = table_numbers(rnd.tournament)
    _check_tables([first, second], tables)
    if first == second:
        raise ServiceError("second", _("Choose two different tables."))
    at = {
        p.table_id: p
        for p in Party.objects.select_for_update(of=("self",)).filter(
            round=rnd, table_id__in=[tables[first], tables[second]]
        )
    }
    if not at:
        raise ServiceError("first", _("No party sits at table %(table)s.") % {"table": first})
    for number in (first, second):
        party = at.get(tables[number])
        if party is not None and party.status != Party.Status.SCHEDULED:
            raise ServiceError(
                "first", _("The party at table %(table)s has started.") % {"table": number}
            )
    moves = {
        party.pk: tables[second] if table_id == tables[first] else tables[first]
        for table_id, party in at.items()
    }
    parties = Party.objects.filter(pk__in=moves)
    parties.update(table=None)
    for pk, table_id in moves.items():
        Party.objects.filter(pk=pk).update(table_id=table_id, version=F("version") + 1)
    logger.info("tables swapped: tournament=%s round=%s tables=%s,%s parties=%s actor=%s",
                rnd.tournament_id, rnd.pk, first, second, sorted(moves), _actor_id(actor))
    return rnd


def _unavailable_in_draw(rnd: Round) -> list[str]:
    """Names of the withdrawn or disqualified entrants seated in the round's draw."""
    gone = Q(withdrawn=True) | Q(disqualified=True)
    parties = Party.objects.filter(round=rnd)
    if rnd.tournament.format == Tournament.Format.INDIVIDUAL:
        players = Player.objects.filter(gone, tournament_id=rnd.tournament_id)
        seated = set(
            parties.values_list("pair_a__player1", "pair_a__player2", "pair_b__player1",
                                "pair_b__player2").distinct()
        )
        ids = {p for row in seated for p in row if p is not None}
        out = [p.name for p in players if p.pk in ids]
    else:  # the few pairs gone first (none: no query of the draw)
        pairs = list(
            Pair.objects.filter(gone, tournament_id=rnd.tournament_id).select_related(
                "player1", "player2"
            )
        )
        if not pairs:
            return []
        seated_pairs = {
            pk
            for row in parties.filter(Q(pair_a__in=pairs) | Q(pair_b__in=pairs)).values_list(
                "pair_a", "pair_b"
            )
            for pk in row
        }
        out = [p.display_name for p in pairs if p.pk in seated_pairs]
    return sorted(out)


@transaction.atomic
def publish_round(round_id: int, *, actor: Any = None) -> Round:
    """Publish a draft round's draw: players and the public see it, parties can start."""
    rnd = lock_round(round_id)
    _require_status(rnd, Round.Status.DRAFT)
    _require_previous_finished(rnd)
    if not Party.objects.filter(round=rnd).exists():
        raise ServiceError("draw", _("Generate or enter the draw first."))
    gone = _unavailable_in_draw(rnd)
    if gone:
        raise ServiceError(
            "draw",
            _("Withdrawn or disqualified since the draw: %(names)s. Draw the round again.")
            % {"names": ", ".join(gone)},
        )
    rnd.status = Round.Status.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    running = Tournament.objects.filter(
        pk=rnd.tournament_id, status=Tournament.Status.REGISTRATION
    ).update(status=Tournament.Status.RUNNING)
    logger.info("round published: tournament=%s round=%s number=%s actor=%s",
                rnd.tournament_id, rnd.pk, rnd.number, _actor_id(actor))
    if running:
        logger.info("tournament running: tournament=%s", rnd.tournament_id)
    schedule_refresh(tournament_id=rnd.tournament_id)  # its byes count from now
    webhooks.round_changed(rnd, "round.published")
    return rnd


@transaction.atomic
def schedule_round(
    round_id: int, scheduled_start: datetime | None, *, actor: Any = None
) -> Round:
    """Set (or clear) when a round starts: the referees' no-show wait counts from it.

    Refused once the round or one of its parties has started.
    """
    rnd = lock_round(round_id)
    started = Party.objects.filter(round=rnd, pair_b__isnull=False, started_at__isnull=False)
    if rnd.status in (Round.Status.IN_PROGRESS, Round.Status.FINISHED) or started.exists():
        raise ServiceError(
            "starts_at",
            _("The round has started: its scheduled start can no longer change."),
        )
    rnd.scheduled_start = scheduled_start
    rnd.save(update_fields=["scheduled_start"])
    logger.info("round scheduled: tournament=%s round=%s start=%s actor=%s",
                rnd.tournament_id, rnd.pk, scheduled_start, _actor_id(actor))
    return rnd


@transaction.atomic
def start_round(round_id: int, *, actor: Any = None) -> int:
    """Start the clock of every party of a published round that has not started; the count."""
    rnd = lock_round(round_id)
    _require_status(rnd, Round.Status.PUBLISHED, Round.Status.IN_PROGRESS)
    waiting = list(
        Party.objects.filter(round=rnd, status=Party.Status.SCHEDULED, pair_b__isnull=False)
        .order_by("table__number")
        .values_list("pk", flat=True)
    )
    if not waiting:
        raise ServiceError("round", _("No party of the round is waiting to start."))
    for pk in waiting:
        referee_services.start_party(pk, actor=actor)
    logger.info("round started: tournament=%s round=%s parties=%s actor=%s",
                rnd.tournament_id, rnd.pk, len(waiting), _actor_id(actor))
    return len(waiting)


@transaction.atomic
def close_round(round_id: int, *, actor: Any = None) -> Round:
    """Close a round whose parties are all finished; the next round can then be created.

    After the commit a task computes the standings after the round into the cache, for the
    public pages and the next draw.
    """
    rnd = lock_round(round_id)
    _require_status(rnd, Round.Status.PUBLISHED, Round.Status.IN_PROGRESS)
    unfinished = _unfinished([rnd])
    if unfinished:
        raise ServiceError(
            "round",
            ngettext(
                "%(count)d party of the round is not finished.",
                "%(count)d parties of the round are not finished.",
                unfinished,
            )
            % {"count": unfinished},
        )
    rnd.status = Round.Status.FINISHED
    rnd.finished_at = timezone.now()
    rnd.save(update_fields=["status", "finished_at"])
    tournament_id = rnd.tournament_id
    logger.info("round closed: tournament=%s round=%s number=%s actor=%s",
                tournament_id, rnd.pk, rnd.number, _actor_id(actor))
    warm_standings.delay_on_commit(tournament_id)
    schedule_refresh(tournament_id=tournament_id)
    webhooks.round_changed(rnd, "round.closed")
    return rnd
