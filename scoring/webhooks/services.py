"""Webhooks of the record: emit events to the organizers' URLs, register and replay.

``emit`` writes one delivery per matching subscription in the caller's transaction (each with
the subscription's next sequence number: the outbox, ``scoring.webhooks.outbox``) and tells a
sender when it commits (``scoring.webhooks.sender``); nothing is sent in the caller's request. Only
subscriptions whose author is still an organizer of the tournament (or a superuser) get
anything, so a hidden tournament's events reach no one else.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connections, router, transaction
from django.db.models import Model
from django.utils.translation import gettext as _

from scoring.core.compiled import db_column
from scoring.core.errors import ServiceError
from scoring.models import (
    WEBHOOK_EVENTS,
    Party,
    Protocol,
    Round,
    Tournament,
    TournamentRole,
    WebhookDelivery,
    WebhookSubscription,
    new_webhook_secret,
    who,
)
from scoring.webhooks.addresses import check_webhook_url
from scoring.webhooks.sender import notify_on_commit

logger = logging.getLogger(__name__)

EVENT_NAMES = tuple(name for name, _label in WEBHOOK_EVENTS)
COUNTED_ROUNDS = (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS, Round.Status.FINISHED)


_RECEIVING_SQL: dict[str, str] = {}


def _receiving_sql(connection: Any) -> str:
    """The query of ``_receiving`` for this database, written once from the models' ``_meta``.

    Every event asks it (a party finished, a finished party changed, a protocol
    countersigned), mostly of a tournament without webhooks; compiling the equivalent ORM
    query cost about 0.8 ms each time.
    """
    found = _RECEIVING_SQL.get(connection.alias)
    if found is not None:
        return found
    q = connection.ops.quote_name
    user = get_user_model()

    def column(model: type[Model], name: str) -> str:
        return q(db_column(model._meta.get_field(name)))

    sub, role = WebhookSubscription, TournamentRole
    user_pk = q(user._meta.pk.column)
    sql = (
        f"SELECT s.{q(sub._meta.pk.column)}, s.{column(sub, 'events')} "
        f"FROM {q(sub._meta.db_table)} s "
        f"JOIN {q(user._meta.db_table)} u ON u.{user_pk} = s.{column(sub, 'created_by')} "
        f"WHERE s.{column(sub, 'tournament')} = %s AND s.{column(sub, 'active')} = %s "
        f"AND (u.{column(user, 'is_superuser')} = %s OR EXISTS ("
        f"SELECT 1 FROM {q(role._meta.db_table)} r WHERE r.{column(role, 'user')} = u.{user_pk} "
        f"AND r.{column(role, 'tournament')} = %s AND r.{column(role, 'role')} = %s))"
    )
    _RECEIVING_SQL[connection.alias] = sql
    return sql


def _receiving(tournament_id: int) -> list[tuple[int, Any]]:
    """``(pk, events)`` of the active subscriptions of a tournament whose authors still
    manage it (a superuser, or an organizer of the tournament): one query, not compiled."""
    connection = connections[router.db_for_read(WebhookSubscription)]
    events = WebhookSubscription._meta.get_field("events")
    with connection.cursor() as cursor:
        cursor.execute(_receiving_sql(connection), [
            tournament_id, True, True, tournament_id, TournamentRole.Role.ORGANIZER])
        rows = cursor.fetchall()
    return [(pk, events.from_db_value(value, events.cached_col, connection)) for pk, value in rows]


def _add_delivery(subscription: WebhookSubscription, event: str, payload: dict[str, Any],
                  replay_of: WebhookDelivery | None = None) -> WebhookDelivery:
    """The subscription's next delivery (its row is locked by the caller); a sender is told on
    commit."""
    subscription.last_sequence += 1
    subscription.save(update_fields=["last_sequence"])
    delivery = WebhookDelivery.objects.create(
        subscription=subscription, sequence=subscription.last_sequence, event=event,
        payload=payload, replay_of=replay_of)
    notify_on_commit(subscription.pk)
    return delivery


def emit(
    tournament_id: int, event: str, payload: Callable[[], dict[str, Any]]
) -> list[WebhookDelivery]:
    """Write a delivery of ``event`` for every subscription that wants it (sent after commit).

    ``payload`` is called only when someone receives the event: a tournament without
    webhooks pays one query, not the payload's.
    """
    wanted = [pk for pk, events in _receiving(tournament_id) if event in (events or [])]
    if not wanted:
        return []
    data = payload()
    with transaction.atomic():
        subscriptions = WebhookSubscription.objects.select_for_update().filter(pk__in=wanted)
        deliveries = [_add_delivery(sub, event, data) for sub in subscriptions.order_by("pk")]
    logger.info("webhook %s of tournament %s: %s deliveries", event, tournament_id,
                len(deliveries))
    return deliveries


# -- payloads ------------------------------------------------------------------------------


def tournament_ref(tournament: Tournament) -> dict[str, Any]:
    """The tournament as a payload names it."""
    return {"id": tournament.pk, "slug": tournament.slug, "name": tournament.name}


def party_ref(party: Party) -> dict[str, Any]:
    """A party as a payload names it: round, table, state and both sides with their players."""
    sides: dict[str, dict[str, object] | None] = {}
    for side, pair in (("a", party.pair_a), ("b", party.pair_b)):
        if pair is None:
            sides[side] = None
            continue
        players = [pair.player1.name] + ([pair.player2.name] if pair.player2 is not None else [])
        sides[side] = {"pair": pair.pk, "name": pair.display_name, "players": players}
    return {
        "id": party.pk,
        "round": party.round_id,
        "round_number": party.round.number,
        "table_number": party.table.number if party.table is not None else None,
        "status": party.status,
        "winner": who(party.winner),
        "loser": who(party.lost_by),
        "end_reason": party.end_reason,
        "finished_at": party.finished_at.isoformat() if party.finished_at else None,
        "sides": sides,
        "seats": {seat: player.pk for seat, player in party.seat_players().items()},
    }


def party_finished(party: Party, totals: Any) -> None:
    """Emit ``party.finished`` with the totals as the game counts them.

    Called only by ``scoring.party.ending.end_party``, which every end of a party goes through
    (by the rules, a forfeit, a disqualification).
    """
    emit(party.round.tournament_id, "party.finished", lambda: {
        "tournament": tournament_ref(party.round.tournament),
        "party": party_ref(party),
        "totals": {"points": totals.points, "deal_points": totals.deal_points,
                   "fine_points": totals.fine_points},
    })


def record_changed(party: Party) -> None:
    """Emit ``standings.changed`` when a finished party of a counted round is changed.

    Called only by ``scoring.party.ending.evaluate_party``, which every change of a party's deals
    or fines calls (with the party as it was before the re-evaluation).
    """
    if party.status == Party.Status.FINISHED and party.round.status in COUNTED_ROUNDS:
        emit(party.round.tournament_id, "standings.changed", lambda: {
            "tournament": tournament_ref(party.round.tournament),
            "reason": "party.changed", "round_number": party.round.number,
            "party": party.pk})


def protocol_signed(party: Party, protocol: Protocol) -> None:
    """Emit ``protocol.signed`` for a countersigned protocol version."""
    emit(party.round.tournament_id, "protocol.signed", lambda: {
        "tournament": tournament_ref(party.round.tournament),
        "party": party_ref(party),
        "protocol": {"id": protocol.pk, "public_id": protocol.public_id,
                     "short_code": protocol.short_code, "version": protocol.version,
                     "sha256": protocol.sha256,
                     "signed_at": protocol.signed_at.isoformat() if protocol.signed_at
                     else None},
    })


def round_changed(rnd: Round, event: str) -> None:
    """Emit ``round.published`` or ``round.closed`` (and ``standings.changed`` on close)."""
    tournament = rnd.tournament
    emit(tournament.pk, event, lambda: {
        "tournament": tournament_ref(tournament),
        "round": {"id": rnd.pk, "number": rnd.number, "status": rnd.status,
                  "parties": rnd.parties.count()},
    })
    if event == "round.closed":
        emit(tournament.pk, "standings.changed", lambda: {
            "tournament": tournament_ref(tournament), "reason": "round.closed",
            "round_number": rnd.number, "party": None})


# -- subscriptions -------------------------------------------------------------------------


def _clean_events(events: Any) -> list[str]:
    """The chosen event names, in the documented order; at least one, all known."""
    chosen = list(events or [])
    unknown = [e for e in chosen if e not in EVENT_NAMES]
    if unknown:
        raise ServiceError("events", _("Unknown events: %(names)s.")
                           % {"names": ", ".join(map(str, unknown))})
    if not chosen:
        raise ServiceError("events", _("Choose at least one event."))
    return [e for e in EVENT_NAMES if e in chosen]


@transaction.atomic
def create_subscription(tournament: Tournament, *, url: str, events: Any,
                        actor: Any) -> WebhookSubscription:
    """Register an organizer's URL for events of a tournament (the URL guard checks it)."""
    check_webhook_url(url)
    subscription = WebhookSubscription.objects.create(
        tournament=tournament, url=url, events=_clean_events(events), created_by=actor)
    logger.info("webhook %s registered for tournament %s by %s", subscription.pk,
                tournament.pk, getattr(actor, "pk", None))
    return subscription


@transaction.atomic
def update_subscription(subscription: WebhookSubscription, *, url: str | None = None,
                        events: Any = None, active: bool | None = None) -> WebhookSubscription:
    """Change a subscription's URL, events or active flag; reactivating resumes its queue."""
    if url is not None and url != subscription.url:
        check_webhook_url(url)
        subscription.url = url
    if events is not None:
        subscription.events = _clean_events(events)
    if active is not None:
        subscription.active = active
    subscription.save(update_fields=["url", "events", "active"])
    if subscription.active:
        notify_on_commit(subscription.pk)
    return subscription


@transaction.atomic
def renew_secret(subscription: WebhookSubscription, *, actor: Any) -> WebhookSubscription:
    """Give a subscription a new signing secret: every delivery from now on (retries of earlier
    ones included) is signed with it, the old one no longer. The caller shows it once."""
    subscription.secret = new_webhook_secret()
    subscription.save(update_fields=["secret"])
    logger.info("webhook %s: a new secret, by %s", subscription.pk, getattr(actor, "pk", None))
    return subscription


@transaction.atomic
def delete_subscription(subscription: WebhookSubscription) -> None:
    """Delete a subscription with its deliveries."""
    logger.info("webhook %s deleted", subscription.pk)
    subscription.delete()


@transaction.atomic
def replay_delivery(delivery: WebhookDelivery) -> WebhookDelivery:
    """Send a delivery's payload again as a new delivery (the next sequence number)."""
    subscription = WebhookSubscription.objects.select_for_update().get(
        pk=delivery.subscription_id)
    return _add_delivery(subscription, delivery.event, delivery.payload, replay_of=delivery)
