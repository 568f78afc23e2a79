"""Issue #13 item 7 on the desk and the API: the helper follows the party's rule set."""

from __future__ import annotations

import pytest

from tests.referee.test_rule_sets_desk import make_desk

pytestmark = pytest.mark.django_db


def _panel(client, desk):
    client.force_login(desk.referee)
    return client.get(f"/referee/party/{desk.party_id}/").content.decode()


def test_udl_api_advice_is_15_seconds_and_a_draw_past_seven_tiles(make_user):
    """(rules.md U11) UDL API advice is 15 seconds and a draw past seven tiles."""
    udl = make_desk(make_user, "udl")
    hand = ["0-1", "0-2", "0-3", "1-1", "1-2", "1-3", "2-2", "2-3"]
    answer = udl.post("move-advice", {"hand": hand, "open_ends": [4, 5], "played": ["4-5"]})
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert (body["must_draw"], body["seconds_after_draw"], body["pass_is_false"]) == (
        True, 15, False)
    spinner = udl.post("move-advice", {"hand": ["0-4"], "open_ends": [2, 3, 4, 5],
                                       "played": ["5-5", "2-5", "3-5", "4-5"]}).json()
    assert (spinner["moves"], spinner["seconds_allowed"]) == (1, 15)


def test_udl_desk_shows_the_spinner_and_the_draw(client, make_user):
    udl = make_desk(make_user, "udl")
    html = _panel(client, udl)
    assert 'id="helper"' in html and 'name="end_4"' in html and 'name="boneyard_empty"' in html
    fragment = client.post(f"/referee/party/{udl.party_id}/move-advice/", {
        "hand": ["0-1"], "end_1": "4", "end_2": "5", "played": ["4-5"], "seat": "b1",
    }).content.decode()
    assert "draws from the boneyard" in fragment and "15 s once a playable tile" in fragment
    assert "False pass" not in fragment


def test_a_game_without_a_time_per_move_has_no_helper_section(client, make_user):
    desk = make_desk(make_user, "allfives")
    assert 'id="helper"' not in _panel(client, desk)
    answer = desk.post("move-advice", {"hand": ["1-2"], "open_ends": [1, 3]})
    assert answer.status_code == 400 and "rule_set" in answer.json()


def test_sport_desk_keeps_its_helper_without_the_spinner(client, make_user):
    html = _panel(client, make_desk(make_user, "sport"))
    assert 'id="helper"' in html and 'name="end_3"' not in html


@pytest.mark.parametrize("code", ["allfives", "udl"])
def test_the_desk_counts_the_open_ends_of_a_play(client, make_user, code):
    desk = make_desk(make_user, code)
    assert 'id="ends-count"' in _panel(client, desk)
    page = f"/referee/party/{desk.party_id}/ends-count/"
    html = client.post(page, {"end_1": "3", "end_2": "6", "double_2": "1"}).content.decode()
    assert "add up to 15: the play scores 15" in html
    html = client.post(page, {"end_1": "5", "double_1": "1", "end_2": "0", "double_2": "1"}
                       ).content.decode()
    assert "the play scores 10" in html
    assert "no score" in client.post(page, {"end_1": "3", "end_2": "6"}).content.decode()


def test_a_game_without_plays_has_no_open_end_count(client, make_user):
    assert 'id="ends-count"' not in _panel(client, make_desk(make_user, "sport"))
