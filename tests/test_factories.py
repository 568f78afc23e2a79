"""The shared factories make consistent rows: one tournament throughout, numbers per parent."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tests.factories import (
    DealFactory,
    PartyFactory,
    PenaltyFactory,
    RoundFactory,
    TableFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def test_a_party_is_made_of_one_tournaments_rows():
    party = PartyFactory()
    tournament = party.round.tournament
    assert party.table.tournament == tournament
    for pair in (party.pair_a, party.pair_b):
        assert pair.tournament == tournament
        assert pair.player1.tournament == pair.player2.tournament == tournament
    assert (party.round.number, party.round.status, party.table.number) == (1, "published", 1)
    assert tournament.roles.get().role == "organizer"  # made by the real service
    assert tournament.created_by.has_perm("scoring.add_tournament")
    assert tournament.created_by.check_password("pw")


def test_numbers_follow_per_tournament_and_existing_rows_are_reused():
    tournament = TournamentFactory()
    assert [TableFactory(tournament=tournament).number for _ in range(3)] == [1, 2, 3]
    first = RoundFactory(tournament=tournament)
    assert RoundFactory(tournament=tournament, number=1) == first
    assert TableFactory(tournament=tournament, number=2).pk == tournament.tables.get(number=2).pk
    party = PartyFactory(round=first, table__number=3)
    assert party.table == tournament.tables.get(number=3)


def test_deals_and_penalties_of_a_party():
    party = PartyFactory()
    deals = DealFactory.create_batch(2, party=party)
    assert [d.number for d in deals] == [1, 2]
    assert PenaltyFactory(party=party).side == "b"


def test_regulations_are_changed_after_the_preset_and_validated():
    tournament = TournamentFactory(rule_set="kozel", format="individual",
                                   regulations={"goat_at": 101})
    tournament.regulations.refresh_from_db()
    assert tournament.regulations.goat_at == 101
    with pytest.raises(ValidationError, match="target"):
        TournamentFactory(regulations__target=-5)


def test_roles_and_plain_users():
    user = UserFactory()
    assert not user.has_perm("scoring.add_tournament")
    role = TournamentRoleFactory(user=user, role="chief")
    assert role.tournament.roles.filter(user=user, role="chief").exists()
