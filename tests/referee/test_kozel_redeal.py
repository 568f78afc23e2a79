"""Kozel's redeal (issue #34; seeds 000 and 002): a hand of five or more doubles, or six or
more tiles of one number, is dealt again.

The referee enters the hand's tiles (the rules check them) or confirms the reason; the ruling
is logged with the deal in play, whose number stays, and nothing is scored. Through the engine,
the API (with an Idempotency-Key), the desk's panel form and its offline queue, the event log,
the undo and the protocol.
"""

from __future__ import annotations

import pytest

from referee.services import rule_redeal
from scoring.core.errors import ServiceError
from scoring.models import Deal, Party, PartyEvent, Ruling, Tournament
from scoring.models.event_text import describe_event
from scoring.rules import RuleError, get_rule_set
from scoring.signoff.content import protocol_content
from tests.referee.test_rule_sets_desk import make_desk

KOZEL = get_rule_set("kozel")
FIVE_DOUBLES = [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (1, 5), (2, 6)]
SIX_THREES = [(0, 3), (1, 3), (2, 3), (3, 3), (3, 4), (3, 5), (1, 6)]
AS_DEALT = [(0, 0), (1, 1), (2, 2), (3, 3), (3, 4), (1, 5), (2, 6)]  # four doubles, five 3s


# -- the engine -----------------------------------------------------------------------------


def test_the_rules_deal_again_five_doubles_or_six_tiles_of_one_number():
    """(rules.md K2) Seed 000: five or more doubles, or six or more tiles of one number."""
    cfg = KOZEL.config()
    assert KOZEL.redeal(FIVE_DOUBLES, "", cfg) == "five_doubles"
    assert KOZEL.redeal(SIX_THREES, "", cfg) == "six_of_a_number"
    assert KOZEL.redeal(SIX_THREES, "six_of_a_number", cfg) == "six_of_a_number"
    assert KOZEL.redeal(None, "five_doubles", cfg) == "five_doubles"  # confirmed, no tiles
    assert KOZEL.redeal(FIVE_DOUBLES[:5], "", cfg) == "five_doubles"  # the offending tiles
    with pytest.raises(RuleError) as info:
        KOZEL.redeal(AS_DEALT, "", cfg)
    assert info.value.field == "hand"
    with pytest.raises(RuleError) as info:
        KOZEL.redeal(FIVE_DOUBLES, "six_of_a_number", cfg)  # the tiles show another reason
    assert info.value.field == "reason"
    with pytest.raises(RuleError) as info:
        KOZEL.redeal(None, "", cfg)
    assert info.value.field == "hand"
    with pytest.raises(RuleError) as info:
        KOZEL.redeal([*FIVE_DOUBLES, (5, 5)], "", cfg)  # more than the seven dealt
    assert info.value.field == "hand"
    with pytest.raises(RuleError) as info:
        KOZEL.redeal([(1, 1), (1, 1), (2, 2), (3, 3), (4, 4)], "", cfg)
    assert info.value.field == "hand"


@pytest.mark.parametrize("code", ["sport", "udl", "allfives", "draw", "block", "classic", "latin"])
def test_games_whose_rules_deal_no_hand_again_refuse_a_redeal(code):
    rule_set = get_rule_set(code)
    assert not rule_set.redeal_reasons
    with pytest.raises(RuleError) as info:
        rule_set.redeal(FIVE_DOUBLES, "", rule_set.config())
    assert info.value.field == "rule_set"


# -- the API --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_redeal_through_the_api_is_logged_keeps_the_deal_number_and_scores_nothing(make_user):
    """(rules.md K2) The API's redeal: the tiles checked, logged, no score, the deal stays."""
    desk = make_desk(make_user, "kozel")
    desk.deal(outcome="domino", went_out="a1", points={"b1": 5, "a2": 7, "b2": 20})
    before = desk.state()
    response = desk.api.post(
        desk.url("redeal"), {"seat": "b1", "hand": ["0-0", "1-1", "2-2", "3-3", [4, 4]]},
        format="json", HTTP_IDEMPOTENCY_KEY="redeal-1",
    )
    assert response.status_code == 201, response.json()
    record = response.json()["record"]
    assert record["type"] == "ruling" and record["kind"] == "redeal"
    assert record["seat"] == "b1" and record["deal_number"] == 2
    assert record["details"]["redeal_reason"] == "five_doubles"
    assert record["details"]["hand"] == [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4]]
    after = desk.state()
    assert after["deal_in_play"] == before["deal_in_play"] == 2
    assert after["totals"] == before["totals"]
    assert Deal.objects.filter(party_id=desk.party_id).count() == 1
    event = PartyEvent.objects.filter(party_id=desk.party_id).order_by("-seq").first()
    assert event.kind == "ruling_redeal" and event.data["redeal_reason"] == "five_doubles"
    assert describe_event(event.kind, event.data) == (
        "Deal 2 dealt again: Ольга Морозова held five or more doubles"
    )

    again = desk.api.post(
        desk.url("redeal"), {"seat": "b1", "hand": ["0-0", "1-1", "2-2", "3-3", [4, 4]]},
        format="json", HTTP_IDEMPOTENCY_KEY="redeal-1",
    )
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert Ruling.objects.filter(party_id=desk.party_id, kind="redeal").count() == 1


@pytest.mark.django_db
def test_the_api_refuses_a_hand_played_as_dealt_and_a_redeal_without_tiles_or_reason(make_user):
    desk = make_desk(make_user, "kozel")
    hand = ["0-0", "1-1", "2-2", "3-3", "3-4", "1-5", "2-6"]
    refused = desk.post("redeal", {"seat": "a1", "hand": hand})
    assert refused.status_code == 400 and "hand" in refused.json()
    assert desk.post("redeal", {"seat": "a1"}).status_code == 400
    assert desk.post("redeal", {"hand": FIVE_DOUBLES}).json().keys() == {"seat"}
    confirmed = desk.post("redeal", {"seat": "a1", "redeal_reason": "six_of_a_number"})
    assert confirmed.status_code == 201, confirmed.json()
    assert confirmed.json()["record"]["details"] == {"redeal_reason": "six_of_a_number"}
    assert Ruling.objects.filter(party_id=desk.party_id).count() == 1


@pytest.mark.django_db
def test_a_game_without_a_redeal_refuses_it_and_its_desk_offers_none(make_user, client):
    desk = make_desk(make_user, "sport")
    refused = desk.post("redeal", {"seat": "a1", "redeal_reason": "five_doubles"})
    assert refused.status_code == 400 and "party" in refused.json()
    client.force_login(desk.referee)
    assert 'id="redeal"' not in client.get(f"/referee/party/{desk.party_id}/").content.decode()


@pytest.mark.django_db
def test_a_redeal_needs_a_running_party_and_a_seated_player(make_user):
    desk = make_desk(make_user, "kozel", players=3)
    with pytest.raises(ServiceError) as info:
        rule_redeal(desk.party_id, seat="b2", redeal_reason="five_doubles", actor=desk.referee)
    assert info.value.field == "seat"
    Party.objects.filter(pk=desk.party_id).update(status=Party.Status.FINISHED)
    with pytest.raises(ServiceError) as info:
        rule_redeal(desk.party_id, seat="a1", redeal_reason="five_doubles", actor=desk.referee)
    assert info.value.field == "party"


# -- the desk -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_desk_redeals_from_the_ticked_tiles_in_the_rulings_panel(make_user, client):
    """(rules.md K2) The desk's redeal form: the ticked tiles, the log, the deal stays."""
    desk = make_desk(make_user, "kozel")
    client.force_login(desk.referee)
    screen = client.get(f"/referee/party/{desk.party_id}/").content.decode()
    assert 'id="redeal"' in screen and 'name="redeal_reason" value="five_doubles"' in screen
    party = desk.party
    html = client.post(
        f"/referee/party/{desk.party_id}/redeal/",
        {"seat": "a2", "hand": ["0-3", "1-3", "2-3", "3-3", "3-4", "3-5"],
         "redeal_reason": "", "version": party.version, "client_id": "redeal-form"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "Deal 1 dealt again" in html and "six or more tiles of one number" in html
    assert "<h2>Deal 1</h2>" in html  # the deal in play keeps its number
    assert "<strong>Redeal</strong>" in html  # the rulings list, with its reason
    assert 'id="btn-undo"' in html
    ruling = Ruling.objects.get(party_id=desk.party_id)
    assert (ruling.kind, ruling.seat, ruling.deal_number) == ("redeal", "a2", 1)

    refused = client.post(
        f"/referee/party/{desk.party_id}/redeal/",
        {"seat": "a2", "hand": ["0-0", "1-1"], "version": desk.party.version},
        HTTP_HX_REQUEST="true",
    )
    assert refused.status_code == 400
    assert "played as dealt" in refused.content.decode()
    assert Ruling.objects.filter(party_id=desk.party_id).count() == 1


@pytest.mark.django_db
def test_the_offline_queue_sends_a_redeal_once_per_key(make_user, client):
    desk = make_desk(make_user, "kozel")
    client.force_login(desk.referee)
    body = {"seat": "b2", "redeal_reason": "five_doubles", "version": desk.party.version}
    url = f"/referee/party/{desk.party_id}/redeal/"
    first = client.post(url, body, HTTP_ACCEPT="application/json", HTTP_IDEMPOTENCY_KEY="q-1")
    again = client.post(url, body, HTTP_ACCEPT="application/json", HTTP_IDEMPOTENCY_KEY="q-1")
    data = first.json()
    assert data["ok"] is True and data["record"]["type"] == "ruling"
    assert data["rebase"]["number"] == 1  # the deal in play is still deal 1
    assert "dealt again" in data["done"]
    assert again["Idempotent-Replayed"] == "true"
    assert Ruling.objects.get(party_id=desk.party_id).kind == "redeal"


@pytest.mark.django_db
def test_a_redeal_can_be_undone_and_shows_on_the_protocol(make_user):
    desk = make_desk(make_user, "kozel")
    made = desk.post("redeal", {"seat": "a1", "hand": FIVE_DOUBLES}).json()
    undone = desk.post("undo", {"record": "ruling", "id": made["record"]["id"],
                                "version": made["party"]["version"]})
    assert undone.status_code == 200, undone.json()
    assert Ruling.objects.get(pk=made["record"]["id"]).details["undone"] is True
    desk.post("redeal", {"seat": "b1", "redeal_reason": "six_of_a_number"})
    Tournament.objects.filter(pk=desk.party.round.tournament_id).update(language="en")
    rows = [row.kind for row in protocol_content(desk.party).penalties]
    assert rows == ["Redeal · five or more doubles · undone",
                    "Redeal · six or more tiles of one number"]
