"""Who receives a tournament's events: the written-once query gives what the ORM query of the
same rule gives (active subscriptions whose author is a superuser or still an organizer)."""

from __future__ import annotations

import pytest
from django.db.models import Q

from scoring.models import TournamentRole, WebhookSubscription
from scoring.webhooks.services import _receiving
from tournaments.setup.services import create_tournament

pytestmark = pytest.mark.django_db


def _by_the_orm(tournament_id):
    managers = Q(created_by__is_superuser=True) | Q(
        created_by__tournament_roles__tournament_id=tournament_id,
        created_by__tournament_roles__role=TournamentRole.Role.ORGANIZER,
    )
    return set(WebhookSubscription.objects.filter(
        managers, tournament_id=tournament_id, active=True).values_list("pk", flat=True))


def test_receiving_is_the_rule_of_the_orm_query(tournament, organizer, make_user,
                                                referee_user):
    other_org = make_user("other-org", organizer=True)
    other = create_tournament(name="Other", slug="other-cup", organizer=other_org)
    root = make_user("root", is_superuser=True)
    former = make_user("former-org", organizer=True)
    TournamentRole.objects.create(tournament=tournament, user=former, role="referee")
    TournamentRole.objects.create(tournament=other, user=former, role="organizer")

    def subscribe(author, events=("protocol.signed",), active=True, on=tournament):
        return WebhookSubscription.objects.create(
            tournament=on, url="https://example.org/hook", events=list(events),
            created_by=author, active=active).pk

    mine = subscribe(organizer, ["protocol.signed", "round.closed"])
    root_one = subscribe(root, [])
    subscribe(organizer, active=False)
    subscribe(referee_user)  # a referee of the tournament is not its organizer
    subscribe(former)  # an organizer of another tournament only
    subscribe(other_org, on=other)

    found = _receiving(tournament.pk)
    assert dict(found) == {mine: ["protocol.signed", "round.closed"], root_one: []}
    assert {pk for pk, _events in found} == _by_the_orm(tournament.pk)
    assert len(found) == len({pk for pk, _events in found})  # each subscription once
    assert {pk for pk, _events in _receiving(other.pk)} == _by_the_orm(other.pk)
