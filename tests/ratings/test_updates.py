"""A list's one pending recompute: marked by finished parties, run from the changed period on."""

from __future__ import annotations

import random
import threading
from contextlib import contextmanager
from datetime import date, timedelta
from unittest import mock

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from scoring.models import Deal, Pair, Party, Player, Profile, RatingEntry, RatingList
from scoring.party.deals import correct_deal
from scoring.ranking import rating_inputs, rating_tasks
from scoring.ranking.rating_runs import (
    compute_list,
    entry_rows,
    rated_field,
    recompute_rating_list,
    tournament_parties,
    update_rating_list,
)
from scoring.ratings.kernel import Columns
from scoring.ratings.periods import column_parties
from scoring.tasks import sweep_missed_sends
from tests.ratings.test_service import FIELDS, linked_field, stored

pytestmark = pytest.mark.django_db

TASK = "scoring.rating_tasks.recompute_rating_list"


@pytest.fixture
def three(make_field, organizer):
    """Three tournaments of the same eight people (winter, spring, autumn) in a list."""
    profiles = [Profile.objects.create(name=f"Игрок {k}") for k in range(8)]
    days = {"spring": date(2026, 5, 1), "winter": date(2026, 2, 1), "autumn": date(2026, 9, 1)}
    made = {slug: linked_field(make_field, profiles, slug, day) for slug, day in days.items()}
    rating_list = RatingList.objects.create(name="Рейтинг", slug="rating", created_by=organizer)
    rating_list.tournaments.set(made.values())
    recompute_rating_list(rating_list.pk)
    return rating_list, made["winter"], made["spring"], made["autumn"]


def from_scratch(rating_list):
    """The list's rows as a recompute from scratch makes them (nothing written)."""
    field, rows = compute_list(rating_list)
    fresh = [tuple(getattr(e, name) for name in FIELDS)
             for e in entry_rows(rating_list, field, rows)]
    return sorted(fresh, key=lambda row: (row[0], row[4]))


def exact(rating_list):
    """The stored rows with Glicko-2's state: what a run starts from."""
    return list(RatingEntry.objects.filter(rating_list=rating_list)
                .order_by("subject", "sequence").values_list(*FIELDS, "mu", "phi"))


@pytest.fixture
def sends(django_capture_on_commit_callbacks):
    """Commit: record the runs queued then (not run), what the broker would get."""

    @contextmanager
    def committed():
        with mock.patch.object(rating_tasks.recompute_rating_list_task, "apply_async") as sent:
            with django_capture_on_commit_callbacks(execute=True):
                yield sent

    return committed


def test_ten_parties_finishing_queue_one_run_from_the_earliest_period(three, sends):
    rating_list, winter, spring, autumn = three
    parties = list(Party.objects.filter(round__tournament__in=[autumn, spring],
                                        status="finished")
                   .order_by("-round__tournament__start_date", "id")[:10])
    assert {p.round.tournament_id for p in parties} == {autumn.pk, spring.pk}
    with sends() as sent:
        for party in parties:
            rating_tasks.results_changed(party)  # marks the lists when it commits
    assert sent.call_count == 1
    assert sent.call_args.args[0] == (rating_list.pk,)
    assert rating_tasks.recompute_rating_list_task.name == TASK
    rating_list.refresh_from_db()
    assert rating_list.recompute_from == 2  # spring's period: lowered, never raised
    assert rating_list.recompute_queued_at is not None

    run = update_rating_list(rating_list.pk)
    assert run is not None and run.first == 2 and run.written == 0  # nothing had changed
    rating_list.refresh_from_db()
    assert rating_list.recompute_from is None and rating_list.recompute_queued_at is None
    assert update_rating_list(rating_list.pk) is None  # nothing pending: nothing done

    with sends() as sent:  # a party finishing after the run queues the next one
        rating_tasks.mark_lists([autumn.pk])
        rating_tasks.mark_lists([winter.pk])
    assert sent.call_count == 1
    rating_list.refresh_from_db()
    assert rating_list.recompute_from == 1


def test_a_lost_run_is_sent_again_by_the_sweep(three, sends):
    rating_list, _winter, _spring, autumn = three
    with sends():
        rating_tasks.mark_lists([autumn.pk])
    RatingList.objects.filter(pk=rating_list.pk).update(
        recompute_queued_at=timezone.now() - timedelta(minutes=5))
    with sends() as sent:
        assert sweep_missed_sends()["rating_lists"] == [rating_list.pk]
    assert sent.call_count == 1
    assert sweep_missed_sends()["rating_lists"] == []  # sent again just now: not yet missed


def test_correcting_an_early_tournament_recomputes_the_later_periods(
    three, django_capture_on_commit_callbacks
):
    rating_list, winter, spring, autumn = three
    before = {row[0]: row for row in RatingEntry.objects.filter(rating_list=rating_list)
              .values_list("id", "sequence", "rating")}
    party = Party.objects.filter(round__tournament=winter, round__number=1).order_by("id")[1]
    deal = Deal.objects.get(party=party, number=3)
    with django_capture_on_commit_callbacks(execute=True):
        correct_deal(deal.pk, reason="Опечатка", outcome="domino", winner="b", went_out="b1",
                     points={"a": 0, "b": 160})
    after = {row[0]: row for row in RatingEntry.objects.filter(rating_list=rating_list)
             .values_list("id", "sequence", "rating")}
    changed = {row[1] for pk, row in after.items() if before.get(pk) != row}
    assert changed == {1, 2, 3}  # the winter period and every later one moved
    assert exact_equals_scratch(rating_list)
    rating_list.refresh_from_db()
    assert rating_list.recompute_from is None


def test_a_late_correction_leaves_the_earlier_rows_untouched(three, sends):
    rating_list, winter, spring, autumn = three
    earlier = set(RatingEntry.objects.filter(rating_list=rating_list, sequence__lt=3)
                  .values_list("id", "rating"))
    party = Party.objects.filter(round__tournament=autumn, status="finished").first()
    Party.objects.filter(pk=party.pk).update(winner="b", version=F("version") + 1)  # a service
    with sends():
        rating_tasks.mark_lists([autumn.pk])
    run = update_rating_list(rating_list.pk)
    # the four players of the turned party changed, in place; no row made or dropped
    assert run is not None and run.first == 3
    assert (run.created, run.updated, run.deleted) == (0, 4, 0)
    assert set(RatingEntry.objects.filter(rating_list=rating_list, sequence__lt=3)
               .values_list("id", "rating")) == earlier
    assert exact_equals_scratch(rating_list)


def exact_equals_scratch(rating_list) -> bool:
    """The stored rows equal a recompute from scratch, Glicko-2's state included (its input
    read from the database: the runs' cached input is checked too)."""
    field, rows = compute_list(rating_list)
    fresh = sorted((tuple(getattr(e, name) for name in (*FIELDS, "mu", "phi"))
                    for e in entry_rows(rating_list, field, rows)),
                   key=lambda row: (row[0], row[4]))
    return exact(rating_list) == fresh


@pytest.mark.parametrize("system", ["glicko2", "elo"])
def test_runs_from_random_corrections_equal_recomputes_from_scratch(three, system, sends):
    rating_list, *tournaments = three
    RatingList.objects.filter(pk=rating_list.pk).update(system=system)
    rating_list.refresh_from_db()
    recompute_rating_list(rating_list.pk)
    rng = random.Random(38)
    finished = list(Party.objects.filter(round__tournament__in=tournaments, status="finished")
                    .values_list("id", "round__tournament_id"))
    for _ in range(12):
        picked = rng.sample(finished, rng.randint(1, 3))
        for pk, _tournament in picked:
            Party.objects.filter(pk=pk).update(winner=rng.choice(["a", "b", ""]),
                                               version=F("version") + 1)
        with sends():
            rating_tasks.mark_lists(sorted({t for _pk, t in picked}))
        update_rating_list(rating_list.pk)
        assert exact_equals_scratch(rating_list)
    assert from_scratch(rating_list) == stored(rating_list)


def test_rows_stored_without_glicko2_state_are_recomputed_from_scratch(three, sends):
    rating_list, _winter, _spring, autumn = three
    wanted = exact(rating_list)
    RatingEntry.objects.filter(rating_list=rating_list).update(mu=None, phi=None)
    with sends():
        rating_tasks.mark_lists([autumn.pk])
    run = update_rating_list(rating_list.pk)
    assert run is not None and run.first == 1
    assert exact(rating_list) == wanted


def test_a_tournament_dated_earlier_reorders_the_periods(three, sends):
    rating_list, winter, spring, autumn = three
    autumn.start_date = date(2026, 1, 1)
    autumn.save(update_fields=["start_date"])
    with sends():
        rating_tasks.mark_lists([spring.pk])  # the mark says period 2: the order says 1
    run = update_rating_list(rating_list.pk)
    assert run is not None and run.first == 1
    assert exact_equals_scratch(rating_list)
    assert RatingEntry.objects.filter(rating_list=rating_list, sequence=1,
                                      tournament=autumn).count() == 8



@pytest.mark.parametrize("subject", ["players", "pairs"])
def test_two_sided_parties_read_in_one_query_as_the_standings_read_them(three, subject):
    rating_list, winter, spring, autumn = three
    RatingList.objects.filter(pk=rating_list.pk).update(subject=subject)
    rating_list.refresh_from_db()
    parties = list(Party.objects.filter(round__tournament=spring, status="finished")
                   .order_by("id"))
    bump = {"version": F("version") + 1}  # as every service changing a party does
    Party.objects.filter(pk=parties[0].pk).update(end_reason="forfeit", winner="b", **bump)
    Party.objects.filter(pk=parties[1].pk).update(winner="", **bump)
    Player.objects.filter(pk=parties[2].pair_a.player1_id).update(profile=None)
    ids = Player.objects.filter(tournament=spring).order_by("id").values_list("id", flat=True)
    Player.objects.filter(pk__in=[ids.first(), ids.last()]).update(profile=None)  # the ends
    field = rated_field(rating_list)
    profile_of = dict(Player.objects.filter(profile__isnull=False)
                      .values_list("id", "profile_id"))
    one_by_one = [tournament_parties(t, profile_of, pairs=subject == "pairs")
                  for t in (winter, spring, autumn)]
    read = [column_parties(p, field.names) if isinstance(p, Columns) else p
            for p in field.periods]  # a players' list reads columns of ranks in its names
    assert all(isinstance(p, Columns) for p in field.periods) == (subject == "players")
    key = repr
    assert [sorted(map(key, p)) for p in read] == [sorted(map(key, p)) for p in one_by_one]
    assert len(read[1]) < len(read[0])  # the forfeit is not rated
    if subject == "players":  # (the pair missing a profile may have played the draw)
        assert any(party.winner is None for party in read[1])  # the draw is rated


@pytest.mark.django_db(transaction=True)
def test_a_party_finishing_during_a_run_sends_its_mark_with_a_task(make_field, organizer):
    """PostgreSQL: the run holds the list's row, the mark cannot wait for it (skip_locked)."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL")
    profiles = [Profile.objects.create(name=f"Игрок {k}") for k in range(8)]
    spring = linked_field(make_field, profiles, "spring", date(2026, 5, 1))
    rating_list = RatingList.objects.create(name="Рейтинг", slug="rating", created_by=organizer)
    rating_list.tournaments.set([spring])
    recompute_rating_list(rating_list.pk)
    locked, release = threading.Event(), threading.Event()

    def run() -> None:
        try:
            with transaction.atomic():
                RatingList.objects.select_for_update().get(pk=rating_list.pk)
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=run)
    holder.start()
    try:
        assert locked.wait(10)
        with mock.patch.object(rating_tasks.recompute_rating_list_task, "apply_async") as sent:
            assert rating_tasks.mark_lists([spring.pk]) == [rating_list.pk]
        assert sent.call_args.args[0] == (rating_list.pk, [spring.pk])
    finally:
        release.set()
        holder.join()
    rating_list.refresh_from_db()
    assert rating_list.recompute_queued_at is None  # the mark went with the task
    run_ = update_rating_list(rating_list.pk, [spring.pk])
    assert run_ is not None and run_.first == 1


def test_a_merge_across_lists_marks_each_list_from_its_own_tournament(three, sends, make_field):
    rating_list, winter, spring, autumn = three
    other = make_field(4, finished=1, slug="elsewhere", start_date=date(2025, 1, 1))
    with sends():
        rating_tasks.tournaments_changed([other.pk, autumn.pk])  # as a merge of profiles
    rating_list.refresh_from_db()
    assert rating_list.recompute_from == 3  # the other tournament is not this list's


def test_a_run_reads_a_changed_tournament_again_and_a_recompute_reads_every_one(three, sends):
    """A pending run takes an unchanged tournament's parties from the cache and a changed
    one's from the database (its results version moved); the organizer's recompute from
    scratch reads every tournament again, so it repairs what no version shows (a pair's
    player replaced after the pair's parties finished)."""
    rating_list, winter, spring, autumn = three
    party = Party.objects.filter(round__tournament=spring, status="finished").order_by("id")[0]
    Party.objects.filter(pk=party.pk).update(winner="b" if party.winner == "a" else "a",
                                             version=F("version") + 1)
    with sends():
        rating_tasks.mark_lists([spring.pk])
    read = rating_inputs.read_party_players
    with mock.patch.object(rating_inputs, "read_party_players", wraps=read) as reads:
        run = update_rating_list(rating_list.pk)
    assert run is not None and run.first == 2  # spring's period and autumn's
    assert [call.args[0] for call in reads.call_args_list] == [[spring.pk]]
    assert exact_equals_scratch(rating_list)
    pair = party.pair_a
    seated = [pair.player1_id, pair.player2_id, party.pair_b.player1_id, party.pair_b.player2_id]
    outsider = Player.objects.filter(tournament=spring, profile__isnull=False).exclude(
        pk__in=seated).first()
    assert outsider is not None
    Pair.objects.filter(pk=pair.pk).update(player1=outsider)  # no party's version moves
    with sends():
        rating_tasks.mark_lists([spring.pk])
    update_rating_list(rating_list.pk)
    assert not exact_equals_scratch(rating_list)  # the run's cached parties: the old player
    recompute_rating_list(rating_list.pk)
    assert exact_equals_scratch(rating_list)


@pytest.mark.parametrize("system", ["glicko2", "elo"])
def test_runs_start_from_each_players_last_row_however_far_back(make_field, organizer, sends,
                                                                  system):
    """Players who skip periods, stop, or join late: a run from any period starts each one
    from his own last earlier row (read one step back along his rows, or by his name when he
    has no row from that period on: a tournament added to the list), and equals a recompute
    from scratch."""
    profiles = [Profile.objects.create(name=f"Игрок {k}") for k in range(16)]
    seats = [  # the eight people of each period, by period
        [0, 1, 2, 3, 4, 5, 6, 7],
        [0, 1, 2, 3, 8, 9, 10, 11],      # 4–7 skip a period
        [0, 1, 8, 9, 10, 11, 12, 13],    # 2, 3 stop here; 12, 13 join
        [0, 1, 4, 5, 6, 7, 12, 13],      # 4–7 come back after two periods away
        [2, 3, 8, 9, 14, 15, 4, 5],      # 2, 3 come back after three; 14, 15 join
    ]
    made = [linked_field(make_field, [profiles[k] for k in people], f"gap-{n}",
                         date(2026, 1, 1) + timedelta(days=30 * n))
            for n, people in enumerate(seats)]
    rating_list = RatingList.objects.create(name="Пропуски", slug="gaps", created_by=organizer,
                                            system=system)
    rating_list.tournaments.set(made[:-1])
    recompute_rating_list(rating_list.pk)
    rating_list.tournaments.add(made[-1])  # a new period: its players have no row there yet
    with sends():
        rating_tasks.mark_lists([made[-1].pk])
    run = update_rating_list(rating_list.pk)
    assert run is not None and (run.first, run.created) == (5, 8)
    assert exact_equals_scratch(rating_list)
    for tournament in reversed(made[1:]):
        party = Party.objects.filter(round__tournament=tournament, status="finished"
                                     ).order_by("id")[0]
        Party.objects.filter(pk=party.pk).update(winner="b" if party.winner == "a" else "a",
                                                 version=F("version") + 1)
        with sends():
            rating_tasks.mark_lists([tournament.pk])
        run = update_rating_list(rating_list.pk)
        assert run is not None and run.first == made.index(tournament) + 1
        assert run.updated > 0
        assert exact_equals_scratch(rating_list)
    current = dict(RatingEntry.objects.filter(rating_list=rating_list, current=True)
                   .values_list("profile_id", "sequence"))
    assert current[profiles[10].pk] == 3 and current[profiles[6].pk] == 4  # stopped there


def test_rows_written_by_a_run_keep_their_floats_to_the_last_bit(organizer):
    """A run's rows reach the table as they left the engine: floats to the last bit, a
    missing partner as NULL (PostgreSQL's binary COPY, SQLite's prepared insert)."""
    from scoring.ranking.rating_inputs import stored_columns
    from scoring.ranking.rating_writes import write_rows
    from scoring.ratings import HistoryColumns, HistoryRow
    from tests.factories import TournamentFactory

    tournament = TournamentFactory()
    profile = Profile.objects.create(name="Игрок")
    rating_list = RatingList.objects.create(name="Список", slug="floats", created_by=organizer)
    values = {"rating": 1500.0 + 1 / 3, "deviation": 0.1 + 0.2, "volatility": 0.06000000001,
              "score": 1.5, "mu": -1e-17, "phi": 2.0 ** -40}
    row = HistoryRow(str(profile.pk), 1, values["rating"], values["deviation"],
                     values["volatility"], 2, values["score"], values["mu"], values["phi"])
    with transaction.atomic():
        written = write_rows(rating_list.pk, 1, stored_columns([tournament],
                                                             HistoryColumns.of_rows([row])))
    assert (written.created, written.updated, written.deleted) == (1, 0, 0)
    stored = RatingEntry.objects.get(rating_list=rating_list)
    assert {name: getattr(stored, name) for name in values} == values
    assert (stored.partner_id, stored.current, stored.games, stored.sequence) == (
        None, True, 2, 1)
