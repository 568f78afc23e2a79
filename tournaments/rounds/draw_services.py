"""Draw services: generate a draft round's draw, make or change it by hand, swap two tables.

Like the round flow's services (``tournaments.rounds.services``), each runs in one
transaction with the round's row locked, checks the round's status and refuses with a
:class:`~scoring.core.errors.ServiceError` that names the field at fault.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import live
from scoring.core.errors import ServiceError, translate_engine_error
from scoring.models import Party, Round, Stage
from tournaments.pairing import (
    Draw,
    DrawUserError,
    IndividualDraw,
    IndividualTable,
    Pairing,
    validate_manual,
    validate_manual_individual,
)
from tournaments.rounds.draw_notes import checkin_notes, fixed_table_warnings, warnings_data
from tournaments.rounds.draws import (
    DrawField,
    Seating,
    load_field,
    run_engine,
    seat,
    table_numbers,
    write_draw,
)
from tournaments.rounds.finals import groups_round
from tournaments.rounds.services import lock_round, require_previous_finished, require_status
from tournaments.rounds.team_draws import generate_team_draw, is_team_event
from tournaments.setup.services import actor_id

logger = logging.getLogger(__name__)


def _engine_error(err: DrawUserError, draw_field: DrawField | None) -> ServiceError:
    """A translated service error from the engine's, entrant ids replaced by names."""
    if draw_field is not None:
        err.params = warnings_data([err], draw_field.names)[0]["params"]
    error = translate_engine_error(err)
    error.field = "draw"
    return error


def _save_draw(rnd: Round, warnings: Sequence[str], names: dict[int, str], seed: Any) -> Round:
    """Record the draw's seed, warnings and time on the locked round (its pages are told after
    commit)."""
    rnd.seed = seed
    rnd.draw_warnings = warnings_data(warnings, names)
    rnd.drawn_at = timezone.now()
    rnd.save(update_fields=["seed", "draw_warnings", "drawn_at"])
    live.round_changed(rnd, "round.drawn")
    return rnd


@transaction.atomic
def generate_draw(round_id: int, *, seed: int | None = None, actor: Any = None) -> Round:
    """Draw a draft round with the regulations' system (a round of a groups stage: its
    groups' round robins), replacing any draw it had.

    The same ``seed`` (recorded on the round) reproduces a draw by lot. Parties are seated
    in standings order; byes are finished at once. Warnings are kept for the preview. A team
    event's round draws teams and seats each team match at two tables
    (``tournaments.rounds.team_draws``; in a groups stage each group's round robin of teams).
    """
    rnd = lock_round(round_id)
    require_status(rnd, Round.Status.DRAFT)
    require_previous_finished(rnd)
    tournament = rnd.tournament
    if is_team_event(tournament):
        team_draw, team_field = generate_team_draw(rnd, seed)
        logger.info("team round drawn: tournament=%s round=%s seed=%s matches=%s byes=%s "
                    "actor=%s", rnd.tournament_id, rnd.pk, team_draw.seed,
                    len(team_draw.parties), len(team_draw.byes), actor_id(actor))
        return _save_draw(rnd, team_draw.warnings, team_field.names, team_draw.seed)
    draw_field = None
    try:
        draw_field = load_field(tournament, rnd)
        draw: Draw | IndividualDraw
        if rnd.stage is not None and rnd.stage.format == Stage.Format.GROUPS:
            draw = groups_round(rnd, draw_field.ids)
        else:
            draw = run_engine(tournament, rnd, draw_field, seed)
        seating = seat(draw, draw_field, table_numbers(tournament))
    except DrawUserError as err:
        raise _engine_error(err, draw_field) from err
    write_draw(rnd, seating, draw.byes, draw_field.individual)
    logger.info("round drawn: tournament=%s round=%s seed=%s parties=%s byes=%s actor=%s",
                rnd.tournament_id, rnd.pk, draw.seed, len(seating), len(draw.byes),
                actor_id(actor))
    return _save_draw(rnd, [*draw.warnings, *checkin_notes(draw_field)], draw_field.names,
                      draw.seed)


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
    two player ids per side. Each party keeps the sides as sent (side a is the first), never
    reordered by rank. The draw is refused only when it cannot be played (an entrant twice or
    missing, a table twice); rematches, repeat partners, same-club parties and entrants away
    from their fixed table are kept as warnings.
    """
    rnd = lock_round(round_id)
    require_status(rnd, Round.Status.DRAFT)
    require_previous_finished(rnd)
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
            # the sides as sent: never swapped (no-shows and fines are ruled against a side)
            seating = [(n, Pairing(a, b)) for n, (a, b) in zip(numbers, pairs, strict=True)]
    except DrawUserError as err:
        raise _engine_error(err, draw_field) from err
    seating.sort(key=lambda item: item[0])
    warnings += fixed_table_warnings(seating, draw_field) + checkin_notes(draw_field)
    write_draw(rnd, seating, list(byes), draw_field.individual)
    logger.info("round draw edited: tournament=%s round=%s parties=%s byes=%s actor=%s",
                rnd.tournament_id, rnd.pk, len(seating), len(byes), actor_id(actor))
    return _save_draw(rnd, warnings, draw_field.names, rnd.seed)


@transaction.atomic
def swap_tables(round_id: int, first: int, second: int, *, actor: Any = None) -> Round:
    """Swap the parties at two tables (or move one to a free table) before they start."""
    rnd = lock_round(round_id)
    require_status(rnd, Round.Status.DRAFT, Round.Status.PUBLISHED, Round.Status.IN_PROGRESS)
    tables = table_numbers(rnd.tournament)
    _check_tables([first, second], tables)
    if first == second:
        raise ServiceError("second", _("Choose two different tables."))
    at: dict[int, list[Party]] = {}  # a team match's table holds both halves' parties
    for p in Party.objects.select_for_update(of=("self",)).filter(
        round=rnd, table_id__in=[tables[first], tables[second]]
    ):
        if p.table_id is not None:
            at.setdefault(p.table_id, []).append(p)
    if not at:
        raise ServiceError("first", _("No party sits at table %(table)s.") % {"table": first})
    for number in (first, second):
        for party in at.get(tables[number], ()):
            if party.status != Party.Status.SCHEDULED:
                raise ServiceError(
                    "first", _("The party at table %(table)s has started.") % {"table": number}
                )
    moves = {
        party.pk: tables[second] if table_id == tables[first] else tables[first]
        for table_id, parties_at in at.items() for party in parties_at
    }
    parties = Party.objects.filter(pk__in=moves)
    parties.update(table=None)
    for pk, table_id in moves.items():
        Party.objects.filter(pk=pk).update(table_id=table_id, version=F("version") + 1)
    logger.info("tables swapped: tournament=%s round=%s tables=%s,%s parties=%s actor=%s",
                rnd.tournament_id, rnd.pk, first, second, sorted(moves), actor_id(actor))
    live.round_changed(rnd, "round.drawn")
    return rnd
