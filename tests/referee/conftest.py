"""Fixtures of the referee desk: API clients per role, regulations, a second tournament."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, TournamentRoleFactory


@pytest.fixture
def api(referee_user):
    """An API client authenticated as the tournament's referee."""
    client = APIClient()
    client.force_authenticate(referee_user)
    return client


@pytest.fixture
def api_as():
    """An API client for any user (None: anonymous)."""

    def make(user=None):
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return make


@pytest.fixture
def regs(tournament):
    """Change the tournament's regulations: regs(target=..., fine_mode=...)."""

    def change(**values):
        regulations = tournament.regulations
        for name, value in values.items():
            setattr(regulations, name, value)
        regulations.save()
        return regulations

    return change


@pytest.fixture
def second_referee(make_user, tournament):
    return TournamentRoleFactory(tournament=tournament, user=make_user("ref2")).user


@pytest.fixture
def other_tournament_referee(make_user):
    """A referee of another tournament."""
    other = TournamentFactory(name="Другой турнир", slug="other-cup", organizer=make_user())
    return TournamentRoleFactory(tournament=other, user=make_user("foreign-ref"), role="chief").user


@pytest.fixture
def player_user(make_user, tournament):
    """A user who plays in the tournament (in pair A of the party)."""
    user = make_user("player")
    player = tournament.pairs.order_by("id").first().player1
    player.user = user
    player.save()
    return user


@pytest.fixture
def table_referee(make_user, tournament):
    """A referee of the tournament assigned to table 2 only."""
    role = TournamentRoleFactory(tournament=tournament, user=make_user("table2-ref"))
    role.tables.set([tournament.tables.get(number=2)])
    return role.user


@pytest.fixture
def desk(make_user):
    """A started party of a rule set, its referee and an API client (``desk("udl")``)."""
    from tests.referee.test_rule_sets_desk import make_desk

    def make(code, **kwargs):
        return make_desk(make_user, code, **kwargs)

    return make
