"""Warnings and fines through the services: escalation, fine modes, UDL slow play, cancelling."""

from __future__ import annotations

import pytest

from referee.services import cancel_penalty, give_fine, give_warning
from scoring.core.errors import ConflictError, ServiceError
from scoring.models import Party, PartyEvent, Penalty, RefereeSettings
from scoring.party.deals import record_deal
from scoring.totals.compute import party_totals

pytestmark = pytest.mark.django_db


def totals(party):
    return party_totals(Party.objects.get(pk=party.pk)).points


def test_repeated_warning_of_a_kind_becomes_a_fine(party, referee_user):
    """(rules.md S28) Repeated warning of a kind becomes a fine."""
    first = give_warning(party.pk, side="a", category="talking", actor=referee_user).record
    second = give_warning(party.pk, side="a", category="talking", actor=referee_user).record
    assert first.kind == "warning" and first.points == 0
    assert (second.kind, second.points, second.mode) == ("fine", 25, "deduct")
    assert second.escalated_from == first
    assert totals(party) == {"a": -25, "b": 0}
    assert PartyEvent.objects.filter(party=party, kind="fine").count() == 1


@pytest.mark.parametrize("category", ["move_time", "talking", "signs", "conduct"])
def test_each_conduct_rule_is_warned_then_fined_on_its_own_kind(party, category):
    """(rules.md S14, S16, S17, S28) A slow move, talking during a deal, signs to a partner,
    eating, drinking or smoking: a warning, then the pair's fine (25, deducted), per kind."""
    first = give_warning(party.pk, side="b", category=category).record
    other = give_warning(party.pk, side="b", category="other").record
    second = give_warning(party.pk, side="b", category=category).record
    assert (first.kind, first.category, other.kind) == ("warning", category, "warning")
    assert (second.kind, second.category, second.points, second.mode) == (
        "fine", category, 25, "deduct")
    assert totals(party) == {"a": 0, "b": -25}


def test_warning_kinds_and_pairs_are_counted_separately(party):
    for category in ("talking", "signs", "conduct", "move_time", "other"):
        assert give_warning(party.pk, side="a", category=category).record.kind == "warning"
    assert give_warning(party.pk, side="b", category="talking").record.kind == "warning"
    assert totals(party) == {"a": 0, "b": 0}


def test_warnings_before_fine_setting(party, regs):
    regs(warnings_before_fine=2)
    kinds = [give_warning(party.pk, side="b", category="signs").record.kind for _ in range(4)]
    assert kinds == ["warning", "warning", "fine", "fine"]
    assert totals(party) == {"a": 0, "b": -50}


def test_fine_deducted_from_offender(party):
    record_deal(party.pk, outcome="domino", winner="b", points={"a": 0, "b": 40})
    give_fine(party.pk, side="b", category="signs")
    assert totals(party) == {"a": 0, "b": 15}


def test_fine_awarded_to_opponents(party, regs):
    regs(fine_mode="award", fine_points=30)
    fine = give_fine(party.pk, side="b", category="conduct").record
    assert fine.mode == "award" and fine.points == 30
    assert totals(party) == {"a": 30, "b": 0}


def test_fine_takes_total_below_zero(party):
    give_fine(party.pk, side="a", category="other", points=10)
    assert totals(party) == {"a": -10, "b": 0}


def test_fine_cannot_take_total_below_zero_when_regulations_say_so(party, regs):
    regs(allow_negative=False)
    give_fine(party.pk, side="a", category="other")
    assert totals(party) == {"a": 0, "b": 0}


def test_udl_second_slow_play_pays_20_points_to_opponent(party, tournament):
    RefereeSettings.objects.create(tournament=tournament, penalty_preset="udl")
    first = give_warning(party.pk, side="a", category="move_time").record
    second = give_warning(party.pk, side="a", category="move_time").record
    assert first.kind == "warning"
    assert (second.kind, second.points, second.mode) == ("fine", 20, "award")
    assert totals(party) == {"a": 0, "b": 20}


def test_udl_direct_slow_play_fine_is_paid_to_opponent(party, tournament):
    RefereeSettings.objects.create(tournament=tournament, penalty_preset="udl")
    give_fine(party.pk, side="b", category="move_time")
    assert totals(party) == {"a": 20, "b": 0}


def test_cancelled_fine_no_longer_counts_and_is_logged(party, referee_user):
    fine = give_fine(party.pk, side="a", category="signs", actor=referee_user).record
    cancel_penalty(fine.pk, reason="wrong pair", actor=referee_user)
    fine.refresh_from_db()
    assert fine.cancelled
    assert totals(party) == {"a": 0, "b": 0}
    event = PartyEvent.objects.get(party=party, kind="penalty_cancelled")
    assert event.reason == "wrong pair"
    assert event.data["before"] == {"cancelled": False} and event.data["after"] == {
        "cancelled": True
    }


def test_cancelled_warning_does_not_count_towards_a_fine(party):
    warning = give_warning(party.pk, side="a", category="talking").record
    cancel_penalty(warning.pk, reason="misheard")
    assert give_warning(party.pk, side="a", category="talking").record.kind == "warning"


def test_cancel_needs_a_reason(party):
    fine = give_fine(party.pk, side="a", category="signs").record
    with pytest.raises(ServiceError) as err:
        cancel_penalty(fine.pk, reason=" ")
    assert err.value.field == "reason"


def test_retried_warning_with_client_id_is_recorded_once(party):
    first = give_warning(party.pk, side="a", category="talking", client_id="tap-1").record
    again = give_warning(party.pk, side="a", category="talking", client_id="tap-1").record
    assert first.pk == again.pk
    assert Penalty.objects.filter(party=party).count() == 1


def test_stale_version_is_a_conflict_and_changes_nothing(party):
    version = party.version
    give_warning(party.pk, side="a", category="talking", expected_version=version)
    with pytest.raises(ConflictError):
        give_warning(party.pk, side="b", category="talking", expected_version=version)
    assert Penalty.objects.filter(party=party).count() == 1


def test_warning_names_the_player_of_the_pair(party):
    warning = give_warning(party.pk, side="b", category="signs", seat="b2").record
    assert warning.player == party.pair_b.player2
    with pytest.raises(ServiceError) as err:
        give_warning(party.pk, side="a", category="signs", seat="b1")
    assert err.value.field == "seat"


def test_warnings_need_a_party_in_progress(make_party):
    scheduled = make_party()
    with pytest.raises(ServiceError):
        give_warning(scheduled.pk, side="a", category="talking")


def test_a_warning_is_not_a_ruling_category(party):
    with pytest.raises(ServiceError) as err:
        give_warning(party.pk, side="a", category="touched_tile")
    assert err.value.field == "category"


def test_awarded_fine_reaching_the_target_finishes_the_party(party, regs):
    regs(fine_mode="award", fine_points=25, target=100)
    record_deal(party.pk, outcome="domino", winner="a", points={"a": 80, "b": 0})
    give_fine(party.pk, side="b", category="signs")
    party.refresh_from_db()
    assert (party.status, party.winner, party.end_reason) == ("finished", "a", "target")
