"""Stored party totals: equal to a replay of the deals after every kind of change, rebuilt by
the command, and the standings they give identical to the standings of a full replay."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db.models import F

from referee import services as referee
from scoring.models import Party, PartyTotals, Ruling, Tournament
from scoring.party import deals as scoring
from scoring.ranking.results import standings_table
from scoring.totals.compute import party_rows, party_totals
from scoring.totals.stored import FIGURES, SEAT_FIGURES, figures, rules_digest
from tests.referee.test_rule_sets_desk import make_desk
from tournaments.management.demo_entries import ENTRIES_SLUG

pytestmark = pytest.mark.django_db

CODES = sorted(Tournament.RuleSet.values)


@pytest.fixture
def desk(make_user):
    """A started party of a rule set with its referee (``desk("sport")``)."""
    return lambda code, **kwargs: make_desk(make_user, code, **kwargs)


def replayed(party: Party) -> dict:
    """The figures of a party replayed from its deals and fines now."""
    rows = party_rows(party)
    return figures(party_totals(party, rows), rows[1])


def stored(party: Party) -> dict:
    """The figures stored for the party (its row must be fresh: this version, these rules)."""
    row = PartyTotals.objects.get(party=party)
    assert (row.version, row.rules) == (party.version, rules_digest(party.round.tournament))
    return {name: getattr(row, name) for name in (*FIGURES, *SEAT_FIGURES)}


def finished(tournament: Tournament) -> list[Party]:
    """The tournament's finished parties that carry totals (a Kozel bye has none)."""
    cfg = tournament.regulations.rules_config()
    parties = Party.objects.filter(round__tournament=tournament, status="finished")
    if tournament.engine.layout_for(cfg).accounts:
        parties = parties.filter(pair_b__isnull=False)
    return list(parties.select_related("round__tournament__regulations"))


def assert_stored_equal_replay(tournament: Tournament) -> None:
    """Every finished party's stored figures are its replayed figures."""
    for party in finished(tournament):
        assert stored(party) == replayed(party), party


def lines(tournament: Tournament) -> list:
    """The standings as shown: entrant, rank and metrics, in order."""
    table = standings_table(Tournament.objects.get(pk=tournament.pk))
    return [(entrant.pk, row.rank, row.metrics) for row, entrant, _v in table.lines()]


def assert_standings_as_replayed(tournament: Tournament) -> list:
    """The standings from the stored rows equal those of a full replay (no rows at all): every
    party they count stored again (a knockout party is the bracket's, not theirs)."""
    from_rows = lines(tournament)
    PartyTotals.objects.filter(party__round__tournament=tournament).delete()
    cache.clear()
    assert lines(tournament) == from_rows  # every row replayed, and stored again
    for party in finished(tournament):
        if party.match_id is None:
            assert stored(party) == replayed(party), party
    return from_rows


@pytest.mark.parametrize("code", CODES)
def test_forfeit_fines_and_a_fine_after_the_end_stay_equal_to_a_replay(make_user, code):
    desk = make_desk(make_user, code)
    party = desk.party
    cfg = party.round.tournament.regulations.rules_config()
    seat = {} if "a" in party.round.tournament.engine.sides_for(cfg) else {"seat": "a1"}
    referee.give_fine(desk.party_id, category="signs", side="a", actor=desk.referee, **seat)
    referee.forfeit_party(desk.party_id, absent_side="b", actor=desk.referee)
    party = desk.party
    assert party.status == "finished"
    assert stored(party) == replayed(party)  # written with the result, at its version
    tournament = party.round.tournament
    before = lines(tournament)
    Party.objects.filter(pk=party.pk).update(version=F("version") + 1)  # as a signature does
    party = desk.party
    assert PartyTotals.objects.get(party=party).version != party.version  # stale now
    assert lines(tournament) == before  # the stale row is replayed and stored again
    assert stored(party) == replayed(party)
    assert stored(party)["fines_a"] > 0
    assert_standings_as_replayed(tournament)


def test_played_party_then_corrections_and_an_annulment_of_the_finished_party(desk):
    sport = desk("sport")
    deals = [sport.deal(outcome="domino", winner="a", points={"a": 50, "b": 0}) for _ in range(3)]
    last = sport.deal(outcome="domino", winner="a", points={"a": 60, "b": 0})
    party = sport.party
    assert party.status == "finished" and party.winner == "a"
    assert stored(party) == replayed(party) and stored(party)["points_a"] == 210
    scoring.correct_deal(
        deals[0].pk, actor=sport.referee, reason="miscount", outcome="domino", winner="a",
        points={"a": 70, "b": 0},
    )
    party = sport.party
    assert party.status == "finished" and stored(party)["points_a"] == 230
    assert stored(party) == replayed(party)
    scoring.annul_deal(last.pk, actor=sport.referee, reason="misdeal")  # reopens the party
    assert sport.party.status == "in_progress"
    sport.deal(outcome="domino", winner="b", points={"a": 0, "b": 100})
    assert not PartyTotals.objects.get(party=party).version == sport.party.version
    sport.deal(outcome="domino", winner="a", points={"a": 40, "b": 0})
    party = sport.party
    assert party.status == "finished" and party.winner == "a"
    assert stored(party) == replayed(party)
    assert (stored(party)["points_a"], stored(party)["points_b"]) == (210, 100)
    assert_standings_as_replayed(party.round.tournament)


def test_disqualification_and_a_bye(desk):
    sport = desk("sport")
    sport.deal(outcome="domino", winner="b", points={"a": 0, "b": 40})
    referee.disqualify(
        sport.party_id, side="a", scope=Ruling.Choice.PARTY, reason="rude", actor=sport.referee
    )
    party = sport.party
    assert party.end_reason == "disqualification" and party.winner == "b"
    assert stored(party) == replayed(party)
    bye = Party.objects.create(
        round=party.round, pair_a=party.pair_a, status="finished", end_reason="bye", winner="a"
    )  # as the draw makes a bye: no stored row until the standings read it
    assert not PartyTotals.objects.filter(party=bye).exists()
    tournament = party.round.tournament
    assert_standings_as_replayed(tournament)
    assert stored(bye) == replayed(bye) and stored(bye)["points_a"] > 0


def test_demo_events_and_the_rebuild_command(protocol_files):
    call_command("seed_demo", stdout=StringIO())
    # the played demos (the spring cup only takes entries: nothing played in it yet)
    tournaments = list(Tournament.objects.exclude(slug=ENTRIES_SLUG)
                       .select_related("regulations"))
    assert {t.rule_set for t in tournaments} >= {"sport", "udl", "kozel"}
    for tournament in tournaments:
        assert finished(tournament)
        assert_standings_as_replayed(tournament)
    shown = {t.pk: lines(t) for t in tournaments}
    PartyTotals.objects.all().delete()
    cache.clear()
    some = finished(tournaments[0])[0]
    PartyTotals.objects.create(
        party=some, version=some.version, rules=rules_digest(tournaments[0]), points_a=-999
    )  # a wrong row at the party's version: the command replaces it
    out = StringIO()
    call_command("rebuild_party_totals", stdout=out)
    count = sum(len(finished(t)) for t in tournaments)
    assert f"Stored the totals of {count} finished parties." in out.getvalue()
    for tournament in tournaments:
        assert_stored_equal_replay(tournament)
        assert lines(tournament) == shown[tournament.pk]
    one = StringIO()
    call_command("rebuild_party_totals", tournament=tournaments[0].slug, stdout=one)
    assert f"{tournaments[0].slug}: " in one.getvalue()
    with pytest.raises(Exception, match="No tournament"):
        call_command("rebuild_party_totals", tournament="no-such-event", stdout=StringIO())


def test_changed_rules_make_the_rows_stale(desk):
    sport = desk("sport")
    for _ in range(2):
        sport.deal(outcome="domino", winner="a", points={"a": 100, "b": 0})
    party = sport.party
    tournament = party.round.tournament
    regulations = tournament.regulations
    regulations.forfeit_winner_points = (regulations.forfeit_winner_points or 0) + 1
    regulations.save()
    tournament = Tournament.objects.select_related("regulations").get(pk=tournament.pk)
    assert PartyTotals.objects.get(party=party).rules != rules_digest(tournament)
    cache.clear()
    lines(tournament)
    assert PartyTotals.objects.get(party=party).rules == rules_digest(tournament)
