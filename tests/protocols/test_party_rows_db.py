"""The protocol's rows read by queries written once are the ORM's rows, related rows and all."""

from __future__ import annotations

import pytest
from django.forms.models import model_to_dict

from scoring.models import Penalty, Protocol, Ruling
from scoring.party.rows import locked_version, party_rows, players_by_pk
from scoring.signoff.content import party_players
from scoring.signoff.services import sign_as_player

pytestmark = pytest.mark.django_db


def _values(instance):
    """Every column's value as the ORM gives it (dates as aware datetimes, JSON decoded)."""
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_deals_penalties_and_rulings_are_the_orms(finished_party, referee_user):
    fine = Penalty.objects.filter(party=finished_party, kind="fine").first()
    seated = dict(party_players(finished_party))
    Ruling.objects.create(party=finished_party, kind="forfeit", side="a", game=1,
                          player=seated["a1"], penalty=fine, reason="Отказ от игры")
    Ruling.objects.create(party=finished_party, kind="forfeit", side="b", game=1)
    rows = party_rows(finished_party)

    deals = list(finished_party.deals.order_by("number"))
    assert [_values(d) for d in rows.deals] == [_values(d) for d in deals]
    assert rows.deals[0].recorded_at.tzinfo is not None  # converted as the ORM converts
    penalties = list(finished_party.penalties.select_related("player"))
    assert [_values(p) for p in rows.penalties] == [_values(p) for p in penalties]
    assert [p.player and p.player.name for p in rows.penalties] == [
        p.player and p.player.name for p in penalties]
    rulings = list(finished_party.rulings.select_related("player", "penalty"))
    assert len(rows.rulings) == 2
    assert [_values(r) for r in rows.rulings] == [_values(r) for r in rulings]
    first, second = rows.rulings
    assert first.player.name == seated["a1"].name and _values(first.penalty) == _values(fine)
    assert second.player is None and second.penalty is None


def test_players_by_pk(finished_party):
    seated = [player for _seat, player in party_players(finished_party)]
    found = players_by_pk([p.pk for p in seated])
    assert {pk: model_to_dict(p) for pk, p in found.items()} == {
        p.pk: model_to_dict(p) for p in seated}
    assert players_by_pk([]) == {}


def test_the_open_version_with_its_signatures_in_order(finished_party, player_users):
    opened, none = locked_version(finished_party)  # opened when the party finished
    assert opened.status == Protocol.Status.AWAITING and none == []
    seated = party_players(finished_party)
    for user, (_seat, player) in list(zip(player_users, seated, strict=True))[:2]:
        sign_as_player(finished_party.pk, player_id=player.pk, actor=user)
    protocol, signatures = locked_version(finished_party)
    expected = list(protocol.signatures.select_related("user"))
    assert protocol.pk == opened.pk and protocol.party is finished_party
    assert [_values(s) for s in signatures] == [_values(s) for s in expected]
    assert [s.user.username for s in signatures] == [u.username for u in player_users[:2]]
