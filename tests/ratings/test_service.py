"""Rating lists from the database: recomputed from the stored results, on every correction."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Deal, Party, Player, Profile, RatingEntry, RatingList
from scoring.party.deals import correct_deal
from scoring.ranking.rating_runs import (
    compute_list,
    current_entries,
    entry_rows,
    rating_history,
    recompute_rating_list,
)

pytestmark = pytest.mark.django_db

FIELDS = ("subject", "profile_id", "partner_id", "tournament_id", "sequence", "rating",
          "deviation", "volatility", "games", "score", "current")


def linked_field(make_field, profiles, slug: str, day: date):
    """A pairs tournament of 4 pairs, 2 rounds finished, its 8 players linked to profiles."""
    t = make_field(4, finished=2, slug=slug, start_date=day)
    for player, profile in zip(Player.objects.filter(tournament=t).order_by("id"), profiles,
                               strict=True):
        player.profile = profile
        player.save(update_fields=["profile"])
    return t


@pytest.fixture
def rated(make_field, organizer, django_capture_on_commit_callbacks):
    """Two tournaments of the same eight people in a Glicko-2 players' list (later one first)."""
    profiles = [Profile.objects.create(name=f"Игрок {k}", club="Клуб") for k in range(8)]
    late = linked_field(make_field, profiles, "spring", date(2026, 5, 1))
    early = linked_field(make_field, profiles, "winter", date(2026, 2, 1))
    rating_list = RatingList.objects.create(name="Рейтинг", slug="rating", created_by=organizer)
    rating_list.tournaments.set([late, early])
    recompute_rating_list(rating_list.pk)
    return rating_list, early, late, profiles


def stored(rating_list):
    """The list's rows as plain values."""
    return list(RatingEntry.objects.filter(rating_list=rating_list)
                .order_by("subject", "sequence").values_list(*FIELDS))


def test_periods_follow_the_dates_and_every_player_has_his_history(rated):
    rating_list, early, late, profiles = rated
    rows = stored(rating_list)
    assert len(rows) == 16  # 8 people x 2 tournaments
    first = RatingEntry.objects.get(rating_list=rating_list, profile=profiles[0], sequence=1)
    assert first.tournament == early and first.games == 2
    history = rating_history(profiles[0])
    assert [(item.tournament, item.tournament.start_date) for item in history] == [
        (early, date(2026, 2, 1)), (late, date(2026, 5, 1))]
    assert history[-1].rating == RatingEntry.objects.get(profile=profiles[0], current=True).rating
    assert history[-1].deviation < history[0].deviation < 350  # it shrinks as he plays


def test_winners_gain_and_losers_lose(rated):
    rating_list, early = rated[0], rated[1]
    wins: dict[int, int] = {}
    for party in Party.objects.filter(round__tournament=early, status="finished").select_related(
        "pair_a__player1", "pair_a__player2", "pair_b__player1", "pair_b__player2"
    ):
        won = party.pair_a if party.winner.startswith("a") else party.pair_b
        for player in (won.player1, won.player2):
            wins[player.profile_id] = wins.get(player.profile_id, 0) + 1
    after_one = {e.profile_id: e for e in
                 RatingEntry.objects.filter(rating_list=rating_list, sequence=1)}
    assert {p: e.score for p, e in after_one.items() if e.score} == wins
    assert all(e.rating > 1500 for e in after_one.values() if e.score == 2)
    assert all(e.rating < 1500 for e in after_one.values() if e.score == 0)
    assert any(e.score == 2 for e in after_one.values())


def test_recomputing_from_scratch_equals_the_stored_list(rated):
    rating_list = rated[0]
    field, rows = compute_list(rating_list)
    fresh = [tuple(getattr(e, name) for name in FIELDS) for e in entry_rows(rating_list, field,
                                                                         rows)]
    fresh.sort(key=lambda row: (row[0], row[4]))
    assert fresh == stored(rating_list)
    RatingEntry.objects.filter(rating_list=rating_list).update(rating=0)
    call_command("recompute_ratings")
    assert stored(rating_list) == fresh


def test_the_list_is_read_in_a_constant_number_of_queries(rated, make_field):
    rating_list = rated[0]
    with CaptureQueriesContext(connection) as two:
        recompute_rating_list(rating_list.pk)
    profiles = list(Profile.objects.order_by("id"))
    rating_list.tournaments.add(linked_field(make_field, profiles, "autumn", date(2026, 9, 1)))
    recompute_rating_list(rating_list.pk)  # the bulk-made parties get their stored totals
    with CaptureQueriesContext(connection) as three:
        recompute_rating_list(rating_list.pk)
    per_tournament = len(three) - len(two)
    assert per_tournament <= 4, [q["sql"][:150] for q in three.captured_queries]


def test_correcting_a_finished_partys_deal_recomputes_the_list(
    rated, django_capture_on_commit_callbacks
):
    rating_list, early, _late, _profiles = rated
    # the second party: the first has a fine for pair B
    party = Party.objects.filter(round__tournament=early, round__number=1).order_by("id")[1]
    winner_a = party.pair_a.player1.profile_id
    before = RatingEntry.objects.get(rating_list=rating_list, subject=str(winner_a),
                                     sequence=1)
    deal = Deal.objects.get(party=party, number=3)
    with django_capture_on_commit_callbacks(execute=True):
        correct_deal(deal.pk, reason="Опечатка", outcome="domino", winner="b", went_out="b1",
                     points={"a": 0, "b": 160})
    party.refresh_from_db()
    assert party.status == Party.Status.FINISHED and party.winner.startswith("b")
    after = RatingEntry.objects.get(rating_list=rating_list, subject=str(winner_a), sequence=1)
    assert after.score == before.score - 1 and after.rating < before.rating
    field, rows = compute_list(rating_list)
    assert len(entry_rows(rating_list, field, rows)) == len(stored(rating_list))


def test_current_rows_rank_the_list(rated):
    rating_list = rated[0]
    entries = current_entries(rating_list)
    assert len(entries) == 8
    assert [e.rating for e in entries] == sorted((e.rating for e in entries), reverse=True)
    assert all(e.sequence == 2 for e in entries)


def test_pair_lists_rate_fixed_pairs_and_players_without_profile_are_not_rated(rated):
    _list, early, late, profiles = rated
    pairs = RatingList.objects.create(name="Пары", slug="pairs", subject="pairs", system="elo")
    pairs.tournaments.set([early, late])
    Player.objects.filter(profile=profiles[0], tournament=late).update(profile=None)
    recompute_rating_list(pairs.pk)
    subjects = set(RatingEntry.objects.filter(rating_list=pairs).values_list("subject",
                                                                               flat=True))
    assert len(subjects) == 4 and all("+" in s for s in subjects)
    first_pair = "+".join(str(pk) for pk in sorted(p.pk for p in profiles[:2]))
    assert RatingEntry.objects.filter(rating_list=pairs, subject=first_pair).count() == 1
    entry = RatingEntry.objects.get(rating_list=pairs, subject=first_pair)
    assert entry.partner_id == profiles[1].pk and entry.deviation is None


@pytest.mark.parametrize("tournaments", [0, 1])
def test_a_list_with_nobody_to_rate_has_no_rows(make_field, organizer, tournaments):
    """A new list without tournaments, or whose tournament's players have no profile yet."""
    rating_list = RatingList.objects.create(name="Пустой", slug="empty", created_by=organizer)
    if tournaments:
        rating_list.tournaments.set([make_field(4, finished=2, slug="unlinked")])
    assert recompute_rating_list(rating_list.pk) == 0
    assert not RatingEntry.objects.filter(rating_list=rating_list).exists()
