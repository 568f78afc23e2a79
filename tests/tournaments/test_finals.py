"""Finals through the API: a Swiss then an 8-pair knockout with a match for third place; groups
then cross-over quarter-finals; a 6-qualifier bracket with byes; the final placings the bracket
gives, and the season and rating list built on them; the refusals, nothing written."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import (
    Match,
    Party,
    Player,
    RatingEntry,
    RatingList,
    Round,
    Season,
    Stage,
    TournamentPlacing,
    WebhookDelivery,
    WebhookSubscription,
)
from scoring.people.profiles import link_new_player
from scoring.ranking.rating_runs import recompute_rating_list
from scoring.ranking.results import standings_table
from scoring.ranking.seasons import refresh_placings
from scoring.stages.sheet import bracket_sheet
from tests.factories import PairFactory, PlayerFactory, TableFactory, TournamentFactory
from tests.tournaments.play import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(organizer):
    client = APIClient()
    client.force_authenticate(organizer)
    return client


def _field(organizer, pairs: int, rounds: int, slug: str):
    """A pairs tournament of ``pairs`` pairs (rated best first), one table a two pairs."""
    t = TournamentFactory(slug=slug, organizer=organizer)
    t.regulations.rounds_planned = rounds
    t.regulations.save()
    for k in range(pairs):
        PairFactory(tournament=t, rating=2000 - k,
                    player1=PlayerFactory(tournament=t, club=f"Club {k % 5}"),
                    player2=PlayerFactory(tournament=t))
    TableFactory.create_batch(pairs // 2, tournament=t)
    return t


def _play_published(api, winner_of=lambda party: "a") -> None:
    """Start and play every waiting party of the published rounds (the API starts them)."""
    for rnd in Round.objects.filter(status=Round.Status.PUBLISHED):
        if Party.objects.filter(round=rnd, status=Party.Status.SCHEDULED).exists():
            assert api.post(f"/api/v1/rounds/{rnd.pk}/start/").status_code == 200
    for party in Party.objects.filter(status=Party.Status.IN_PROGRESS):
        play(party.pk, winner_of(party))


def _qualifying_round(api, tournament) -> None:
    """One qualifying round through the API: create, draw, publish, start, play, close."""
    rid = api.post("/api/v1/rounds/", {"tournament": tournament.pk}, format="json").data["id"]
    assert api.post(f"/api/v1/rounds/{rid}/generate/", {}, format="json").status_code == 200
    assert api.post(f"/api/v1/rounds/{rid}/publish/").status_code == 200
    _play_published(api)
    assert api.post(f"/api/v1/rounds/{rid}/close/").status_code == 200


def _play_bracket(api, winner_of) -> None:
    """Play the knockout parties as they appear, until none is left to play."""
    while Party.objects.filter(match__isnull=False).exclude(
            status=Party.Status.FINISHED).exists():
        _play_published(api, winner_of)


def _seeds(bracket_round: list[dict]) -> list[tuple]:
    return [(m["seed_a"], m["seed_b"]) for m in bracket_round]


def test_swiss_then_an_eight_pair_knockout_places_by_the_bracket_then_the_swiss(
        api, organizer):
    t = _field(organizer, 24, 5, "ko-24")
    for player in Player.objects.filter(tournament=t):
        link_new_player(player)
    hook = WebhookSubscription.objects.create(
        tournament=t, url="https://example.com/hook", created_by=organizer,
        events=["match.decided", "stage.finished"])
    for _ in range(4):
        _qualifying_round(api, t)
    rid = api.post("/api/v1/rounds/", {"tournament": t.pk}, format="json").data["id"]
    api.post(f"/api/v1/rounds/{rid}/generate/", {}, format="json")
    api.post(f"/api/v1/rounds/{rid}/publish/")
    api.post(f"/api/v1/rounds/{rid}/start/")
    one = Party.objects.filter(round_id=rid).first()
    play(one.pk)
    # a qualifying party unfinished: refused, nothing written
    refused = api.post("/api/v1/stages/finals/", {"tournament": t.pk, "bracket_size": 8},
                       format="json")
    assert refused.status_code == 400 and "parties not finished" in refused.data["round"][0]
    assert not Stage.objects.filter(tournament=t, format="knockout").exists()
    _play_published(api)
    api.post(f"/api/v1/rounds/{rid}/close/")

    swiss = [row.entrant for row in standings_table(t).rows]
    refused = api.post("/api/v1/stages/finals/", {"tournament": t.pk, "bracket_size": 32},
                       format="json")
    assert refused.status_code == 400
    assert "larger than the qualified field of 24" in refused.data["bracket_size"][0]
    proposed = api.get("/api/v1/stages/qualifiers/",
                       {"tournament": t.pk, "size": 8}).data["qualifiers"]
    assert proposed == swiss[:8]

    started = api.post("/api/v1/stages/finals/", {
        "tournament": t.pk, "qualifiers": proposed, "third_place": True}, format="json")
    assert started.status_code == 201, started.data
    bracket = started.data
    assert _seeds(bracket["rounds"][0]) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert [m["pair_a"] for m in bracket["rounds"][0]] == [swiss[0], swiss[3], swiss[1],
                                                          swiss[2]]
    assert [len(r) for r in bracket["rounds"]] == [4, 2, 1]
    assert bracket["third_place"]["status"] == "waiting"
    assert api.post("/api/v1/rounds/", {"tournament": t.pk}, format="json").status_code == 400

    # the lower seed wins the quarter-final of 4 v 5; the better seed every other match
    seeds = {pk: n for n, pk in enumerate(proposed, start=1)}

    def winner_of(party: Party) -> str:
        a, b = seeds[party.pair_a_id], seeds[party.pair_b_id]
        if {a, b} == {4, 5}:
            return "a" if a == 5 else "b"
        return "a" if a < b else "b"

    _play_bracket(api, winner_of)
    stage = Stage.objects.get(tournament=t, format="knockout")
    bracket = api.get(f"/api/v1/stages/{stage.pk}/bracket/").data
    assert bracket["stage"]["status"] == "finished"
    assert _seeds(bracket["rounds"][1]) == [(1, 5), (2, 3)]
    final = bracket["rounds"][2][0]
    assert (final["seed_a"], final["seed_b"], final["winner_pair"]) == (1, 2, proposed[0])
    third = bracket["third_place"]
    assert (third["seed_a"], third["seed_b"], third["winner_pair"]) == (5, 3, proposed[2])
    assert Round.objects.filter(tournament=t, bracket_round__isnull=False).exclude(
        status="finished").count() == 0

    places = [line["pair"] for line in bracket["placings"]]
    assert places[:4] == [proposed[0], proposed[1], proposed[2], proposed[4]]
    quarter_losers = [proposed[7], proposed[3], proposed[6], proposed[5]]
    assert places[4:8] == sorted(quarter_losers, key=swiss.index)
    assert places[8:] == swiss[8:]
    assert [line["place"] for line in bracket["placings"]] == list(range(1, 25))
    # the Swiss standings themselves count no knockout party
    assert [row.entrant for row in standings_table(t).rows] == swiss

    decided = WebhookDelivery.objects.filter(subscription=hook, event="match.decided")
    assert decided.count() == 8
    assert WebhookDelivery.objects.filter(subscription=hook, event="stage.finished").count() == 2

    season = Season.objects.create(name="Сезон", slug="season", scoring="place_points",
                                   place_points=[10, 8, 6, 5], created_by=organizer)
    season.tournaments.add(t)
    refresh_placings(t)
    champion = t.pairs.get(pk=proposed[0]).player1.profile_id
    fourth = t.pairs.get(pk=proposed[4]).player1.profile_id
    placed = dict(TournamentPlacing.objects.filter(tournament=t).values_list("profile", "place"))
    assert placed[champion] == 1 and placed[fourth] == 4
    ninth = t.pairs.get(pk=swiss[8]).player2.profile_id
    assert placed[ninth] == 9
    lines = api.get(f"/api/v1/seasons/{season.slug}/").json()["lines"]
    points = {line["profile"]: line["total"] for line in lines}
    assert points[champion] == 10 and points[fourth] == 5 and points[ninth] == 0

    ratings = RatingList.objects.create(name="Рейтинг", slug="rating", system="elo",
                                        subject="players")
    ratings.tournaments.add(t)
    recompute_rating_list(ratings.pk)
    champion_games = RatingEntry.objects.filter(
        rating_list=ratings, profile_id=champion, current=True).values_list("games", flat=True)
    assert list(champion_games) == [5 + 3]  # the Swiss and three knockout parties


def test_four_groups_of_four_then_cross_over_quarter_finals(api, organizer):
    t = _field(organizer, 16, 3, "groups-16")
    refused = api.post("/api/v1/stages/groups/", {"tournament": t.pk, "group_count": 9},
                       format="json")
    assert refused.status_code == 400 and "fewer than two" in refused.data["group_count"][0]
    made = api.post("/api/v1/stages/groups/", {"tournament": t.pk, "group_count": 4},
                    format="json")
    assert made.status_code == 201, made.data
    pairs = list(t.pairs.order_by("-rating").values_list("pk", flat=True))
    groups = {g["name"]: set(g["entrants"]) for g in made.data["groups"]}
    assert groups["A"] == {pairs[0], pairs[7], pairs[8], pairs[15]}
    for _ in range(3):
        _qualifying_round(api, t)
    assert api.post("/api/v1/rounds/", {"tournament": t.pk}, format="json").status_code == 400
    for group in made.data["groups"]:  # every pair met the three others of its group
        members = set(group["entrants"])
        met = Party.objects.filter(pair_a__in=members).values_list("pair_a", "pair_b")
        assert all(b in members for _a, b in met) and len(met) == 6
    tables = api.get(f"/api/v1/stages/{made.data['id']}/group-standings/").data
    started = api.post("/api/v1/stages/finals/", {"tournament": t.pk, "bracket_size": 8},
                       format="json")
    assert started.status_code == 201, started.data
    quarter = [(m["pair_a"], m["pair_b"]) for m in started.data["rounds"][0]]
    a, b, c, d = (tables[name] for name in "ABCD")
    assert quarter == [(a[0], b[1]), (c[0], d[1]), (b[0], a[1]), (d[0], c[1])]


def test_six_qualifiers_give_the_first_two_seeds_byes(api, organizer):
    t = _field(organizer, 8, 1, "ko-6")
    _qualifying_round(api, t)
    swiss = [row.entrant for row in standings_table(t).rows]
    started = api.post("/api/v1/stages/finals/", {"tournament": t.pk, "bracket_size": 6},
                       format="json")
    assert started.status_code == 201, started.data
    first = started.data["rounds"][0]
    assert _seeds(first) == [(1, None), (4, 5), (2, None), (3, 6)]
    assert [m["bye"] for m in first] == [True, False, True, False]
    assert [m["winner_pair"] for m in first] == [swiss[0], None, swiss[1], None]
    semis = started.data["rounds"][1]
    assert (semis[0]["pair_a"], semis[1]["pair_a"]) == (swiss[0], swiss[1])
    assert Party.objects.filter(match__isnull=False).count() == 2  # byes are no parties
    stage = Stage.objects.get(tournament=t, format="knockout")
    sheet = bracket_sheet(stage)
    assert [r.name for r in sheet.rounds] == ["Quarter-finals", "Semi-finals", "Final"]
    top = sheet.rounds[0].matches[0]
    assert top.status == "decided" and top.slots[1].bye and top.slots[0].winner
    assert [m.status for m in sheet.rounds[0].matches] == ["decided", "ready", "decided",
                                                           "ready"]
    assert sheet.rounds[0].matches[1].table is not None and sheet.third_place is None
    _play_bracket(api, lambda party: "a")
    assert Match.objects.filter(stage__tournament=t).exclude(status="decided").count() == 0
    sheet = bracket_sheet(stage)
    final = sheet.rounds[2].matches[0]
    assert final.status == "decided" and final.slots[0].seed == 1 and final.slots[0].winner
    assert final.slots[0].score == "240" and final.url.startswith("/")
