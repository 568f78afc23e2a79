"""Round-flow services: create, draw, edit, swap, publish, start, close; withdrawals."""

from __future__ import annotations

import itertools

import pytest
from django.utils import translation

from scoring.core.errors import ServiceError
from scoring.models import Pair, Party, Player, Regulations, Round, Table, Tournament
from scoring.ranking.results import standings_table
from tests.tournaments.play import play, play_round
from tournaments.registration.services import withdraw_pair, withdraw_player
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds
from tournaments.setup.services import create_tournament

pytestmark = pytest.mark.django_db


def _drawn(tournament, **kwargs) -> Round:
    rnd = rounds.create_round(tournament.pk)
    return draw_services.generate_draw(rnd.pk, **kwargs)


def _started(tournament) -> Round:
    """A drawn, published round whose parties have all started."""
    rnd = _drawn(tournament)
    rounds.publish_round(rnd.pk)
    rounds.start_round(rnd.pk)
    return rnd


def _run(rnd: Round, winner: str = "a") -> None:
    """Publish, start, play and close a drawn round."""
    rounds.publish_round(rnd.pk)
    if Party.objects.filter(round=rnd, pair_b__isnull=False).exists():
        rounds.start_round(rnd.pk)
        play_round(rnd.pk, winner)
    rounds.close_round(rnd.pk)


def _pairings(rnd: Round) -> list[tuple[int | None, int, int | None]]:
    return list(
        Party.objects.filter(round=rnd)
        .order_by("table__number", "id")
        .values_list("table__number", "pair_a", "pair_b")
    )


def _set_regulations(tournament: Tournament, **fields) -> None:
    Regulations.objects.filter(tournament=tournament).update(**fields)
    tournament.refresh_from_db()


# -- creating rounds ------------------------------------------------------------------------


def test_rounds_are_numbered_and_the_previous_must_be_closed(tournament):
    rnd = rounds.create_round(tournament.pk)
    assert (rnd.number, rnd.status) == (1, Round.Status.DRAFT)
    with pytest.raises(ServiceError, match="Close round 1 first"):
        rounds.create_round(tournament.pk)
    draw_services.generate_draw(rnd.pk)
    rounds.publish_round(rnd.pk)
    rounds.start_round(rnd.pk)
    with pytest.raises(ServiceError, match="Round 1 still has unfinished parties"):
        rounds.create_round(tournament.pk)
    play_round(rnd.pk)
    rounds.close_round(rnd.pk)
    assert rounds.create_round(tournament.pk).number == 2


def test_no_round_beyond_the_regulations(tournament):
    _set_regulations(tournament, rounds_planned=1)
    _run(_drawn(tournament))
    with pytest.raises(ServiceError, match="plan 1 rounds"):
        rounds.create_round(tournament.pk)


def test_a_round_is_not_drawn_while_the_previous_has_unfinished_parties(tournament):
    _started(tournament)
    # a second round created behind the services' back (say, by the admin)
    second = Round.objects.create(tournament=tournament, number=2)
    with pytest.raises(ServiceError, match="Round 1 still has unfinished parties") as err:
        draw_services.generate_draw(second.pk)
    assert err.value.field == "round"
    assert not Party.objects.filter(round=second).exists()


def test_delete_only_the_last_draft_round(tournament):
    rnd = _drawn(tournament)
    rounds.delete_round(rnd.pk)
    assert not Round.objects.filter(pk=rnd.pk).exists()
    assert not Party.objects.filter(round_id=rnd.pk).exists()
    rnd = _drawn(tournament)
    rounds.publish_round(rnd.pk)
    with pytest.raises(ServiceError, match="already published"):
        rounds.delete_round(rnd.pk)


# -- generating ------------------------------------------------------------------------------


def test_first_round_by_seeding_seats_the_top_party_at_table_one(tournament):
    pairs = list(tournament.pairs.order_by("id"))
    for rating, pair in zip([1500, 1900, 1400, 1800, 1300, 1700, 1200, 1600], pairs, strict=True):
        pair.rating = rating
        pair.save()
    rnd = _drawn(tournament)
    by_rating = [p.pk for p in sorted(pairs, key=lambda p: -p.rating)]
    # slide: 1st v 5th at table 1, 2nd v 6th at table 2 ...
    assert _pairings(rnd) == [
        (1, by_rating[0], by_rating[4]),
        (2, by_rating[1], by_rating[5]),
        (3, by_rating[2], by_rating[6]),
        (4, by_rating[3], by_rating[7]),
    ]
    assert rnd.seed is None and rnd.drawn_at is not None
    # 7 rounds for 8 pairs: everyone meets nearly everyone, so the draw offers a round robin
    assert [w["params"] for w in rnd.draw_warnings] == [{"rounds": 7, "count": 8, "full": 7}]
    with translation.override("ru"):
        assert "Рассмотрите переход на круговую систему" in rnd.warning_texts()[0]
    _set_regulations(tournament, rounds_planned=6)
    assert draw_services.generate_draw(rnd.pk).draw_warnings == []


def test_draw_by_lot_records_its_seed_and_the_seed_reproduces_it(tournament):
    _set_regulations(tournament, first_round=Regulations.FirstRound.LOT)
    rnd = _drawn(tournament)
    assert rnd.seed is not None
    first = _pairings(rnd)
    draw_services.generate_draw(rnd.pk)  # a new seed: usually another draw
    again = draw_services.generate_draw(rnd.pk, seed=rnd.seed)
    assert _pairings(again) == first
    assert Party.objects.filter(round=rnd).count() == 4  # regenerating replaces


def test_party_ids_do_not_follow_the_table_order(tournament):
    for pk in tournament.pairs.values_list("pk", flat=True):
        Pair.objects.filter(pk=pk).update(rating=pk)
    orders = set()
    for _ in range(6):
        rnd = Round.objects.filter(tournament=tournament).first() or rounds.create_round(
            tournament.pk
        )
        draw_services.generate_draw(rnd.pk)
        orders.add(tuple(Party.objects.filter(round=rnd).order_by("id").values_list(
            "table__number", flat=True)))
    assert len(orders) > 1


def test_fixed_table_is_kept(tournament):
    pairs = list(tournament.pairs.order_by("id"))
    table3 = Table.objects.get(tournament=tournament, number=3)
    Pair.objects.filter(pk=pairs[0].pk).update(fixed_table=table3)
    rnd = _drawn(tournament)
    party = Party.objects.get(round=rnd, pair_a=pairs[0]) if Party.objects.filter(
        round=rnd, pair_a=pairs[0]).exists() else Party.objects.get(round=rnd, pair_b=pairs[0])
    assert party.table.number == 3


def test_too_few_tables_is_a_translated_user_error(tournament):
    Table.objects.filter(tournament=tournament, number__gt=2).delete()
    rnd = rounds.create_round(tournament.pk)
    with pytest.raises(ServiceError) as err:
        draw_services.generate_draw(rnd.pk)
    assert err.value.field == "draw"
    assert "4 parties need tables but only 2 tables are available" in err.value.message


def test_swiss_second_round_pairs_winners_without_rematches(tournament):
    first = _drawn(tournament)
    _run(first, winner="a")
    winners = set(Party.objects.filter(round=first).values_list("pair_a", flat=True))
    second = _drawn(tournament)
    met = {frozenset(p) for p in Party.objects.filter(round=first).values_list("pair_a", "pair_b")}
    for table, a, b in _pairings(second):
        assert frozenset((a, b)) not in met
        # score groups: winners meet winners at the top tables
        assert (a in winners) == (b in winners) == (table <= 2)


def test_odd_field_gives_the_bye_to_the_lowest_and_never_twice(tournament):
    lowest = tournament.pairs.order_by("-id").first()
    withdraw_pair(lowest.pk)
    seen = []
    for _ in range(5):
        rnd = _drawn(tournament)
        bye = Party.objects.get(round=rnd, pair_b__isnull=True)
        assert (bye.status, bye.end_reason, bye.winner) == ("finished", "bye", "a")
        seen.append(bye.pair_a_id)
        _run(rnd)
    assert len(set(seen)) == 5
    # the bye counts as a forfeit win at the target in the standings
    line = next(r for r in standings_table(tournament).rows if r.entrant == seen[0])
    assert line.metrics["wins"] >= 1


def test_withdrawn_pair_keeps_its_results_and_leaves_later_draws(tournament):
    first = _drawn(tournament)
    _run(first)
    before = {r.entrant: r.metrics for r in standings_table(tournament).rows}
    leaver = Party.objects.filter(round=first).first().pair_a
    withdraw_pair(leaver.pk)
    after = {r.entrant: r.metrics for r in standings_table(tournament).rows}
    assert after == before
    second = _drawn(tournament)
    entrants = {x for _t, a, b in _pairings(second) for x in (a, b)}
    assert leaver.pk not in entrants and len(entrants - {None}) == 7
    withdraw_pair(leaver.pk, withdrawn=False)
    draw_services.generate_draw(second.pk)
    assert leaver.pk in {x for _t, a, b in _pairings(second) for x in (a, b)}


def test_disqualified_pair_leaves_later_draws_and_is_marked(client, tournament):
    first = _drawn(tournament)
    _run(first)
    cheat = Party.objects.filter(round=first).first().pair_b
    Pair.objects.filter(pk=cheat.pk).update(disqualified=True)  # as the referee's ruling does
    second = _drawn(tournament)
    assert cheat.pk not in {x for _t, a, b in _pairings(second) for x in (a, b)}
    row = next(r for r in standings_table(tournament).rows if r.entrant == cheat.pk)
    assert row.metrics["match_points"] == 0 and row.metrics["points_for"] == 60
    html = client.get(f"/t/{tournament.slug}/standings/").content.decode()
    assert "disqualified" in html


def test_withdrawing_a_player_withdraws_his_pair(tournament):
    pair = tournament.pairs.order_by("id").first()
    withdraw_player(pair.player2_id)
    pair.refresh_from_db()
    assert pair.withdrawn and Player.objects.get(pk=pair.player2_id).withdrawn


def test_publish_refuses_a_draw_with_a_pair_withdrawn_since(tournament):
    rnd = _drawn(tournament)
    pair = Party.objects.filter(round=rnd).first().pair_b
    withdraw_pair(pair.pk)
    with pytest.raises(ServiceError, match="Withdrawn or disqualified since the draw") as err:
        rounds.publish_round(rnd.pk)
    assert pair.display_name in err.value.message
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.DRAFT


def test_publish_needs_a_draw_and_sets_the_tournament_running(tournament):
    rnd = rounds.create_round(tournament.pk)
    with pytest.raises(ServiceError, match="Generate or enter the draw first"):
        rounds.publish_round(rnd.pk)
    draw_services.generate_draw(rnd.pk)
    rounds.publish_round(rnd.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    with pytest.raises(ServiceError, match="already published"):
        draw_services.generate_draw(rnd.pk)


# -- swapping, editing -----------------------------------------------------------------------


def test_swap_tables_and_move_to_a_free_table(tournament):
    Table.objects.create(tournament=tournament, number=9)
    rnd = _drawn(tournament)
    Table.objects.create(tournament=tournament, number=5)
    at = {t: (a, b) for t, a, b in _pairings(rnd)}
    versions = dict(Party.objects.filter(round=rnd).values_list("table__number", "version"))
    draw_services.swap_tables(rnd.pk, 1, 4)
    now = {t: (a, b) for t, a, b in _pairings(rnd)}
    assert now[1] == at[4] and now[4] == at[1] and now[2] == at[2]
    assert Party.objects.get(round=rnd, table__number=1).version == versions[4] + 1
    draw_services.swap_tables(rnd.pk, 2, 9)
    now = {t: (a, b) for t, a, b in _pairings(rnd)}
    assert 2 not in now and now[9] == at[2]
    with pytest.raises(ServiceError, match="No party sits at table 2"):
        draw_services.swap_tables(rnd.pk, 2, 5)
    with pytest.raises(ServiceError, match="two different tables"):
        draw_services.swap_tables(rnd.pk, 1, 1)


def test_swap_refused_once_a_party_started(tournament, referee_user):
    from referee.services import start_party

    rnd = _drawn(tournament)
    rounds.publish_round(rnd.pk)
    start_party(Party.objects.get(round=rnd, table__number=1).pk, actor=referee_user)
    with pytest.raises(ServiceError, match="table 1 has started"):
        draw_services.swap_tables(rnd.pk, 1, 2)
    draw_services.swap_tables(rnd.pk, 2, 3)  # the others still can


def test_manual_edit_validates_and_warns(tournament):
    first = _drawn(tournament)
    _run(first)
    played = _pairings(first)
    rnd = rounds.create_round(tournament.pk)
    # a rematch at table 1 and a fixed table ignored: accepted with warnings
    pairs = [p for _t, a, b in played for p in (a, b)]
    Pair.objects.filter(pk=pairs[2]).update(
        fixed_table=Table.objects.get(tournament=tournament, number=4)
    )
    draw = [(1, pairs[0], pairs[1]), (2, pairs[2], pairs[4]), (3, pairs[3], pairs[6]),
            (4, pairs[5], pairs[7])]
    rnd = draw_services.edit_draw(rnd.pk, parties=draw)
    texts = rnd.warning_texts()
    names = dict(Pair.objects.filter(tournament=tournament).values_list("pk", "player1__name"))
    assert any(t.startswith("Rematch:") and names[pairs[0]] in t for t in texts)
    assert any("fixed table 4 but sits at table 2" in t for t in texts)
    assert len(_pairings(rnd)) == 4

    with pytest.raises(ServiceError, match="Entrants missing from the draw"):
        draw_services.edit_draw(rnd.pk, parties=draw[:3])
    with pytest.raises(ServiceError, match="appears twice"):
        draw_services.edit_draw(
            rnd.pk, parties=[*draw[:3], (4, pairs[5], pairs[0])], byes=[pairs[7]]
        )
    with pytest.raises(ServiceError, match="Table 1 is used twice"):
        draw_services.edit_draw(rnd.pk, parties=[(1, a, b) for _t, a, b in draw])
    with pytest.raises(ServiceError, match="There is no table 7"):
        draw_services.edit_draw(rnd.pk, parties=[*draw[:3], (7, pairs[5], pairs[7])])
    assert len(_pairings(rnd)) == 4  # a refused edit changes nothing


def test_manual_system_starts_from_an_empty_draw(tournament):
    _set_regulations(tournament, pairing_system=Regulations.PairingSystem.MANUAL)
    rnd = _drawn(tournament)
    assert _pairings(rnd) == []
    ids = list(tournament.pairs.order_by("id").values_list("pk", flat=True))
    draw_services.edit_draw(rnd.pk, parties=[(1, ids[0], ids[7]), (2, ids[1], ids[6])],
                     byes=ids[2:6])
    assert len(_pairings(rnd)) == 6
    warnings = rounds.lock_round(rnd.pk).draw_warnings
    assert warnings == []


# -- starting and closing ---------------------------------------------------------------------


def test_start_round_starts_every_party_but_the_byes(tournament):
    withdraw_pair(tournament.pairs.first().pk)
    rnd = _drawn(tournament)
    with pytest.raises(ServiceError, match="not published"):
        rounds.start_round(rnd.pk)
    rounds.publish_round(rnd.pk)
    assert rounds.start_round(rnd.pk) == 3
    statuses = sorted(Party.objects.filter(round=rnd).values_list("status", flat=True))
    assert statuses == ["finished", "in_progress", "in_progress", "in_progress"]
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.IN_PROGRESS
    with pytest.raises(ServiceError, match="No party of the round is waiting"):
        rounds.start_round(rnd.pk)


def test_close_round_needs_every_party_finished(tournament):
    rnd = _started(tournament)
    parties = list(Party.objects.filter(round=rnd))
    for party in parties[:3]:
        play(party)
    with pytest.raises(ServiceError, match="1 party of the round is not finished"):
        rounds.close_round(rnd.pk)
    play(parties[3])
    closed = rounds.close_round(rnd.pk)
    assert closed.status == Round.Status.FINISHED and closed.finished_at
    with pytest.raises(ServiceError, match="closed"):
        rounds.close_round(rnd.pk)


# -- round robin -----------------------------------------------------------------------------


def _round_robin(organizer, slug: str, count: int, tables: int) -> Tournament:
    """A round-robin pairs tournament of ``count`` pairs (seeded in id order)."""
    t = create_tournament(name="RR", slug=slug, organizer=organizer)
    _set_regulations(t, pairing_system=Regulations.PairingSystem.ROUND_ROBIN, rounds_planned=9)
    for n in range(1, tables + 1):
        Table.objects.create(tournament=t, number=n)
    for k in range(count):
        p1 = Player.objects.create(tournament=t, name=f"P{k}a")
        p2 = Player.objects.create(tournament=t, name=f"P{k}b")
        Pair.objects.create(tournament=t, player1=p1, player2=p2, rating=100 - k)
    return t


@pytest.mark.parametrize("count", [4, 5])
def test_round_robin_everyone_meets_everyone_once(organizer, count):
    t = _round_robin(organizer, f"rr-{count}", count, tables=3)
    ids = set(t.pairs.values_list("pk", flat=True))
    met = []
    byes = []
    rounds_needed = count - 1 if count % 2 == 0 else count
    for _ in range(rounds_needed):
        rnd = _drawn(t)
        for _t, a, b in _pairings(rnd):
            if b is None:
                byes.append(a)
            else:
                met.append(frozenset((a, b)))
        _run(rnd)
    assert sorted(met, key=sorted) == sorted(
        (frozenset(c) for c in itertools.combinations(ids, 2)), key=sorted
    )
    assert len(set(byes)) == len(byes) == (count % 2) * count
    t.refresh_from_db()
    assert sorted(t.start_list) == sorted(ids)
    rnd = rounds.create_round(t.pk)
    with pytest.raises(ServiceError, match="there is no round"):
        draw_services.generate_draw(rnd.pk)


def test_round_robin_withdrawal_gives_the_opponent_a_bye(organizer):
    t = _round_robin(organizer, "rr-w", 4, tables=2)
    _run(_drawn(t))
    leaver = t.pairs.first()
    withdraw_pair(leaver.pk)
    rnd = _drawn(t)
    rows = _pairings(rnd)
    assert len([r for r in rows if r[2] is None]) == 1
    assert leaver.pk not in {x for _t, a, b in rows for x in (a, b)}


# -- individual events ------------------------------------------------------------------------


@pytest.fixture
def individual(organizer):
    """An individual tournament of 10 players (2 tables, 2 byes a round) and 3 tables."""
    t = create_tournament(
        name="Личный турнир", slug="solo", organizer=organizer,
        format=Tournament.Format.INDIVIDUAL,
    )
    for k in range(10):
        Player.objects.create(tournament=t, name=f"Игрок {k}", rating=2000 - 10 * k)
    for n in range(1, 4):
        Table.objects.create(tournament=t, number=n)
    return t


def test_individual_rounds_form_new_pairs_and_rank_players(individual):
    partners: dict[int, set[int]] = {}
    bye_count: dict[int, int] = {}
    for _ in range(3):
        rnd = _drawn(individual)
        parties = Party.objects.filter(round=rnd).select_related("pair_a", "pair_b")
        assert parties.count() == 4  # two tables, two byes
        seated = []
        for party in parties:
            for pair in (party.pair_a, party.pair_b):
                if pair is None:
                    continue
                assert pair.formed_in_round_id == rnd.pk
                if pair.player2_id is None:
                    assert party.is_bye and party.end_reason == "bye"
                    bye_count[pair.player1_id] = bye_count.get(pair.player1_id, 0) + 1
                    seated.append(pair.player1_id)
                    continue
                x, y = pair.player1_id, pair.player2_id
                assert y not in partners.get(x, set())
                partners.setdefault(x, set()).add(y)
                partners.setdefault(y, set()).add(x)
                seated += [x, y]
        assert sorted(seated) == sorted(individual.players.values_list("pk", flat=True))
        _run(rnd)
    assert max(bye_count.values()) == 1  # six byes over three rounds, to six players
    table = standings_table(individual)
    assert table.per_player and len(table.rows) == 10
    assert all(isinstance(e, Player) for e in table.entrants.values())
    # every seated player played 2 or 3 parties: winners of pair A got 2 match points each
    assert sum(r.metrics["match_points"] for r in table.rows) == 2 * (2 * 2 * 3 + 2 * 3)


def test_individual_fixed_pairs_are_refused(individual):
    from tournaments.registration.services import register_pair

    a, b = individual.players.all()[:2]
    with pytest.raises(ServiceError, match="draw forms the pairs"):
        register_pair(individual, a, b)


def test_individual_withdrawn_player_leaves_later_draws(individual):
    _run(_drawn(individual))
    leaver = individual.players.order_by("id").first()
    withdraw_player(leaver.pk)
    rnd = _drawn(individual)
    ids = set()
    for pair in Pair.objects.filter(formed_in_round=rnd):
        ids |= {pair.player1_id, pair.player2_id}
    assert leaver.pk not in ids
    assert len(ids - {None}) == 9


def test_individual_manual_edit(individual):
    _set_regulations(individual, pairing_system=Regulations.PairingSystem.MANUAL)
    rnd = _drawn(individual)
    p = list(individual.players.order_by("id").values_list("pk", flat=True))
    draw_services.edit_draw(rnd.pk, parties=[(2, (p[0], p[1]), (p[2], p[3])),
                                      (1, (p[4], p[5]), (p[6], p[7]))], byes=[p[8], p[9]])
    assert Party.objects.filter(round=rnd).count() == 4
    assert Party.objects.get(round=rnd, table__number=2).pair_a.player1_id == p[0]
    with pytest.raises(ServiceError, match="Round robin is for pairs tournaments"):
        _set_regulations(individual, pairing_system=Regulations.PairingSystem.ROUND_ROBIN)
        draw_services.generate_draw(rnd.pk)
