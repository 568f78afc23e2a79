"""The desk's offline queue, server side: JSON answers of the page actions, Idempotency-Key,
versions rebased along the queue, conflicts, and the service worker."""

from __future__ import annotations

import pytest
from django.templatetags.static import static
from django.test import Client

from scoring.models import Deal, IdempotencyKey, Party, PartyEvent, Penalty

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def ref_client(client, referee_user):
    client.force_login(referee_user)
    return client


def action(party, name):
    return f"/referee/party/{party.pk}/{name}/"


def post(client, party, name, body, key=None, **headers):
    extra = {**JSON, **headers}
    if key:
        extra["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(action(party, name), body, **extra)


def deal(number, version, points="10", client_id=None, winner="a"):
    body = {"outcome": "domino", "winner": winner, "points": points, "number": number,
            "version": version, "client_id": client_id or f"deal-{number}-{points}"}
    return {key: value for key, value in body.items() if value is not None}


def test_a_queued_deal_is_answered_with_json_and_the_next_version(ref_client, party):
    response = post(ref_client, party, "deal", deal(1, party.version), key="k1")
    data = response.json()
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert data["ok"] is True and data["conflict"] is False and data["error"] == ""
    assert data["record"]["type"] == "deal" and data["record"]["number"] == 1
    assert data["rebase"] == {"version": party.version + 1, "number": 2}
    assert "Deal 1" in data["done"]
    assert isinstance(data["server_time"], int) and "panel" not in data
    assert Party.objects.get(pk=party.pk).version == party.version + 1


def test_the_panel_comes_with_the_answer_when_asked(ref_client, party):
    response = post(ref_client, party, "deal", deal(1, party.version), key="k1",
                    HTTP_X_DESK_PANEL="1")
    panel = response.json()["panel"]
    assert panel.startswith('<div id="panel"') and "ref-flash ok" in panel and "Deal 1" in panel


def test_a_retried_key_gets_the_stored_answer_and_makes_nothing_twice(ref_client, party):
    first = post(ref_client, party, "deal", deal(1, party.version), key="same")
    again = post(ref_client, party, "deal", deal(1, party.version), key="same")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json()["record"] == first.json()["record"]
    assert again.json()["rebase"] == first.json()["rebase"]
    assert Deal.objects.filter(party=party).count() == 1
    other = post(ref_client, party, "deal", deal(2, party.version + 1), key="same")
    assert other.status_code == 422 and other.json()["ok"] is False
    assert Deal.objects.filter(party=party).count() == 1


def test_the_csrf_token_is_not_part_of_the_request_a_key_stands_for(ref_client, party):
    body = deal(1, party.version)
    post(ref_client, party, "deal", {**body, "csrfmiddlewaretoken": "a" * 64}, key="tok")
    again = post(ref_client, party, "deal", {**body, "csrfmiddlewaretoken": "b" * 64}, key="tok")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"


def test_a_queue_sent_with_the_versions_it_was_answered_never_conflicts(ref_client, party):
    version, number = party.version, 1
    for points in ("10", "20", "30"):
        data = post(ref_client, party, "deal", deal(number, version, points), key=points).json()
        assert data["ok"], data
        version, number = data["rebase"]["version"], data["rebase"]["number"]
    warning = {"category": "talking", "side": "b", "version": version, "client_id": "w1"}
    data = post(ref_client, party, "warning", warning, key="w1").json()
    assert data["ok"] and data["record"]["type"] == "penalty"
    assert list(Deal.objects.filter(party=party).order_by("number")
                .values_list("number", "points_a")) == [(1, 10), (2, 20), (3, 30)]
    assert Penalty.objects.filter(party=party).count() == 1


def test_a_stale_version_is_a_conflict_with_the_servers_state_and_is_not_stored(
    ref_client, party
):
    post(ref_client, party, "deal", deal(1, party.version, client_id="other-device"))
    response = post(ref_client, party, "deal", deal(1, party.version, "25"), key="stale",
                    HTTP_X_DESK_PANEL="1")
    data = response.json()
    assert response.status_code == 409 and data["ok"] is False and data["conflict"] is True
    assert "changed by someone else" in data["error"]
    assert data["rebase"] == {"version": party.version + 1, "number": 2}
    assert data["latest"].startswith("Deal 1") and data["latest"].endswith(" · ref")
    assert "ref-flash" not in data["panel"] and "Deal 1" in data["panel"]
    assert not IdempotencyKey.objects.filter(key="stale").exists()
    # Re-applied on the server's state (a new key, the server's version and number): recorded.
    body = deal(2, data["rebase"]["version"], "25", client_id="deal-1-25")
    assert post(ref_client, party, "deal", body, key="again").json()["ok"]
    assert list(Deal.objects.filter(party=party).order_by("number")
                .values_list("client_id", flat=True)) == ["other-device", "deal-1-25"]


def test_a_deal_number_taken_is_a_conflict_too(ref_client, party):
    post(ref_client, party, "deal", deal(1, None, client_id="other-device"))
    body = deal(1, None, "25")
    data = post(ref_client, party, "deal", body, key="taken").json()
    assert data["conflict"] is True and data["errors"].keys() == {"number"}


def test_a_refused_action_is_no_conflict_and_its_answer_is_kept(ref_client, party):
    body = {"outcome": "domino", "version": party.version, "client_id": "bad"}
    first = post(ref_client, party, "deal", body, key="bad")
    assert first.status_code == 400
    assert first.json()["ok"] is False and first.json()["conflict"] is False
    again = post(ref_client, party, "deal", body, key="bad")
    assert again.status_code == 400 and again["Idempotent-Replayed"] == "true"
    assert Deal.objects.filter(party=party).count() == 0


def test_clock_actions_replayed_by_key_act_once(ref_client, party):
    pause = {"reason": "Dispute", "version": party.version}
    for _ in range(2):
        assert post(ref_client, party, "pause", pause, key="p").json()["ok"]
    resume = {"version": party.version + 1}
    for _ in range(2):
        assert post(ref_client, party, "resume", resume, key="r").json()["ok"]
    kinds = list(PartyEvent.objects.filter(party=party).values_list("kind", flat=True))
    assert kinds.count("clock_paused") == 1 and kinds.count("clock_resumed") == 1


def test_without_json_the_page_answers_as_before(ref_client, party):
    response = ref_client.post(action(party, "deal"), deal(1, party.version),
                               HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response.content.decode().startswith('<div id="panel"')


def test_the_panel_alone_for_htmx_and_the_screen_carries_the_queue(ref_client, party):
    fragment = ref_client.get(f"/referee/party/{party.pk}/", HTTP_HX_REQUEST="true")
    assert fragment.content.decode().startswith('<div id="panel"')
    assert "HX-Request" in fragment["Vary"]
    html = ref_client.get(f"/referee/party/{party.pk}/").content.decode()
    for part in ('id="desk-offline"', 'id="desk-sync"', "data-server-at=", "js/desk-offline.js",
                 'data-sw="/referee/sw.js"', "css/desk-offline.css"):
        assert part in html, part
    assert "<script>" not in html and " style=" not in html


def test_the_service_worker_covers_the_referee_screens(client):
    response = client.get("/referee/sw.js")
    body = response.content.decode()
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/referee/"
    assert response["Cache-Control"] == "no-cache"
    for name in ("css/app.css", "css/desk-offline.css", "js/htmx.min.js", "js/app.js",
                 "js/desk-offline.js"):
        assert f'"{static(name)}"' in body, name
    assert 'const SHELL_CACHE = "desk-shell-' in body and "{%" not in body


def test_the_page_csp_lets_the_worker_and_the_queue_run(ref_client, party):
    csp = ref_client.get(f"/referee/party/{party.pk}/")["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "connect-src 'self'" in csp
    assert "worker-src" not in csp or "worker-src 'self'" in csp


def test_another_users_key_is_his_own(ref_client, party, chief_user):
    post(ref_client, party, "deal", deal(1, party.version), key="shared")
    chief = Client()
    chief.force_login(chief_user)
    data = post(chief, party, "deal", deal(2, party.version + 1, client_id="chief"),
                key="shared").json()
    assert data["ok"] and data["record"]["number"] == 2


def test_a_queued_warning_that_became_a_fine_waits_for_the_referees_confirmation(
    ref_client, party
):
    """Two warnings of a kind tapped offline: the second is a fine on the server, so it asks."""
    first = {"category": "talking", "side": "a", "version": party.version, "client_id": "w1"}
    assert post(ref_client, party, "warning", first, key="w1").json()["ok"]
    second = {"category": "talking", "side": "a", "version": party.version + 1,
              "client_id": "w2"}
    asked = post(ref_client, party, "warning", second, key="w2")
    data = asked.json()
    assert asked.status_code == 409 and asked["X-Confirmation-Required"] == "1"
    assert data["ok"] is False and data["conflict"] is False
    assert "fine" in data["confirm"].lower() and data["error"] == data["confirm"]
    assert data["rebase"]["version"] == party.version + 1
    assert Penalty.objects.filter(party=party).count() == 1  # nothing done, nothing stored
    assert not IdempotencyKey.objects.filter(key="w2").exists()
    confirmed = post(ref_client, party, "warning", {**second, "confirmed": "1"}, key="w2")
    assert confirmed.status_code == 200 and confirmed.json()["ok"] is True
    fines = Penalty.objects.filter(party=party, kind=Penalty.Kind.FINE)
    assert fines.count() == 1 and fines.get().client_id == "w2"
    again = post(ref_client, party, "warning", {**second, "confirmed": "1"}, key="w2")
    assert again["Idempotent-Replayed"] == "true" and fines.count() == 1


def test_every_answer_names_the_partys_latest_event(ref_client, party):
    data = post(ref_client, party, "deal", deal(1, party.version), key="seq1").json()
    latest = PartyEvent.objects.filter(party=party).order_by("-seq").first()
    assert data["seq"] == latest.seq and latest.kind == "deal_recorded"


def test_a_conflict_lists_the_servers_changes_since_the_device_last_synced(
    ref_client, party, chief_user
):
    known = PartyEvent.objects.filter(party=party).order_by("-seq").first().seq
    chief = Client()
    chief.force_login(chief_user)
    post(chief, party, "deal", deal(1, party.version, "40", client_id="other", winner="b"))
    post(chief, party, "warning", {"category": "talking", "side": "a",
                                   "version": party.version + 1, "client_id": "w-other"})
    data = post(ref_client, party, "deal", deal(1, party.version, "15"), key="late",
                HTTP_X_DESK_SINCE=str(known)).json()
    assert data["conflict"] is True
    since = data["since"]
    assert [change["kind"] for change in since] == ["deal_recorded", "warning"]
    assert [change["deal"] for change in since] == [True, False]
    assert since[0]["text"].startswith("Deal 1") and "40" in since[0]["text"]
    assert since[1]["text"] == "Warning to Иван Петров / Сергей Смирнов: Talking"
    assert {change["by"] for change in since} == {"chief"}
    assert all(change["seq"] > known and change["at"] for change in since)
    assert data["seq"] == since[-1]["seq"]


def test_a_conflict_without_the_devices_last_event_names_the_latest_change(ref_client, party):
    post(ref_client, party, "deal", deal(1, party.version, client_id="other-device"))
    data = post(ref_client, party, "deal", deal(1, party.version, "25"), key="old").json()
    assert data["conflict"] is True
    assert [change["kind"] for change in data["since"]] == ["deal_recorded"]


def test_a_refusal_is_not_a_conflict_and_lists_nothing(ref_client, party):
    data = post(ref_client, party, "deal", {"outcome": "domino", "version": party.version,
                                            "number": 1}, key="no", HTTP_X_DESK_SINCE="1").json()
    assert data["conflict"] is False and data["since"] == []
    assert data["by_field"] and data["by_field"][0]["fields"][0] == "winner"
