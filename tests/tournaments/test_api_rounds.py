"""The rounds, draws, standings and withdrawal endpoints, and their OpenAPI schema."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import Pair, Party, Player, Round, Tournament
from tests.tournaments.play import play_round
from tournaments.setup.services import create_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def _as(api, user):
    api.force_authenticate(user)
    return api


def test_whole_round_through_the_api(api, tournament, organizer):
    _as(api, organizer)
    response = api.post("/api/v1/rounds/", {"tournament": tournament.pk}, format="json")
    assert response.status_code == 201, response.data
    rid = response.data["id"]
    assert (response.data["number"], response.data["status"]) == (1, "draft")

    response = api.post(f"/api/v1/rounds/{rid}/generate/", {}, format="json")
    assert response.status_code == 200, response.data
    draw = response.data
    assert [p["table_number"] for p in draw["parties"]] == [1, 2, 3, 4]
    assert all(sorted(p["seats"]) == ["a1", "a2", "b1", "b2"] for p in draw["parties"])
    assert all(p["pairs"]["a"]["players"][0]["name"] for p in draw["parties"])
    assert [w[:40] for w in draw["round"]["warnings"]] == [  # 7 rounds planned for 8 pairs
        "7 rounds are planned for 8 entrants, so "
    ]

    # a manual edit in the draw's own shape (table and seats): pairs B of tables 1, 2 change
    parties = [{"table_number": p["table_number"], "seats": dict(p["seats"])}
               for p in draw["parties"]]
    first, second = parties[0]["seats"], parties[1]["seats"]
    for seat in ("b1", "b2"):
        first[seat], second[seat] = second[seat], first[seat]
    moved_pair = draw["parties"][1]["pairs"]["b"]["id"]
    response = api.put(f"/api/v1/rounds/{rid}/draw/", {"parties": parties}, format="json")
    assert response.status_code == 200, response.data
    assert response.data["parties"][0]["pairs"]["b"]["id"] == moved_pair
    assert response.data["parties"][0]["seats"]["b1"] == first["b1"]

    response = api.put(f"/api/v1/rounds/{rid}/draw/", {"parties": parties[:3]}, format="json")
    assert response.status_code == 400
    assert "Entrants missing from the draw" in response.data["draw"][0]
    response_a = draw["parties"][3]["pairs"]["a"]["id"]
    left_out = Pair.objects.get(pk=response_a).display_name
    assert left_out in response.data["draw"][0]  # names, not ids

    response = api.post(f"/api/v1/rounds/{rid}/swap/", {"first": 1, "second": 4}, format="json")
    assert response.status_code == 200
    assert response.data["parties"][0]["pairs"]["a"]["id"] == response_a

    assert api.post(f"/api/v1/rounds/{rid}/publish/").data["status"] == "published"
    assert api.post(f"/api/v1/rounds/{rid}/start/").data == {"started": 4}
    response = api.post(f"/api/v1/rounds/{rid}/close/")
    assert response.status_code == 400 and "not finished" in response.data["round"][0]
    play_round(rid, winner="b")
    response = api.post(f"/api/v1/rounds/{rid}/close/")
    assert response.status_code == 200 and response.data["status"] == "finished"

    response = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/")
    assert response.status_code == 200
    lines = response.data["lines"]
    assert len(lines) == 8 and response.data["per_player"] is False
    assert [line["metrics"]["match_points"] for line in lines] == [2] * 4 + [0] * 4
    assert response.data["order"][0] == "match_points"
    by_player = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/", {"by": "player"}).data
    assert by_player["per_player"] is True and len(by_player["lines"]) == 16
    after = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/", {"after_round": "x"})
    assert after.status_code == 400


def test_withdraw_through_the_api(api, tournament, organizer, make_user):
    pair = tournament.pairs.first()
    assert _as(api, make_user()).post(
        f"/api/v1/pairs/{pair.pk}/withdraw/", {"withdrawn": True}, format="json"
    ).status_code == 403
    response = _as(api, organizer).post(
        f"/api/v1/pairs/{pair.pk}/withdraw/", {"withdrawn": True}, format="json"
    )
    assert response.status_code == 200 and response.data["withdrawn"] is True
    player = Player.objects.filter(tournament=tournament).last()
    response = api.post(f"/api/v1/players/{player.pk}/withdraw/", {"withdrawn": True},
                        format="json")
    assert response.status_code == 200 and response.data["withdrawn"] is True
    response = api.post(f"/api/v1/pairs/{pair.pk}/withdraw/", {"withdrawn": False}, format="json")
    assert response.data["withdrawn"] is False


def test_draft_draws_are_hidden_and_changes_need_an_organizer(api, tournament, make_user):
    from tournaments.rounds import draw_services
    from tournaments.rounds import services as rounds

    rnd = draw_services.generate_draw(rounds.create_round(tournament.pk).pk)
    party = Party.objects.filter(round=rnd).first()
    stranger = make_user()
    for client in (APIClient(), _as(APIClient(), stranger)):
        assert client.get(f"/api/v1/rounds/{rnd.pk}/draw/").status_code == 404
        assert client.get("/api/v1/rounds/").data["count"] == 0
        assert client.get(f"/api/v1/parties/{party.pk}/").status_code == 404
    assert _as(api, stranger).post(f"/api/v1/rounds/{rnd.pk}/publish/").status_code == 404
    assert api.post("/api/v1/rounds/", {"tournament": tournament.pk}).status_code == 403
    rounds.publish_round(rnd.pk)
    assert APIClient().get(f"/api/v1/rounds/{rnd.pk}/draw/").status_code == 200
    assert api.post(f"/api/v1/rounds/{rnd.pk}/start/").status_code == 403
    assert APIClient().post(f"/api/v1/rounds/{rnd.pk}/start/").status_code in (401, 403)
    assert not Party.objects.filter(round=rnd, status="in_progress").exists()


def test_individual_draw_through_the_api(api, organizer):
    t = create_tournament(name="Solo", slug="solo-api", organizer=organizer,
                          format=Tournament.Format.INDIVIDUAL)
    players = [Player.objects.create(tournament=t, name=f"P{k}") for k in range(8)]
    for n in (1, 2):
        t.tables.create(number=n)
    _as(api, organizer)
    rid = api.post("/api/v1/rounds/", {"tournament": t.pk}, format="json").data["id"]
    response = api.post(f"/api/v1/rounds/{rid}/generate/", {"seed": 7}, format="json")
    assert response.status_code == 200
    assert sorted(x for p in response.data["parties"] for x in p["seats"].values()) \
        == sorted(p.pk for p in players)
    ids = [p.pk for p in players]
    body = {"parties": [
        {"table_number": 1, "seats": {"a1": ids[0], "a2": ids[1], "b1": ids[2], "b2": ids[3]}},
        {"table_number": 2, "seats": {"a1": ids[4], "a2": ids[5], "b1": ids[6], "b2": ids[7]}},
    ]}
    response = api.put(f"/api/v1/rounds/{rid}/draw/", body, format="json")
    assert response.status_code == 200, response.data
    assert response.data["parties"][0]["seats"] == body["parties"][0]["seats"]
    assert [(p["seat"], p["name"]) for p in response.data["parties"][0]["pairs"]["a"]["players"]
            ] == [("a1", "P0"), ("a2", "P1")]
    response = api.put(f"/api/v1/rounds/{rid}/draw/",
                       {"parties": [{"table_number": 1, "seats": {"a1": ids[0], "c1": ids[1]}}]},
                       format="json")
    assert response.status_code == 400 and "seats" in response.data["parties"][0]
    formed = Pair.objects.filter(formed_in_round_id=rid)
    assert formed.count() == 4
    assert api.get("/api/v1/pairs/", {"formed_in_round": rid}).data["count"] == 4
    assert APIClient().get("/api/v1/pairs/", {"formed_in_round": rid}).data["count"] == 0
    assert Round.objects.get(pk=rid).status == "draft"


def test_schema_documents_the_round_endpoints(api):
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    paths = schema["paths"]
    for path, methods in {
        "/api/v1/rounds/": {"get", "post"},
        "/api/v1/rounds/{id}/": {"get", "delete"},
        "/api/v1/rounds/{id}/draw/": {"get", "put"},
        "/api/v1/rounds/{id}/generate/": {"post"},
        "/api/v1/rounds/{id}/swap/": {"post"},
        "/api/v1/rounds/{id}/publish/": {"post"},
        "/api/v1/rounds/{id}/start/": {"post"},
        "/api/v1/rounds/{id}/close/": {"post"},
        "/api/v1/tournaments/{id}/standings/": {"get"},
        "/api/v1/pairs/{id}/withdraw/": {"post"},
        "/api/v1/players/{id}/withdraw/": {"post"},
    }.items():
        assert methods <= set(paths[path]), path
    ref = paths["/api/v1/rounds/{id}/generate/"]["post"]
    assert ref["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/GenerateDrawRequest"
    )
    assert ref["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/Draw"
    )
    assert {"400", "403", "404"} <= set(ref["responses"])
    assert "requestBody" not in paths["/api/v1/rounds/{id}/publish/"]["post"]
    start = paths["/api/v1/rounds/{id}/start/"]["post"]["responses"]["200"]
    assert start["content"]["application/json"]["schema"]["$ref"].endswith("/Started")
    withdraw = paths["/api/v1/pairs/{id}/withdraw/"]["post"]["responses"]["200"]
    assert withdraw["content"]["application/json"]["schema"]["$ref"].endswith("/Pair")
    params = {p["name"] for p in paths["/api/v1/tournaments/{id}/standings/"]["get"]["parameters"]}
    assert {"after_round", "by"} <= params
