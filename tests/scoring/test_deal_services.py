"""The deal services through the database: scoring, refusals that change nothing, the log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from referee.services import forfeit_party, mark_time_expired, start_party
from scoring.core.errors import ConflictError, ServiceError
from scoring.models import AppendOnlyError, Deal, Party, PartyEvent
from scoring.party.deals import annul_deal, correct_deal, record_deal
from scoring.totals.compute import party_totals

pytestmark = pytest.mark.django_db

DOMINO_A = {"outcome": "domino", "went_out": "a1", "pips": {"a1": 0, "a2": 10, "b1": 20, "b2": 30}}


def snapshot(party):
    """Everything a refused request must leave untouched."""
    party.refresh_from_db()
    return (
        list(Deal.objects.filter(party=party).values_list("number", "points_a", "points_b")),
        PartyEvent.objects.filter(party=party).count(),
        party.version,
        party.status,
    )


def test_domino_counts_all_pips_through_service(party):
    deal = record_deal(party.pk, **DOMINO_A).record
    assert (deal.number, deal.outcome, deal.winner) == (1, "domino", "a")
    assert (deal.points_a, deal.points_b) == (60, 0)
    assert party_totals(Party.objects.get(pk=party.pk)).points == {"a": 60, "b": 0}


def test_domino_without_partner_pips_follows_regulations(party):
    regs = party.round.tournament.regulations
    regs.domino_counts_partner = False
    regs.save()
    deal = record_deal(party.pk, **DOMINO_A).record
    assert (deal.points_a, deal.points_b) == (50, 0)


def test_fish_fewer_pips_wins(party):
    deal = record_deal(
        party.pk, outcome="fish", pips={"a1": 5, "a2": 6, "b1": 10, "b2": 3}
    ).record
    assert deal.winner == "a" and deal.points_a == 24 and deal.points_b == 0


def test_drawn_fish_carry_over_reaches_next_winner(party):
    regs = party.round.tournament.regulations
    regs.drawn_fish = "carry"
    regs.save()
    drawn = record_deal(party.pk, outcome="fish", pips={"a1": 5, "a2": 5, "b1": 4, "b2": 6}).record
    assert drawn.outcome == "drawn_fish" and (drawn.points_a, drawn.points_b) == (0, 0)
    record_deal(party.pk, **DOMINO_A)
    assert party_totals(Party.objects.get(pk=party.pk)).points == {"a": 80, "b": 0}


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"outcome": "fish", "pips": {"a1": 50, "a2": 50, "b1": 40, "b2": 40}}, "pips"),
        ({"outcome": "fish", "pips": {"a1": -1, "a2": 5, "b1": 4, "b2": 6}}, "pips"),
        ({"outcome": "domino", "winner": "a", "points": {"a": 169, "b": 0}}, "points"),
    ],
)
def test_bad_deal_refused_names_field_and_changes_nothing(party, kwargs, field):
    before = snapshot(party)
    with pytest.raises(ServiceError) as err:
        record_deal(party.pk, **kwargs)
    assert err.value.field.startswith(field)
    assert snapshot(party) == before


def test_duplicate_deal_number_refused(party):
    record_deal(party.pk, number=1, **DOMINO_A)
    before = snapshot(party)
    with pytest.raises(ServiceError) as err:
        record_deal(party.pk, number=1, **DOMINO_A)
    assert err.value.field == "number"
    assert "already recorded" in err.value.message
    assert snapshot(party) == before


def test_deal_on_finished_party_refused(party):
    for _ in range(4):
        record_deal(party.pk, **DOMINO_A)
    party.refresh_from_db()
    assert party.status == Party.Status.FINISHED
    before = snapshot(party)
    with pytest.raises(ServiceError) as err:
        record_deal(party.pk, **DOMINO_A)
    assert err.value.field == "party"
    assert snapshot(party) == before


def test_deal_before_start_refused(make_party):
    party = make_party()
    with pytest.raises(ServiceError):
        record_deal(party.pk, **DOMINO_A)
    assert not Deal.objects.filter(party=party).exists()


def test_target_reached_finishes_party(party):
    for _ in range(3):
        record_deal(party.pk, **DOMINO_A)
    party.refresh_from_db()
    assert party.status == Party.Status.IN_PROGRESS
    record_deal(party.pk, **DOMINO_A)
    party.refresh_from_db()
    assert (party.status, party.winner, party.end_reason) == ("finished", "a", "target")
    assert party.events.filter(kind="party_finished").exists()


def test_time_expired_during_deal_ends_after_that_deal(party):
    Party.objects.filter(pk=party.pk).update(
        started_at=timezone.now() - timedelta(minutes=41)
    )
    record_deal(party.pk, **DOMINO_A)
    party.refresh_from_db()
    assert party.time_expired_at is not None
    assert (party.status, party.winner, party.end_reason) == ("finished", "a", "time")


def test_time_marked_then_level_scores_need_extra_deal(party):
    record_deal(party.pk, **DOMINO_A)
    # the first deal ended 10 minutes ago; the time ran out 5 minutes ago, during deal 2
    Party.objects.filter(pk=party.pk).update(started_at=timezone.now() - timedelta(minutes=45))
    Deal.objects.filter(party=party).update(recorded_at=timezone.now() - timedelta(minutes=10))
    mark_time_expired(party.pk)
    party.refresh_from_db()
    assert party.time_expired_at is not None and party.status == "in_progress"
    # the last deal levels the score: one more deal must be played
    record_deal(
        party.pk, outcome="domino", went_out="b1", pips={"a1": 20, "a2": 40, "b1": 0, "b2": 0}
    )
    party.refresh_from_db()
    assert party.status == "in_progress"
    assert party_totals(party).points == {"a": 60, "b": 60}
    record_deal(party.pk, **DOMINO_A)
    party.refresh_from_db()
    assert (party.status, party.winner, party.end_reason) == ("finished", "a", "time")


def test_forfeit_gives_200_to_0(make_party, referee_user):
    party = make_party()
    forfeit_party(party.pk, absent_side="b", actor=referee_user, reason="did not come")
    party.refresh_from_db()
    assert (party.status, party.winner, party.end_reason) == ("finished", "a", "forfeit")
    assert party_totals(party).points == {"a": 200, "b": 0}


def test_retried_client_id_creates_one_deal(party):
    first = record_deal(party.pk, client_id="tablet-1-deal-1", **DOMINO_A).record
    again = record_deal(party.pk, client_id="tablet-1-deal-1", **DOMINO_A).record
    assert first.pk == again.pk
    assert Deal.objects.filter(party=party).count() == 1


def test_stale_version_is_a_conflict(party):
    record_deal(party.pk, expected_version=party.version, **DOMINO_A)
    with pytest.raises(ConflictError):
        record_deal(party.pk, expected_version=party.version, **DOMINO_A)
    assert Deal.objects.filter(party=party).count() == 1


def test_correct_deal_keeps_old_values_in_log(party, referee_user):
    deal = record_deal(party.pk, **DOMINO_A).record
    correct_deal(
        deal.pk, actor=referee_user, reason="miscounted", outcome="domino", went_out="b1",
        pips={"a1": 10, "a2": 10, "b1": 0, "b2": 5},
    )
    deal.refresh_from_db()
    assert (deal.winner, deal.points_a, deal.points_b) == ("b", 0, 25)
    event = party.events.get(kind="deal_corrected")
    assert event.reason == "miscounted"
    assert event.data["before"]["points_a"] == 60
    assert event.data["after"]["points_b"] == 25


def test_correction_needs_a_reason(party):
    deal = record_deal(party.pk, **DOMINO_A).record
    with pytest.raises(ServiceError) as err:
        correct_deal(deal.pk, reason=" ", outcome="fish", pips={"a1": 1, "a2": 1, "b1": 9, "b2": 9})
    assert err.value.field == "reason"
    deal.refresh_from_db()
    assert deal.points_a == 60


def test_annul_deal_scores_nothing_and_reopens(party):
    deals = [record_deal(party.pk, **DOMINO_A).record for _ in range(4)]
    party.refresh_from_db()
    assert party.status == "finished"
    annul_deal(deals[-1].pk, reason="reshuffle was due")
    party.refresh_from_db()
    assert party.status == "in_progress" and party.winner == ""
    assert party_totals(party).points == {"a": 180, "b": 0}
    assert party.events.filter(kind="party_reopened").exists()


def test_event_log_is_append_only(party):
    record_deal(party.pk, **DOMINO_A)
    event = party.events.first()
    event.reason = "rewritten"
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    assert party.events.filter(kind="party_started").exists()


def test_start_refused_before_publication(make_party):
    party = make_party()
    party.round.status = "draft"
    party.round.save()
    with pytest.raises(ServiceError) as err:
        start_party(party.pk)
    assert err.value.field == "round"
