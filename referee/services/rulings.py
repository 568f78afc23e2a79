"""Rulings: out of turn, false pass, touched tile, no-show, disqualification (the UDL
violations, which apply them, are ``referee.services.udl``)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee.rulings import PenaltyDecision, fine_decision, parse_tile
from referee.services.clock import no_show_due_at
from referee.services.common import (
    _check_side,
    _end_by_ruling,
    _engine,
    _forfeit_result,
    _locked_unless_done,
    _offender,
    _player,
    _reason,
    _require_in_progress,
    _require_not_finished,
    _rules,
    _seat_side,
    _seated,
    actor_id,
    deal_in_play,
    desk_of,
)
from referee.services.penalties import (
    _add_penalty,
    _check_category,
)
from scoring.core.errors import ServiceError
from scoring.models import Deal, Pair, Party, Penalty, Player, Ruling, Tournament
from scoring.party.deals import annul_deal_in_play, record_deal
from scoring.party.done import Done
from scoring.party.ending import evaluate_party
from scoring.party.event_log import append_event
from scoring.party.protocol_lock import assert_party_editable
from scoring.party.row_lock import bump_version
from scoring.roster import entrants_changed

logger = logging.getLogger(__name__)


def _ruling(
    party: Party,
    kind: str,
    *,
    side: str,
    actor: Any,
    client_id: str = "",
    reason: str = "",
    **fields: Any,
) -> Ruling:
    """Write a ruling of a locked party and log who decided what and why."""
    ruling = Ruling.objects.create(
        party=party,
        kind=kind,
        side=side,
        game=party.game,
        reason=reason,
        client_id=client_id,
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
        **fields,
    )
    append_event(
        party,
        f"ruling_{kind}",
        actor=actor,
        reason=reason,
        data={
            "ruling": ruling.pk,
            "side": side,
            "seat": ruling.seat,
            "player": ruling.player.name if ruling.player else "",
            "choice": ruling.choice,
            "deal": ruling.deal_number,
            **ruling.details,
        },
    )
    logger.info(
        "ruling %s %s: party %s, side %s, actor %s",
        ruling.pk, kind, party.pk, side, actor_id(actor),
    )
    return ruling


def _tile_details(tile: object) -> dict[str, Any]:
    """The tile named in a ruling, checked, as logged details (none if not given)."""
    if tile in (None, "", []):
        return {}
    low, high = _engine(parse_tile, tile, "tile")
    return {"tile": [low, high]}


def _ruling_fine(party: Party, side: str, category: str, player: Player | None, actor: Any,
                 reason: str) -> Penalty:
    """The fine a ruling gives the offending pair, as the regulations set it."""
    rule_set, cfg = _rules(party)
    decision = _engine(fine_decision, rule_set, cfg, side)
    return _add_penalty(
        party, decision, side=side, category=category, player=player, actor=actor, reason=reason
    )


@transaction.atomic
def rule_out_of_turn(
    party_id: int,
    *,
    seat: str,
    choice: str,
    tile: object = None,
    reason: str = "",
    client_id: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Done[Ruling]:
    """A tile played out of turn; the opponents chose to continue or to reshuffle.

    Continue: the tile is exposed and must be played at the first opportunity; the deal's
    result stands. Reshuffle: the deal in play is annulled and the offending pair fined.
    """
    party, found = _locked_unless_done(Ruling, party_id, client_id, expected_version)
    if found is not None:
        return Done(found, party)
    _require_in_progress(party)
    side = _seat_side(party, seat)
    player = _player(party, side, seat)
    side = _offender(party, side, seat)  # the seat, where every player keeps his own score
    reason = _reason(reason)
    details = _tile_details(tile)
    number = deal_in_play(party)
    if choice == Ruling.Choice.CONTINUE:
        ruling = _ruling(
            party, Ruling.Kind.OUT_OF_TURN, side=side, seat=seat, player=player, choice=choice,
            deal_number=number, details=details, actor=actor, client_id=client_id, reason=reason,
        )
        bump_version(party)
        return Done(ruling, party)
    if choice != Ruling.Choice.RESHUFFLE:
        raise ServiceError("choice", _("The opponents choose: continue or reshuffle."))
    deal = annul_deal_in_play(
        party, actor=actor, reason=reason or _("Reshuffle after a tile played out of turn.")
    )
    penalty = _ruling_fine(party, side, Penalty.Category.OUT_OF_TURN, player, actor, reason)
    ruling = _ruling(
        party, Ruling.Kind.OUT_OF_TURN, side=side, seat=seat, player=player, choice=choice,
        deal_number=number, details=details, deal=deal, penalty=penalty, actor=actor,
        client_id=client_id, reason=reason,
    )
    evaluation = evaluate_party(party, actor)
    bump_version(party)
    return Done(ruling, party, evaluation.evaluated)


@transaction.atomic
def rule_false_pass(
    party_id: int,
    *,
    seat: str,
    points: dict[str, int] | None = None,
    reason: str = "",
    client_id: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Ruling:
    """A "pass" while a tile could be played: the deal ends with the referee's points and the
    offending pair is fined (points default to the regulations', 0 : 0)."""
    party, found = _locked_unless_done(Ruling, party_id, client_id, expected_version)
    if found is not None:
        return found
    _require_in_progress(party)
    side = _seat_side(party, seat)
    player = _player(party, side, seat)
    side = _offender(party, side, seat)  # the seat, where every player keeps his own score
    reason = _reason(reason)
    number = deal_in_play(party)
    penalty = _ruling_fine(party, side, Penalty.Category.FALSE_PASS, player, actor, reason)
    deal = record_deal(
        party.pk,
        actor=actor,
        outcome=Deal.Outcome.REFEREE,
        points=points,
        note=reason or _("Ended by the referee after a false pass."),
    ).record
    party.refresh_from_db()
    return _ruling(
        party, Ruling.Kind.FALSE_PASS, side=side, seat=seat, player=player, deal_number=number,
        deal=deal, penalty=penalty,
        details={
            "points_a": deal.points_a,
            "points_b": deal.points_b,
            **({"scores": deal.scores} if deal.scores else {}),
        },
        actor=actor, client_id=client_id, reason=reason,
    )


@transaction.atomic
def rule_touched_tile(
    party_id: int,
    *,
    seat: str,
    fits: bool,
    tile: object = None,
    reason: str = "",
    client_id: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Done[Ruling]:
    """A player touched a tile on his turn: he plays it if it fits; if not, his pair is fined."""
    party, found = _locked_unless_done(Ruling, party_id, client_id, expected_version)
    if found is not None:
        return Done(found, party)
    _require_in_progress(party)
    side = _seat_side(party, seat)
    player = _player(party, side, seat)
    side = _offender(party, side, seat)  # the seat, where every player keeps his own score
    reason = _reason(reason)
    penalty = None
    if not fits:
        penalty = _ruling_fine(party, side, Penalty.Category.TOUCHED_TILE, player, actor, reason)
    ruling = _ruling(
        party, Ruling.Kind.TOUCHED_TILE, side=side, seat=seat, player=player,
        deal_number=deal_in_play(party), details={**_tile_details(tile), "fits": bool(fits)},
        penalty=penalty, actor=actor, client_id=client_id, reason=reason,
    )
    evaluated = evaluate_party(party, actor).evaluated if penalty is not None else None
    bump_version(party)
    return Done(ruling, party, evaluated)


@transaction.atomic
def rule_no_show(
    party_id: int,
    *,
    absent_side: str,
    reason: str = "",
    client_id: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Ruling:
    """The pair not present when the regulations' wait is over forfeits the party.

    Where every player keeps his own score the absent side's players lose (Kozel: the Goat).
    """
    party, found = _locked_unless_done(Ruling, party_id, client_id, expected_version)
    if found is not None:
        return found
    _check_side(absent_side, "side")
    _require_not_finished(party)
    desk = desk_of(party)
    if desk.present(absent_side):
        raise ServiceError("side", _("That pair was marked present."))
    due = no_show_due_at(party)
    if due is None:
        raise ServiceError(
            "party", _("Start the party's clock first: the wait for a no-show counts from it.")
        )
    if timezone.now() < due:
        minutes = party.round.tournament.regulations.no_show_minutes
        raise ServiceError(
            "side",
            ngettext(
                "A pair is a no-show only %(minutes)s minute after the start.",
                "A pair is a no-show only %(minutes)s minutes after the start.",
                minutes,
            )
            % {"minutes": minutes},
        )
    reason = _reason(reason)
    winner, loser = _forfeit_result(party, absent_side)
    ruling = _ruling(
        party, Ruling.Kind.NO_SHOW, side=absent_side, actor=actor, client_id=client_id,
        reason=reason, details={"due": due.isoformat()},
    )
    _end_by_ruling(
        party, winner=winner, loser=loser, reason=Party.EndReason.FORFEIT, actor=actor,
        event="forfeit", why=reason, data={"absent": absent_side},
    )
    return ruling


@transaction.atomic
def disqualify(
    party_id: int,
    *,
    side: str,
    scope: str,
    reason: str,
    seat: str = "",
    player_id: int | None = None,
    category: str = Penalty.Category.OTHER,
    details: dict[str, Any] | None = None,
    client_id: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Ruling:
    """Disqualify a player or a pair from the party or from the whole tournament.

    The party in play is lost (the opponents get the regulations' forfeit score); from the
    tournament, the pair and player are marked so later draws leave them out, while their
    finished parties stand. Where every player keeps his own score the disqualified player
    loses the party (Kozel: he is the Goat). ``details`` are kept on the ruling.
    """
    party, found = _locked_unless_done(Ruling, party_id, client_id, expected_version)
    if found is not None:
        return found
    _check_side(side)
    reason = _reason(reason, required=True)
    if scope not in (Ruling.Choice.PARTY, Ruling.Choice.TOURNAMENT):
        raise ServiceError("scope", _("Disqualify from the party or from the tournament."))
    _check_category(category, tuple(Penalty.Category.values))
    if party.is_bye:
        raise ServiceError("party", _("A bye is not played."))
    finished = party.status == Party.Status.FINISHED
    if finished and scope == Ruling.Choice.PARTY:
        raise ServiceError("party", _("The party is finished."))
    assert_party_editable(party, actor, reason)
    player = _player(party, side, seat, player_id)
    offender = _offender(party, side, seat, player, whole_pair=True)
    player = player or _seated(party, offender)
    penalty = _add_penalty(
        party, PenaltyDecision(Penalty.Kind.DISQUALIFICATION), side=offender, category=category,
        player=player, actor=actor, reason=reason,
    )
    ruling = _ruling(
        party, Ruling.Kind.DISQUALIFICATION, side=offender, seat=seat, player=player,
        choice=scope, penalty=penalty, actor=actor, client_id=client_id, reason=reason,
        details={**(details or {}), "finished_before": finished},
    )
    if scope == Ruling.Choice.TOURNAMENT:
        _exclude_from_tournament(party, side, player)
    if finished:
        bump_version(party)
    else:
        winner, loser = _forfeit_result(party, offender)
        _end_by_ruling(
            party, winner=winner, loser=loser, reason=Party.EndReason.DISQUALIFICATION,
            actor=actor, event="party_finished", why=reason, data={"disqualified": offender},
        )
    return ruling


def _exclude_from_tournament(party: Party, side: str, player: Player | None) -> None:
    """Mark the disqualified player, or the pair and both its players, for later draws."""
    pair = party.pair(side)
    if pair is None:
        raise ValueError(f"Party {party.pk} has no side {side!r}.")
    players = [player] if player is not None else list(pair.players)
    Player.objects.filter(pk__in=[p.pk for p in players]).update(disqualified=True)
    if player is None or party.round.tournament.format == Tournament.Format.PAIRS:
        Pair.objects.filter(pk=pair.pk).update(disqualified=True)
    entrants_changed([pair.tournament_id])


# -- violations of the rule set's own catalogue (UDL) -------------------------------------
