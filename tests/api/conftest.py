"""Fixtures of the whole-API tests: a tournament with every kind of record, and another one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from tests.factories import PartyFactory, TournamentFactory, TournamentRoleFactory


@dataclass
class Field:
    """The records the API tests act on: ours in ``tournament``, a leak target in ``other``."""

    tournament: Any
    other: Any
    party: Any
    deal: Any
    penalty: Any
    other_party: Any


def _played_party(make_party: Any, referee: Any) -> tuple[Any, Any, Any]:
    """A started party at table 1 with one deal and one warning."""
    from referee.services import give_warning, start_party
    from scoring.party.deals import record_deal

    party = make_party()
    start_party(party.pk, actor=referee)
    deal = record_deal(party.pk, actor=referee, outcome="domino", winner="a", went_out="a1",
                       points={"a": 30, "b": 0}).record
    penalty = give_warning(party.pk, side="b", category="signs", actor=referee).record
    party.refresh_from_db()
    return party, deal, penalty


@pytest.fixture
def field(tournament, make_party, referee_user, make_user) -> Field:
    """Our tournament (a round in play: a party with a deal and a warning) and another one."""
    party, deal, penalty = _played_party(make_party, referee_user)
    other = TournamentFactory(name="Чужой турнир", slug="foreign-cup",
                              organizer=make_user("other-org", organizer=True))
    other_party = PartyFactory(round__tournament=other)  # its own pairs of players, table 1
    TournamentRoleFactory(tournament=other, user=make_user("other-ref"), role="referee")
    return Field(tournament, other, party, deal, penalty, other_party)


@pytest.fixture
def signing_files(settings: Any, tmp_path: Path) -> None:
    """The installation's signing key and the stored PDFs in a temporary directory."""
    settings.PROTOCOL_SIGNING_DIR = tmp_path / "signing"
    settings.PROTOCOL_SIGNING_KEY = ""
    settings.PROTOCOL_SIGNING_CERT = ""
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def in_process_requests():
    """Requests share the test's connection and transaction, as Django's test client does."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


FUZZ_ROLES = ("organizer", "referee", "player", "anonymous")
"""The roles the schema fuzzing calls as (``tests/api/test_schemathesis*.py``)."""


@pytest.fixture
def role_headers(field, organizer, referee_user, make_user) -> dict[str, dict[str, str]]:
    """Each fuzzing role's request headers: the organizer of our tournament, the referee of its
    party, a player of that party (with his own login) and an anonymous visitor."""
    from rest_framework.authtoken.models import Token

    player = field.party.pair_a.player1
    player.user = make_user("party-player")
    player.save()
    users = {"organizer": organizer, "referee": referee_user, "player": player.user}
    headers = {role: {"Authorization": f"Token {Token.objects.create(user=user).key}"}
               for role, user in users.items()}
    return {**headers, "anonymous": {}}
