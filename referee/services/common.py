"""What the referee services share: the party's checks, its sides and seats, its end by a ruling.

Every service locks the party row (``lock_party``, refusing a stale version with 409), checks
the regulations, changes state inside one transaction and appends to the party's event log.
A client id makes a retried request return what the first one made.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from referee.rulings import forfeit_result, offender_side
from scoring.core.errors import ServiceError, translate_engine_error
from scoring.models import Deal, Pair, Party, PartyDesk, Penalty, Player, Ruling
from scoring.party.ending import end_party
from scoring.party.row_lock import bump_version, lock_party
from scoring.rules import RuleError, RuleSet, get_rule_set, party_side

SIDES = ("a", "b")


def _require_in_progress(party: Party) -> None:
    """Refuse actions that need a running party."""
    if party.status == Party.Status.FINISHED:
        raise ServiceError("party", _("The party is finished."))
    if party.status != Party.Status.IN_PROGRESS:
        raise ServiceError("party", _("The party has not started yet."))



def _end_by_ruling(
    party: Party,
    *,
    winner: str,
    reason: str,
    actor: Any,
    event: str,
    why: str = "",
    data: dict[str, Any] | None = None,
    loser: str = "",
) -> None:
    """Finish a locked party by a ruling: ``winner`` gets the regulations' forfeit score.

    ``winner`` and ``loser`` are engine sides (a seat where every player keeps his own
    score); with no winner the deals' points stand and ``loser`` alone carries the ruling.
    """
    now = timezone.now()
    if loser:
        data = {**(data or {}), "loser": loser}
    end_party(
        party, winner=winner, loser=loser, reason=reason, actor=actor, event=event, why=why,
        data=data, finished_at=now, started_at=party.started_at or now, paused_at=None,
    )
    bump_version(party)


# -- small checks shared by the services ---------------------------------------------------


def _check_side(side: str, field: str = "side") -> str:
    """Refuse anything but "a" or "b"."""
    if side not in SIDES:
        raise ServiceError(field, _("Choose pair A or pair B."))
    return side


def _require_not_finished(party: Party) -> None:
    """Refuse rulings on a finished party or a bye."""
    if party.status == Party.Status.FINISHED:
        raise ServiceError("party", _("The party is finished."))
    if party.is_bye:
        raise ServiceError("party", _("A bye is not played."))


def _rules(party: Party) -> tuple[RuleSet, Any]:
    """The party's rule set and the plain snapshot of its regulations."""
    tournament = party.round.tournament
    return get_rule_set(tournament.rule_set), tournament.regulations.rules_config()


def _engine(call: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a rule-engine function; its refusal becomes a translated service error."""
    try:
        return call(*args, **kwargs)
    except RuleError as exc:
        raise translate_engine_error(exc) from exc


def _seat_side(party: Party, seat: str) -> str:
    """The party side of a seat at the table ("a1" → "a"), or a service error naming ``seat``."""
    rule_set, cfg = _rules(party)
    _engine(rule_set.side_of, seat, "seat")
    if seat not in rule_set.seats_for(cfg):
        raise ServiceError(
            "seat", _("Nobody sits on %(seat)s in this game.") % {"seat": seat.upper()}
        )
    return party_side(seat)


def _offender(
    party: Party,
    side: str,
    seat: str = "",
    player: Player | None = None,
    *,
    whole_pair: bool = False,
) -> str:
    """The engine side a penalty or ruling against ``side`` (and its player) is given to.

    The side itself in pairs games and in singles of two sides; the player's seat where every
    player keeps his own score (Kozel, the Draw, Block and Classic games).
    """
    rule_set, cfg = _rules(party)
    if player is not None and not seat:
        seat = next((s for s, p in party.seat_players().items() if p.pk == player.pk), "")
    return _engine(offender_side, rule_set, cfg, side, seat, whole_pair=whole_pair)


def _forfeit_result(party: Party, *offenders: str) -> tuple[str, str]:
    """Winner and loser (engine sides) of a party a ruling ends against ``offenders``."""
    rule_set, cfg = _rules(party)
    return _engine(forfeit_result, rule_set, cfg, offenders)


def _seated(party: Party, offender: str) -> Player | None:
    """The player on a seat (None for a side)."""
    return party.seat_player(offender)


def _player(party: Party, side: str, seat: str = "", player_id: int | None = None) -> Player | None:
    """The player on a seat, or a given player who must belong to the side's pair."""
    pair: Pair | None = party.pair(side)
    if pair is None:
        raise ServiceError("side", _("A bye has no opponent."))
    if seat:
        if _seat_side(party, seat) != side:
            raise ServiceError("seat", _("That seat belongs to the other pair."))
        return pair.player1 if seat.endswith("1") else pair.player2
    if player_id is None:
        return None
    for player in pair.players:
        if player.pk == int(player_id):
            return player
    raise ServiceError("player", _("The player does not play in that pair."))


def _reason(reason: str, required: bool = False) -> str:
    """A stripped reason; some rulings require one."""
    reason = (reason or "").strip()
    if required and not reason:
        raise ServiceError("reason", _("Give a reason."))
    return reason


def deal_in_play(party: Party) -> int:
    """The number of the deal being played (the next one to record)."""
    return (party.deals.aggregate(m=Max("number"))["m"] or 0) + 1


def desk_of(party: Party) -> PartyDesk:
    """The party's desk notes, created on first use (call with the party locked); the party
    instance keeps them (the lock read them with its row), so it shows what was changed."""
    desk, _created = PartyDesk.objects.get_or_create(party=party)
    party.desk = desk
    return desk




R = TypeVar("R", Deal, Penalty, Ruling)


def _existing(model: type[R], party_id: int, client_id: str) -> R | None:
    """The record a retried request already made, if any."""
    if not client_id:
        return None
    return model.objects.filter(party_id=party_id, client_id=client_id).order_by("pk").first()


def _locked_unless_done(
    model: type[R], party_id: int, client_id: str, expected_version: int | None
) -> tuple[Party, R | None]:
    """Lock the party for a new record; a retried request gets the record it already made.

    The retry is looked for before the version check too: a retry carries the version the
    device saw before its first attempt succeeded.
    """
    found = _existing(model, party_id, client_id)
    if found is not None:
        return Party.objects.get(pk=party_id), found
    party = lock_party(party_id, expected_version)
    return party, _existing(model, party_id, client_id)



def actor_id(actor: Any) -> int | None:
    """The id of the user behind an action, for the log (None for the background worker)."""
    return getattr(actor, "pk", None) if getattr(actor, "is_authenticated", False) else None
