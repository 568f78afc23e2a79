"""Registration rules: pairs of two distinct players, unique tables, regulation limits."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from scoring.core.errors import ServiceError
from scoring.models import Pair, Player
from tournaments.registration.services import add_table, register_pair, register_player
from tournaments.setup.forms import RegulationsForm

pytestmark = pytest.mark.django_db


def test_pair_with_same_player_twice_refused(tournament):
    player = register_player(tournament, name="Одинокий Игрок")
    count = Pair.objects.count()
    with pytest.raises(ServiceError) as err:
        register_pair(tournament, player, player)
    assert err.value.field == "player2"
    assert Pair.objects.count() == count


def test_player_in_two_pairs_refused(tournament):
    taken = tournament.pairs.first().player1
    newcomer = register_player(tournament, name="Новичок")
    with pytest.raises(ServiceError) as err:
        register_pair(tournament, taken, newcomer)
    assert err.value.field == "player1"
    assert "another pair" in err.value.message


def test_player_of_other_tournament_refused(tournament, organizer):
    from tournaments.setup.services import create_tournament

    other = create_tournament(name="Other", slug="other", organizer=organizer)
    stranger = Player.objects.create(tournament=other, name="Stranger")
    newcomer = register_player(tournament, name="Новичок")
    with pytest.raises(ServiceError) as err:
        register_pair(tournament, newcomer, stranger)
    assert err.value.field == "player2"


def test_table_number_unique(tournament):
    with pytest.raises(ServiceError) as err:
        add_table(tournament, 1)
    assert err.value.field == "number"


@pytest.mark.parametrize(
    ("field", "value"),
    [("target", 0), ("party_minutes", 0), ("party_minutes", 181), ("fine_points", 0)],
)
def test_regulations_limits(tournament, field, value):
    data = RegulationsForm(instance=tournament.regulations).initial
    data[field] = value
    form = RegulationsForm(data, instance=tournament.regulations)
    assert not form.is_valid()
    assert field in form.errors


def test_forfeit_winner_must_beat_loser(tournament):
    regs = tournament.regulations
    regs.forfeit_loser_points = 300
    with pytest.raises(ValidationError) as err:
        regs.full_clean()
    assert "forfeit_winner_points" in err.value.message_dict


def test_regulations_snapshot_defaults(tournament):
    cfg = tournament.regulations.rules_config()
    assert (cfg.target, cfg.fine_points, cfg.fine_mode, cfg.drawn_fish) == (
        200, 25, "deduct", "nobody"
    )
    assert cfg.domino_counts_partner is True
