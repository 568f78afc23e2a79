"""The referee API: actions, state, retries with Idempotency-Key, stale versions, the schema."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from referee.tasks import purge_idempotency_keys
from scoring.access.idempotency import ABANDONED_AFTER
from scoring.models import Deal, IdempotencyKey, Party, Penalty, Ruling, TournamentRole

pytestmark = pytest.mark.django_db


def url(party, name=""):
    return f"/api/v1/parties/{party.pk}/" + (f"{name}/" if name else "")


def deal_body(**extra):
    return {"outcome": "domino", "side": "a", "points": {"a": 10, "b": 0}, **extra}


def test_record_deal_answers_with_party_and_record(api, party):
    response = api.post(url(party, "deal"), deal_body(number=1, version=party.version),
                        format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["record"]["type"] == "deal" and body["record"]["number"] == 1
    assert body["party"]["totals"]["points"] == {"a": 10, "b": 0}
    assert body["party"]["version"] == party.version + 1


def test_deal_from_tiles_computes_the_pips(api, party):
    tiles = {"a2": ["3-5"], "b1": ["6-6", "0-1"], "b2": ["2-2"]}
    response = api.post(url(party, "deal"), {"outcome": "domino", "seat": "a1",
                                              "tiles": tiles}, format="json")
    assert response.status_code == 201, response.json()
    deal = Deal.objects.get(party=party)
    assert deal.pips == {"a1": 0, "b1": 13, "a2": 8, "b2": 4}
    assert (deal.points_a, deal.tiles["b1"]) == (25, [[6, 6], [0, 1]])


def test_deal_with_a_tile_twice_is_refused(api, party):
    response = api.post(url(party, "deal"), {"outcome": "fish",
                                              "tiles": {"a1": ["1-2"], "b1": ["2-1"]}},
                        format="json")
    assert response.status_code == 400 and "tiles" in response.json()
    assert not Deal.objects.exists()


def test_fifty_deals_sent_three_times_with_the_same_key_make_fifty(api, party, regs):
    regs(target=10000)
    for n in range(50):
        key = str(uuid.uuid4())
        answers = [
            api.post(url(party, "deal"), deal_body(), format="json", HTTP_IDEMPOTENCY_KEY=key)
            for _ in range(3)
        ]
        assert [a.status_code for a in answers] == [201, 201, 201]
        assert answers[0].json() == answers[1].json() == answers[2].json()
        assert answers[2]["Idempotent-Replayed"] == "true"
        assert answers[0].json()["record"]["number"] == n + 1
    assert Deal.objects.filter(party=party).count() == 50
    assert sorted(Deal.objects.values_list("number", flat=True)) == list(range(1, 51))
    assert api.get(url(party)).json()["totals"]["points"] == {"a": 500, "b": 0}


def test_retry_with_the_same_client_id_and_no_key_makes_one_deal(api, party):
    for _ in range(3):
        assert api.post(url(party, "deal"), deal_body(client_id="tablet-7"),
                        format="json").status_code == 201
    assert Deal.objects.filter(party=party).count() == 1


def test_retried_warnings_with_the_same_key_are_given_once(api, party):
    for _ in range(3):
        api.post(url(party, "warning"), {"side": "a", "category": "talking"}, format="json",
                 HTTP_IDEMPOTENCY_KEY="warn-1")
    assert Penalty.objects.filter(party=party).count() == 1
    assert Penalty.objects.get().kind == "warning"  # a retry is not a repeated violation


def test_same_key_while_the_first_request_runs_is_a_conflict(api, party, referee_user):
    IdempotencyKey.objects.create(user=referee_user, key="busy", fingerprint="x")
    response = api.post(url(party, "deal"), deal_body(), format="json",
                        HTTP_IDEMPOTENCY_KEY="busy")
    assert response.status_code in (409, 422)
    assert not Deal.objects.exists()


def test_same_key_for_another_request_is_refused(api, party):
    api.post(url(party, "deal"), deal_body(), format="json", HTTP_IDEMPOTENCY_KEY="k")
    response = api.post(url(party, "warning"), {"side": "a", "category": "talking"},
                        format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code == 422
    assert not Penalty.objects.exists()


def test_a_refusal_echoing_a_nul_is_stored_and_replayed(api, party):
    """A NUL in a body is refused naming the field it is under (PostgreSQL stores it nowhere:
    it was a 500), a NUL in the name itself as U+FFFD; the refusal is kept for retries."""
    body = {**deal_body(), "i\x00d": 1}
    first = api.post(url(party, "deal"), body, format="json", HTTP_IDEMPOTENCY_KEY="nul")
    assert first.status_code == 400 and list(first.json()) == ["i\ufffdd"]
    retry = api.post(url(party, "deal"), body, format="json", HTTP_IDEMPOTENCY_KEY="nul")
    assert retry.status_code == 400 and list(retry.json()) == ["i\ufffdd"]
    assert retry.headers.get("Idempotent-Replayed") == "true"
    assert not Deal.objects.exists()


def test_key_of_an_abandoned_request_is_taken_over(api, party, referee_user):
    body = deal_body()
    api.post(url(party, "warning"), {"side": "a", "category": "talking"}, format="json")
    record = IdempotencyKey.objects.create(user=referee_user, key="dead", fingerprint="x")
    IdempotencyKey.objects.filter(pk=record.pk).update(
        created_at=timezone.now() - timedelta(minutes=5)
    )
    response = api.post(url(party, "deal"), body, format="json", HTTP_IDEMPOTENCY_KEY="dead")
    assert response.status_code == 201, response.json()
    assert "Idempotent-Replayed" not in response  # acted on, not a replay of the dead claim
    assert Deal.objects.filter(party=party).count() == 1
    # the dead claim was replaced by this request's: one row, finished, holding the answer
    taken = IdempotencyKey.objects.get(user=referee_user, key="dead")
    assert taken.pk != record.pk and taken.fingerprint != "x"
    assert (taken.status_code, taken.response) == (201, response.json())
    # a retry of the same request is now a replay: the same body, no second deal
    retry = api.post(url(party, "deal"), body, format="json", HTTP_IDEMPOTENCY_KEY="dead")
    assert (retry.status_code, retry["Idempotent-Replayed"]) == (201, "true")
    assert retry.json() == response.json()
    assert Deal.objects.filter(party=party).count() == 1
    assert IdempotencyKey.objects.filter(user=referee_user, key="dead").count() == 1


def test_key_of_a_request_still_running_is_not_taken_over(api, party, referee_user):
    body = deal_body()
    first = api.post(url(party, "deal"), body, format="json", HTTP_IDEMPOTENCY_KEY="live")
    assert first.status_code == 201
    # the same request marked running again, younger than ABANDONED_AFTER: still in progress
    IdempotencyKey.objects.filter(key="live").update(
        status_code=None, created_at=timezone.now() - ABANDONED_AFTER + timedelta(seconds=5)
    )
    again = api.post(url(party, "deal"), body, format="json", HTTP_IDEMPOTENCY_KEY="live")
    assert again.status_code == 409
    assert Deal.objects.filter(party=party).count() == 1
    assert IdempotencyKey.objects.filter(user=referee_user, key="live").count() == 1


def test_conflicts_are_not_stored_so_a_retry_can_succeed(api, party):
    stale = {**deal_body(), "version": party.version - 1}
    first = api.post(url(party, "deal"), stale, format="json", HTTP_IDEMPOTENCY_KEY="c")
    assert first.status_code == 409 and "version" in first.json()
    fresh = {**deal_body(), "version": party.version}
    assert api.post(url(party, "deal"), fresh, format="json",
                    HTTP_IDEMPOTENCY_KEY="c2").status_code == 201


def test_old_keys_are_purged(party, referee_user):
    record = IdempotencyKey.objects.create(user=referee_user, key="old", fingerprint="x",
                                           status_code=201, response={})
    IdempotencyKey.objects.filter(pk=record.pk).update(
        created_at=timezone.now() - timedelta(days=2)
    )
    assert purge_idempotency_keys() == 1


def test_stale_version_is_refused_with_409_and_changes_nothing(api, party):
    version = party.version
    assert api.post(url(party, "warning"), {"side": "a", "category": "signs",
                                             "version": version}, format="json").status_code == 201
    response = api.post(url(party, "fine"), {"side": "b", "category": "signs",
                                              "version": version}, format="json")
    assert response.status_code == 409
    assert Penalty.objects.filter(party=party).count() == 1


def test_same_deal_number_from_two_devices_is_refused(api, party):
    assert api.post(url(party, "deal"), deal_body(number=1), format="json").status_code == 201
    response = api.post(url(party, "deal"), deal_body(number=1), format="json")
    assert response.status_code == 400 and "number" in response.json()


def test_clock_pause_at_once_its_reason_after_and_resume_continues(api, party):
    response = api.post(url(party, "pause"), {}, format="json")
    assert response.status_code == 200 and response.json()["party"]["clock"]["paused"]
    assert api.post(url(party, "pause-reason"), {}, format="json").status_code == 400
    response = api.post(url(party, "pause-reason"), {"reason": "dispute"}, format="json")
    assert response.status_code == 200
    response = api.post(url(party, "resume"), {}, format="json")
    assert response.status_code == 200 and not response.json()["party"]["clock"]["paused"]
    kinds = list(party.events.values_list("kind", flat=True))
    assert kinds[-3:] == ["clock_paused", "pause_reason", "clock_resumed"]


def test_start_and_time_up_by_the_referee(api, make_party):
    party = make_party(table_number=2)
    response = api.post(url(party, "start"), {}, format="json")
    assert response.json()["party"]["status"] == "in_progress"
    response = api.post(url(party, "time-up"), {}, format="json")
    assert response.json()["party"]["phase"] == "last_deal"
    api.post(url(party, "deal"), deal_body(), format="json")
    party.refresh_from_db()
    assert (party.status, party.end_reason, party.winner) == ("finished", "time", "a")


def test_state_shows_everything_the_screen_needs(api, party):
    api.post(url(party, "deal"), deal_body(), format="json")
    api.post(url(party, "warning"), {"side": "b", "category": "talking", "seat": "b2"},
             format="json")
    api.post(url(party, "out-of-turn"), {"seat": "a1", "choice": "continue", "tile": "2-4"},
             format="json")
    api.post(url(party, "check-in"), {"side": "a"}, format="json")
    body = api.get(url(party)).json()
    assert body["phase"] == "continue" and body["deal_in_play"] == 2
    assert body["pairs"]["b"]["players"][1]["seat"] == "b2"
    assert body["deals"][0]["running"] == {"a": 10, "b": 0}
    assert body["warnings"] == {"a": 0, "b": 1}
    assert body["warnings_by_kind"]["b"]["talking"] == 1
    assert body["exposed"] == [{"seat": "a1", "tile": [2, 4]}]
    assert body["check_in"]["a"] is True and body["check_in"]["b"] is False
    assert body["clock"]["seconds_left"] > 0


def test_event_log_says_who_did_what(api, party, referee_user):
    api.post(url(party, "fine"), {"side": "a", "category": "conduct", "reason": "ate"},
             format="json")
    events = api.get(url(party, "events")).json()
    assert events[0]["kind"] == "fine" and events[0]["actor"] == referee_user.username
    assert events[0]["reason"] == "ate" and "25" in events[0]["summary"]


@pytest.mark.parametrize(
    ("name", "body", "kind"),
    [
        ("out-of-turn", {"seat": "b1", "choice": "reshuffle"}, "out_of_turn"),
        ("false-pass", {"seat": "a2", "points": {"a": 0, "b": 0}}, "false_pass"),
        ("touched-tile", {"seat": "a2", "fits": False}, "touched_tile"),
        ("disqualify", {"side": "b", "scope": "party", "reason": "hid a tile"},
         "disqualification"),
    ],
)
def test_every_ruling_through_the_api(api, party, name, body, kind):
    response = api.post(url(party, name), body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["record"]["kind"] == kind
    assert Ruling.objects.get(party=party).created_by.username == "ref"


def test_no_show_through_the_api(api, party):
    Party.objects.filter(pk=party.pk).update(started_at=timezone.now() - timedelta(minutes=6))
    response = api.post(url(party, "no-show"), {"side": "a"}, format="json")
    assert response.status_code == 201
    assert response.json()["party"]["winner"] == {"side": "b", "seat": ""}


def test_correct_and_annul_a_deal(api, party):
    deal_id = api.post(url(party, "deal"), deal_body(), format="json").json()["record"]["id"]
    response = api.post(f"/api/v1/deals/{deal_id}/correct/",
                        {**deal_body(points={"a": 12, "b": 0}), "reason": "miscounted"},
                        format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["party"]["totals"]["points"]["a"] == 12
    response = api.post(f"/api/v1/deals/{deal_id}/annul/", {"reason": "replayed"},
                        format="json")
    assert response.json()["party"]["totals"]["points"]["a"] == 0
    event = party.events.get(kind="deal_corrected")
    assert event.data["before"]["points_a"] == 10 and event.data["after"]["points_a"] == 12


def test_cancel_a_penalty(api, party):
    penalty_id = api.post(url(party, "fine"), {"side": "a", "category": "signs"},
                          format="json").json()["record"]["id"]
    response = api.post(f"/api/v1/penalties/{penalty_id}/cancel/", {"reason": "mistake"},
                        format="json")
    assert response.status_code == 200
    assert response.json()["party"]["totals"]["points"] == {"a": 0, "b": 0}


def test_a_referee_corrects_only_his_own_records_the_chief_anyones(
    api, api_as, party, second_referee, chief_user
):
    deal_id = api.post(url(party, "deal"), deal_body(), format="json").json()["record"]["id"]
    body = {"reason": "wrong"}
    assert api_as(second_referee).post(f"/api/v1/deals/{deal_id}/annul/", body,
                                       format="json").status_code == 403
    assert api_as(chief_user).post(f"/api/v1/deals/{deal_id}/annul/", body,
                                   format="json").status_code == 200


def test_move_advice(api, party):
    response = api.post(url(party, "move-advice"),
                        {"hand": ["6-6", "0-3", "1-2"], "open_ends": [6, 3]}, format="json")
    assert response.json() == {"playable": [[6, 6], [0, 3]], "moves": 2, "seconds_allowed": 20,
                               "can_fish": False, "pass_is_false": True, "must_draw": False,
                               "seconds_after_draw": None,
                               "rule": "5 s for a single possible move, 20 s for several, 1 min "
                                       "for a move that makes a fish."}
    response = api.post(url(party, "move-advice"), {"hand": ["1-2"], "open_ends": [6, 3]},
                        format="json")
    assert response.json()["seconds_allowed"] == 0 and not response.json()["pass_is_false"]
    played = [[5, n] for n in range(6)] + [[6, 6]]
    response = api.post(url(party, "move-advice"),
                        {"hand": ["5-6"], "open_ends": [6, 5], "played": played},
                        format="json")
    assert response.json()["can_fish"] and response.json()["seconds_allowed"] == 60


def test_move_advice_refuses_impossible_tiles(api, party):
    response = api.post(url(party, "move-advice"), {"hand": ["3-9"], "open_ends": [3, 3]},
                        format="json")
    assert response.status_code == 400 and "hand" in response.json()


def test_tiles_preview(api, party):
    response = api.post(url(party, "tiles-preview"),
                        {"tiles": {"a1": ["0-1"], "b1": ["6-6"]}, "outcome": "fish"},
                        format="json")
    body = response.json()
    assert body["pips_by_side"] == {"a": 1, "b": 12} and body["side"] == "a"
    assert body["points"] == {"a": 13, "b": 0}


def test_overview_lists_the_round_with_alerts(api, party, make_party, tournament):
    waiting = make_party(table_number=2, round_number=party.round.number,
                         pair_a=tournament.pairs.order_by("id")[2],
                         pair_b=tournament.pairs.order_by("id")[3])
    Party.objects.filter(pk=party.pk).update(started_at=timezone.now() - timedelta(minutes=45))
    body = api.get(f"/api/v1/referee/tournaments/{tournament.pk}/overview/").json()
    assert (body["round"], body["round_number"]) == (party.round_id, party.round.number)
    rows = {row["id"]: row for row in body["parties"]}
    assert [a["code"] for a in rows[party.pk]["alerts"]] == ["time_expired"]
    assert [a["code"] for a in rows[waiting.pk]["alerts"]] == ["not_started"]
    assert rows[party.pk]["table_number"] == 1 and rows[party.pk]["clock"]["seconds_left"] < 0


def test_overview_of_a_table_referee_shows_his_tables(api_as, party, make_party, tournament,
                                                      table_referee):
    other = make_party(table_number=2, round_number=party.round.number,
                       pair_a=tournament.pairs.order_by("id")[2],
                       pair_b=tournament.pairs.order_by("id")[3])
    overview = f"/api/v1/referee/tournaments/{tournament.pk}/overview/"
    body = api_as(table_referee).get(overview).json()
    assert [row["id"] for row in body["parties"]] == [other.pk]


def test_organizer_assigns_referees_to_tables(api_as, organizer, tournament, make_user):
    make_user("newref")
    client = api_as(organizer)
    table = tournament.tables.get(number=3)
    response = client.post(f"/api/v1/referee/tournaments/{tournament.pk}/referees/",
                           {"username": "newref", "role": "referee", "tables": [table.pk]},
                           format="json")
    assert response.status_code == 201, response.json()
    role = TournamentRole.objects.get(user__username="newref")
    assert list(role.tables.all()) == [table]
    listed = client.get(f"/api/v1/referee/tournaments/{tournament.pk}/referees/").json()
    assert [r["username"] for r in listed] == ["newref"]
    assert client.delete(f"/api/v1/referee/roles/{role.pk}/").status_code == 204
    assert not TournamentRole.objects.filter(user__username="newref").exists()


def test_organizer_switches_to_the_udl_preset(api_as, organizer, tournament, party):
    client = api_as(organizer)
    endpoint = f"/api/v1/referee/tournaments/{tournament.pk}/referee-settings/"
    assert client.get(endpoint).json() == {"penalty_preset": "sport", "slow_play_points": 20}
    assert client.put(endpoint, {"penalty_preset": "udl"},
                      format="json").status_code == 200
    client.post(url(party, "warning"), {"side": "a", "category": "move_time"}, format="json")
    body = client.post(url(party, "warning"), {"side": "a", "category": "move_time"},
                       format="json").json()
    assert body["party"]["totals"]["points"] == {"a": 0, "b": 20}


def test_schema_documents_the_referee_api(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    for name in ("deal", "warning", "fine", "out-of-turn", "false-pass", "touched-tile",
                 "no-show", "disqualify", "start", "pause", "resume", "check-in",
                 "move-advice"):
        assert f"/api/v1/parties/{{id}}/{name}/" in paths
    assert "/api/v1/referee/tournaments/{id}/overview/" in paths
    deal = paths["/api/v1/parties/{id}/deal/"]["post"]
    assert any(p["name"] == "Idempotency-Key" for p in deal["parameters"])
