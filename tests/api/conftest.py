"""Fixtures of the whole-API tests: a tournament with every kind of record, and another one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest


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
    from scoring.services import record_deal

    party = make_party()
    start_party(party.pk, actor=referee)
    deal = record_deal(party.pk, actor=referee, outcome="domino", winner="a", went_out="a1",
                       points={"a": 30, "b": 0})
    penalty = give_warning(party.pk, side="b", category="signs", actor=referee)
    party.refresh_from_db()
    return party, deal, penalty


@pytest.fixture
def field(tournament, make_party, referee_user, make_user) -> Field:
    """Our tournament (a round in play: a party with a deal and a warning) and another one."""
    from scoring.models import Pair, Party, Player, Round, Table, TournamentRole
    from tournaments.services import create_tournament

    party, deal, penalty = _played_party(make_party, referee_user)
    other_org = make_user("other-org", organizer=True)
    other = create_tournament(name="Чужой турнир", slug="foreign-cup", organizer=other_org)
    players = [Player.objects.create(tournament=other, name=f"Чужой {k}") for k in range(4)]
    pairs = [
        Pair.objects.create(tournament=other, player1=players[0], player2=players[1]),
        Pair.objects.create(tournament=other, player1=players[2], player2=players[3]),
    ]
    table = Table.objects.create(tournament=other, number=1)
    rnd = Round.objects.create(tournament=other, number=1, status=Round.Status.PUBLISHED)
    other_party = Party.objects.create(round=rnd, table=table, pair_a=pairs[0], pair_b=pairs[1])
    foreign_ref = make_user("other-ref")
    TournamentRole.objects.create(tournament=other, user=foreign_ref, role="referee")
    return Field(tournament, other, party, deal, penalty, other_party)
