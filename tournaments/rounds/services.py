"""Round-flow services: create the next round, publish, schedule, start and close it.

Every service runs in one transaction with the round's row locked (``SELECT … FOR UPDATE``),
checks the round's status and refuses with a :class:`~scoring.core.errors.ServiceError` that
names the field at fault. The flow of a round: ``create_round`` (a draft) → ``generate_draw``
(and/or ``edit_draw``, ``swap_tables``) → ``publish_round`` (players see it) →
``start_round`` (every party's clock) → the parties are played → ``close_round``. The draw's
own services (``generate_draw``, ``edit_draw``, ``swap_tables``) are
``tournaments.rounds.draw_services``.

The tournament's status follows the flow and changes nowhere else (its edit page and the API
only show it): registration until the first draw is published (``publish_round``), then
running; ``finish_tournament`` once its last round is closed, and ``reopen_tournament`` takes a
finish back. A finished tournament gets no new round and no new deal
(``scoring.party.deals.record_deal``).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee import services as referee_services
from scoring import live
from scoring.core.errors import ConflictError, ServiceError
from scoring.models import Pair, Party, Player, Round, Stage, Tournament
from scoring.ranking.seasons import schedule_refresh
from scoring.stages.common import current_stage, knockout_stage
from scoring.stages.groups import group_rounds
from scoring.webhooks import services as webhooks
from tournaments.entries.draw_mail import mail_draw
from tournaments.rounds.draws import clear_draw
from tournaments.setup.services import actor_id
from tournaments.tasks import warm_standings

logger = logging.getLogger(__name__)


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


def require_status(rnd: Round, *allowed: str) -> None:
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


def require_previous_finished(rnd: Round) -> None:
    """A round is drawn only when every party of the earlier rounds is finished."""
    earlier = Round.objects.filter(tournament_id=rnd.tournament_id, number__lt=rnd.number)
    if _unfinished(earlier):
        raise ServiceError(
            "round",
            _("Round %(number)s still has unfinished parties.") % {"number": rnd.number - 1},
        )


def lock_tournament(tournament_id: int) -> Tournament:
    """Lock a tournament's row for this transaction (its regulations loaded)."""
    return (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("regulations")
        .get(pk=tournament_id)
    )


@transaction.atomic
def create_round(tournament_id: int, *, actor: Any = None) -> Round:
    """Create the next round as a draft; the previous one must be closed first."""
    tournament = lock_tournament(tournament_id)
    if tournament.status == Tournament.Status.FINISHED:
        raise ServiceError("tournament", _("The tournament is finished; reopen it to add a "
                                           "round."))
    if knockout_stage(tournament) is not None:
        raise ServiceError("round", _("The finals have started: their rounds follow the "
                                      "bracket."))
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.FINISHED:
        if _unfinished([last]):
            raise ServiceError(
                "round",
                _("Round %(number)s still has unfinished parties.") % {"number": last.number},
            )
        raise ServiceError("round", _("Close round %(number)s first.") % {"number": last.number})
    number = last.number + 1 if last else 1
    stage = current_stage(tournament)
    planned = tournament.regulations.rounds_planned
    if stage.format == Stage.Format.GROUPS:
        number_in_stage = stage.rounds.count() + 1
        if number_in_stage > group_rounds(stage):
            raise ServiceError("round", _("Every group has played its round robin."))
    elif number > planned:
        raise ServiceError(
            "round",
            _("The regulations plan %(planned)s rounds; change them to add another.")
            % {"planned": planned},
        )
    try:
        with transaction.atomic():
            rnd = Round.objects.create(
                tournament=tournament, number=number, stage=stage)
    except IntegrityError as exc:  # a concurrent request made it first
        message = _("Round %(number)s exists already.") % {"number": number}
        raise ConflictError("round", message) from exc
    logger.info("round created: tournament=%s round=%s number=%s actor=%s",
                tournament.pk, rnd.pk, number, actor_id(actor))
    return rnd


@transaction.atomic
def delete_round(round_id: int, *, actor: Any = None) -> None:
    """Delete a draft round that is the tournament's last one, with its draw."""
    rnd = lock_round(round_id)
    require_status(rnd, Round.Status.DRAFT)
    if Round.objects.filter(tournament_id=rnd.tournament_id, number__gt=rnd.number).exists():
        raise ServiceError("round", _("Only the last round can be deleted."))
    clear_draw(rnd)
    logger.info("round deleted: tournament=%s round=%s number=%s actor=%s",
                rnd.tournament_id, rnd.pk, rnd.number, actor_id(actor))
    rnd.delete()


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
    require_status(rnd, Round.Status.DRAFT)
    require_previous_finished(rnd)
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
                rnd.tournament_id, rnd.pk, rnd.number, actor_id(actor))
    if running:
        logger.info("tournament running: tournament=%s", rnd.tournament_id)
    schedule_refresh(tournament_id=rnd.tournament_id)  # its byes count from now
    webhooks.round_changed(rnd, "round.published")
    mail_draw(rnd)
    live.round_changed(rnd, "round.published")
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
                rnd.tournament_id, rnd.pk, scheduled_start, actor_id(actor))
    return rnd


@transaction.atomic
def start_round(round_id: int, *, actor: Any = None) -> int:
    """Start the clock of every party of a published round that has not started; the count.

    A team match's second half (``Party.half`` 2, at the same table) starts only once the
    first half's party at its table has finished: call it again then.
    """
    rnd = lock_round(round_id)
    require_status(rnd, Round.Status.PUBLISHED, Round.Status.IN_PROGRESS)
    rows = list(
        Party.objects.filter(round=rnd, pair_b__isnull=False)
        .order_by("table__number", "half")
        .values_list("pk", "table_id", "half", "status")
    )
    busy = {(table, half) for _pk, table, half, status in rows if status != Party.Status.FINISHED}
    waiting = [
        pk for pk, table, half, status in rows
        if status == Party.Status.SCHEDULED
        and not any((table, earlier) in busy for earlier in range(1, half))
    ]
    if not waiting:
        raise ServiceError("round", _("No party of the round is waiting to start."))
    for pk in waiting:
        referee_services.start_party(pk, actor=actor)
    logger.info("round started: tournament=%s round=%s parties=%s actor=%s",
                rnd.tournament_id, rnd.pk, len(waiting), actor_id(actor))
    return len(waiting)


@transaction.atomic
def close_round(round_id: int, *, actor: Any = None) -> Round:
    """Close a round whose parties are all finished; the next round can then be created.

    After the commit a task computes the standings after the round into the cache, for the
    public pages and the next draw.
    """
    rnd = lock_round(round_id)
    require_status(rnd, Round.Status.PUBLISHED, Round.Status.IN_PROGRESS)
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
                tournament_id, rnd.pk, rnd.number, actor_id(actor))
    warm_standings.delay_on_commit(tournament_id)
    schedule_refresh(tournament_id=tournament_id)
    webhooks.round_changed(rnd, "round.closed")
    live.round_changed(rnd, "round.closed")
    return rnd


@transaction.atomic
def finish_tournament(tournament_id: int, *, actor: Any = None) -> Tournament:
    """Finish a tournament whose last round is closed: no round and no deal is added after."""
    tournament = lock_tournament(tournament_id)
    if tournament.status == Tournament.Status.FINISHED:
        raise ServiceError("tournament", _("The tournament is finished already."))
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        raise ServiceError("tournament", _("No round has been played yet."))
    if last.status != Round.Status.FINISHED:
        raise ServiceError("round", _("Close round %(number)s first.") % {"number": last.number})
    return _set_status(tournament, Tournament.Status.FINISHED, actor)


@transaction.atomic
def reopen_tournament(tournament_id: int, *, actor: Any = None) -> Tournament:
    """Take a finish back: the tournament runs again (a round or a deal can be added)."""
    tournament = lock_tournament(tournament_id)
    if tournament.status != Tournament.Status.FINISHED:
        raise ServiceError("tournament", _("The tournament is not finished."))
    return _set_status(tournament, Tournament.Status.RUNNING, actor)


def _set_status(tournament: Tournament, status: str, actor: Any) -> Tournament:
    """Store the locked tournament's new status and log it."""
    tournament.status = status
    tournament.save(update_fields=["status"])
    logger.info("tournament %s: tournament=%s actor=%s", status, tournament.pk, actor_id(actor))
    return tournament
