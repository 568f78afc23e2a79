"""Every ruling and every way a party ends, through the services."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from referee import services
from referee.state import party_queryset, party_state
from referee.tasks import flag_no_show, sweep_no_shows
from scoring.core.errors import ServiceError
from scoring.models import Deal, Pair, Party, PartyDesk, PartyEvent, Penalty, Player, Ruling
from scoring.party.deals import record_deal
from scoring.totals.compute import party_totals
from tests.factories import PairFactory, PartyFactory, TableFactory

pytestmark = pytest.mark.django_db


def fresh(party):
    return Party.objects.get(pk=party.pk)


def totals(party):
    return party_totals(fresh(party)).points


def state(party):
    return party_state(party_queryset().get(pk=party.pk))


def started_minutes_ago(party, minutes):
    """Move the party's start (and its deals so far) back in time."""
    shift = timedelta(minutes=minutes)
    Party.objects.filter(pk=party.pk).update(started_at=timezone.now() - shift)
    for deal in Deal.objects.filter(party_id=party.pk):
        Deal.objects.filter(pk=deal.pk).update(recorded_at=deal.recorded_at - shift / 2)


# -- out of turn ------------------------------------------------------------------------------


def test_out_of_turn_continue_exposes_the_tile_and_the_deal_stands(party, referee_user):
    """(rules.md S23) Out of turn continue exposes the tile and the deal stands."""
    ruling = services.rule_out_of_turn(
        party.pk, seat="b1", choice="continue", tile="5-3", actor=referee_user
    ).record
    assert (ruling.side, ruling.deal_number, ruling.details) == ("b", 1, {"tile": [3, 5]})
    assert ruling.penalty is None and ruling.player == party.pair_b.player1
    assert state(party)["exposed"] == [{"seat": "b1", "tile": [3, 5]}]
    record_deal(party.pk, outcome="domino", went_out="b1", pips={"a1": 10, "a2": 5, "b2": 7})
    assert totals(party) == {"a": 0, "b": 22}
    assert state(party)["exposed"] == []  # the next deal has no exposed tile
    assert PartyEvent.objects.filter(party=party, kind="ruling_out_of_turn").exists()


def test_out_of_turn_reshuffle_annuls_the_deal_and_fines_the_offenders(party, referee_user):
    """(rules.md S23) Out of turn reshuffle annuls the deal and fines the offenders."""
    record_deal(party.pk, outcome="domino", winner="a", points={"a": 30, "b": 0})
    ruling = services.rule_out_of_turn(
        party.pk, seat="a2", choice="reshuffle", actor=referee_user
    ).record
    annulled = Deal.objects.get(party=party, number=2)
    assert annulled.outcome == "annulled" and ruling.deal == annulled
    assert ruling.penalty.kind == "fine" and ruling.penalty.category == "out_of_turn"
    assert totals(party) == {"a": 5, "b": 0}
    # the deal is played again as deal 3
    deal = record_deal(party.pk, outcome="fish", winner="b", points={"a": 0, "b": 12}).record
    assert deal.number == 3


def test_out_of_turn_needs_the_opponents_choice(party):
    with pytest.raises(ServiceError) as err:
        services.rule_out_of_turn(party.pk, seat="a1", choice="")
    assert err.value.field == "choice"
    assert not Ruling.objects.exists() and not Deal.objects.exists()


def test_reshuffle_after_time_ran_out_does_not_count_as_the_last_deal(party):
    started_minutes_ago(party, 41)
    services.mark_time_expired(party.pk)
    services.rule_out_of_turn(party.pk, seat="a1", choice="reshuffle")
    assert fresh(party).status == "in_progress"
    record_deal(party.pk, outcome="domino", winner="b", points={"a": 0, "b": 10})
    party = fresh(party)
    assert (party.status, party.winner, party.end_reason) == ("finished", "b", "time")


# -- false pass and touched tile ----------------------------------------------------------------


def test_false_pass_ends_the_deal_with_zero_points_and_fines_the_pair(party, referee_user):
    """(rules.md S24) False pass ends the deal with zero points and fines the pair."""
    ruling = services.rule_false_pass(party.pk, seat="b2", actor=referee_user)
    deal = ruling.deal
    assert (deal.number, deal.outcome, deal.points_a, deal.points_b) == (1, "referee", 0, 0)
    assert ruling.penalty.category == "false_pass" and ruling.penalty.side == "b"
    assert totals(party) == {"a": 0, "b": -25}


def test_false_pass_deal_points_are_the_referees(party):
    """(rules.md S24) False pass deal points are the referee's."""
    ruling = services.rule_false_pass(party.pk, seat="a1", points={"a": 0, "b": 35})
    assert (ruling.deal.points_a, ruling.deal.points_b) == (0, 35)
    assert totals(party) == {"a": -25, "b": 35}


def test_touched_tile_that_fits_must_be_played_without_a_fine(party):
    """(rules.md S22) Touched tile that fits must be played without a fine."""
    ruling = services.rule_touched_tile(party.pk, seat="a1", fits=True, tile="6-6").record
    assert ruling.penalty is None and ruling.details == {"tile": [6, 6], "fits": True}
    assert totals(party) == {"a": 0, "b": 0}


def test_touched_tile_that_does_not_fit_fines_the_pair(party, regs):
    """(rules.md S22) Touched tile that does not fit fines the pair."""
    regs(fine_mode="award")
    ruling = services.rule_touched_tile(party.pk, seat="a2", fits=False).record
    assert ruling.penalty.category == "touched_tile"
    assert totals(party) == {"a": 0, "b": 25}


def test_ruling_with_the_same_client_id_is_made_once(party):
    first = services.rule_touched_tile(party.pk, seat="a2", fits=False, client_id="c-1").record
    again = services.rule_touched_tile(party.pk, seat="a2", fits=False, client_id="c-1").record
    assert first.pk == again.pk
    assert Penalty.objects.filter(party=party).count() == 1


def test_ruling_refuses_an_unknown_seat(party):
    with pytest.raises(ServiceError) as err:
        services.rule_touched_tile(party.pk, seat="c3", fits=False)
    assert err.value.field == "seat"


# -- no-show ----------------------------------------------------------------------------------


def test_no_show_before_the_wait_is_over_is_refused(party):
    with pytest.raises(ServiceError) as err:
        services.rule_no_show(party.pk, absent_side="b")
    assert "5 minutes" in err.value.message
    assert fresh(party).status == "in_progress"


def test_no_show_of_a_pair_marked_present_is_refused(party):
    started_minutes_ago(party, 6)
    services.check_in(party.pk, side="b")
    with pytest.raises(ServiceError) as err:
        services.rule_no_show(party.pk, absent_side="b")
    assert err.value.field == "side"


def test_no_show_with_check_in_forfeits_to_the_present_pair(party, referee_user, regs):
    """(rules.md S10) The absent pair forfeits: the present pair gets the regulations' points."""
    regs(forfeit_winner_points=150, forfeit_loser_points=0)
    services.check_in(party.pk, side="a", actor=referee_user)
    started_minutes_ago(party, 6)
    assert flag_no_show(party.pk) is True
    desk = PartyDesk.objects.get(party=party)
    assert desk.no_show_sides == "b" and desk.no_show_raised_at is not None
    assert [a["code"] for a in state(party)["alerts"]] == ["no_show"]
    assert flag_no_show(party.pk) is False  # raised once
    ruling = services.rule_no_show(party.pk, absent_side="b", actor=referee_user)
    party = fresh(party)
    assert (party.status, party.winner, party.end_reason) == ("finished", "a", "forfeit")
    assert totals(party) == {"a": 150, "b": 0}
    assert ruling.kind == "no_show" and ruling.side == "b"


def test_no_show_counts_from_the_rounds_actual_start_not_the_planned_one(make_party):
    """(rules.md S10) The five minutes count from the round's actual start (its first party's
    clock), not from its planned start: a round that begins late raises no no-show before."""
    party = make_party()
    party.round.scheduled_start = timezone.now() - timedelta(minutes=10)
    party.round.save()
    assert sweep_no_shows() == []  # planned ten minutes ago, but the round has not begun
    other = PartyFactory(round=party.round, table=TableFactory(tournament=party.round.tournament),
                         pair_a=PairFactory(tournament=party.round.tournament),
                         pair_b=PairFactory(tournament=party.round.tournament))
    services.check_in(other.pk, side="a")
    services.check_in(other.pk, side="b")
    started_minutes_ago(other, 3)  # the round began three minutes ago: the wait is not over
    assert sweep_no_shows() == []
    started_minutes_ago(other, 6)
    assert sweep_no_shows() == [party.pk]
    assert PartyDesk.objects.get(party=party).no_show_sides == "ab"
    services.rule_no_show(party.pk, absent_side="a")
    assert fresh(party).winner == "b"


def test_no_show_candidate_is_not_raised_when_both_pairs_are_present(party):
    services.check_in(party.pk, side="a")
    services.check_in(party.pk, side="b")
    started_minutes_ago(party, 6)
    assert sweep_no_shows() == []
    assert not PartyEvent.objects.filter(party=party, kind="no_show_candidate").exists()


def test_no_show_candidate_waits_for_the_regulations_minutes(party, regs):
    regs(no_show_minutes=10)
    started_minutes_ago(party, 6)
    assert sweep_no_shows() == []


# -- disqualification ---------------------------------------------------------------------------


def test_disqualification_from_the_party_ends_it_for_the_opponents(party, referee_user):
    record_deal(party.pk, outcome="domino", winner="a", points={"a": 90, "b": 0})
    ruling = services.disqualify(
        party.pk, side="a", seat="a1", scope="party", reason="hid a tile", actor=referee_user
    )
    party = fresh(party)
    assert (party.status, party.winner, party.end_reason) == ("finished", "b", "disqualification")
    assert totals(party) == {"a": 0, "b": 200}
    assert ruling.penalty.kind == "disqualification" and ruling.player == party.pair_a.player1
    assert not Pair.objects.get(pk=party.pair_a_id).disqualified
    assert not Player.objects.get(pk=party.pair_a.player1_id).disqualified


def test_disqualification_from_the_tournament_excludes_from_later_draws(
    party, make_party, referee_user
):
    earlier = make_party(round_number=1, table_number=2,
                         pair_a=party.pair_a, pair_b=party.tournament.pairs.order_by("id")[2])
    services.start_party(earlier.pk)
    record_deal(earlier.pk, outcome="domino", winner="a", points={"a": 168, "b": 0})
    record_deal(earlier.pk, outcome="domino", winner="a", points={"a": 40, "b": 0})
    assert fresh(earlier).winner == "a"
    services.disqualify(party.pk, side="a", scope="tournament", reason="slammed tiles")
    pair = Pair.objects.get(pk=party.pair_a_id)
    assert pair.disqualified
    assert pair.player1.disqualified and pair.player2.disqualified
    assert fresh(party).winner == "b"
    earlier = fresh(earlier)  # the finished result stands
    assert (earlier.winner, earlier.end_reason) == ("a", "target")
    assert party_totals(earlier).points == {"a": 208, "b": 0}


def test_disqualifying_a_player_from_the_tournament_marks_his_pair(party):
    services.disqualify(party.pk, side="b", seat="b2", scope="tournament", reason="misconduct")
    assert Player.objects.get(pk=party.pair_b.player2_id).disqualified
    assert not Player.objects.get(pk=party.pair_b.player1_id).disqualified
    assert Pair.objects.get(pk=party.pair_b_id).disqualified


def test_disqualification_after_the_party_leaves_its_result(party):
    services.forfeit_party(party.pk, absent_side="b")
    services.disqualify(party.pk, side="a", scope="tournament", reason="misconduct after play")
    party = fresh(party)
    assert (party.winner, party.end_reason) == ("a", "forfeit")
    assert Pair.objects.get(pk=party.pair_a_id).disqualified


def test_disqualification_needs_a_reason(party):
    with pytest.raises(ServiceError) as err:
        services.disqualify(party.pk, side="a", scope="party", reason="")
    assert err.value.field == "reason"


# -- every way a party ends ---------------------------------------------------------------------


def test_party_ends_at_the_target(party):
    record_deal(party.pk, outcome="domino", winner="a", points={"a": 150, "b": 0})
    record_deal(party.pk, outcome="fish", winner="a", points={"a": 60, "b": 0})
    party = fresh(party)
    assert (party.status, party.winner, party.end_reason) == ("finished", "a", "target")
    assert state(party)["phase"] == "finished"


def test_the_party_clock_runs_the_regulations_minutes(party, regs):
    """(rules.md S3) A party's time limit is the regulations' ``party_minutes`` (30–50)."""
    regs(party_minutes=50)
    started_minutes_ago(party, 31)
    services.mark_time_expired(party.pk)  # the clock worker's call: nothing before the limit
    assert fresh(party).time_expired_at is None
    regs(party_minutes=30)
    started_minutes_ago(party, 29)
    services.mark_time_expired(party.pk)
    assert fresh(party).time_expired_at is None
    started_minutes_ago(party, 31)
    services.mark_time_expired(party.pk)
    assert fresh(party).time_expired_at is not None
    assert state(party)["phase"] == "last_deal"


def test_party_ends_by_time_after_the_last_deal(party):
    record_deal(party.pk, outcome="domino", winner="b", points={"a": 0, "b": 40})
    started_minutes_ago(party, 41)
    services.mark_time_expired(party.pk)
    assert state(party)["phase"] == "last_deal"
    record_deal(party.pk, outcome="domino", winner="a", points={"a": 20, "b": 0})
    party = fresh(party)
    assert (party.status, party.winner, party.end_reason) == ("finished", "b", "time")


def test_level_scores_when_time_is_up_need_an_extra_deal(party):
    record_deal(party.pk, outcome="domino", winner="a", points={"a": 20, "b": 0})
    started_minutes_ago(party, 41)
    services.mark_time_expired(party.pk)
    record_deal(party.pk, outcome="domino", winner="b", points={"a": 0, "b": 20})
    assert totals(party) == {"a": 20, "b": 20}
    assert state(party)["phase"] == "extra_deal"
    assert fresh(party).status == "in_progress"
    record_deal(party.pk, outcome="fish", winner="b", points={"a": 0, "b": 8})
    party = fresh(party)
    assert (party.status, party.winner, party.end_reason) == ("finished", "b", "time")


def test_level_scores_at_the_target_need_an_extra_deal(party, regs):
    """(rules.md S7) Level scores at the target need an extra deal."""
    regs(target=100)
    record_deal(party.pk, outcome="domino", winner="a", points={"a": 75, "b": 0})
    record_deal(party.pk, outcome="domino", winner="b", points={"a": 0, "b": 75})
    record_deal(party.pk, outcome="referee", points={"a": 25, "b": 25})  # 100 : 100
    assert state(party)["phase"] == "extra_deal"
    assert fresh(party).status == "in_progress"
    record_deal(party.pk, outcome="fish", winner="a", points={"a": 6, "b": 0})
    party = fresh(party)
    assert (party.status, party.winner, party.end_reason) == ("finished", "a", "target")


def test_party_ends_by_forfeit(party):
    services.forfeit_party(party.pk, absent_side="a", reason="did not come")
    party = fresh(party)
    assert (party.winner, party.end_reason) == ("b", "forfeit")
    assert totals(party) == {"a": 0, "b": 200}


def test_party_ends_by_disqualification(party):
    services.disqualify(party.pk, side="b", scope="party", reason="signs after warnings")
    party = fresh(party)
    assert (party.winner, party.end_reason) == ("a", "disqualification")


def test_finished_party_takes_no_more_rulings(party):
    services.forfeit_party(party.pk, absent_side="a")
    with pytest.raises(ServiceError):
        services.rule_touched_tile(party.pk, seat="a1", fits=False)
    with pytest.raises(ServiceError):
        services.give_warning(party.pk, side="a", category="talking")
