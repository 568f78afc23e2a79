"""Issue #34: one player absent makes his pair a no-show (seed 001: "one or both players").

Check-in is kept per player (seat); a pair is present only once both its players are, so the
no-show ruling applies to a pair with one player missing when the regulations' wait is over.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from referee import services
from referee.tasks import flag_no_show
from scoring.models import Party, PartyDesk, PartyEvent

pytestmark = pytest.mark.django_db


def _url(party: Party, action: str = "") -> str:
    return f"/api/v1/parties/{party.pk}/" + (f"{action}/" if action else "")


def _started_minutes_ago(party: Party, minutes: int) -> None:
    Party.objects.filter(pk=party.pk).update(started_at=timezone.now() - timedelta(minutes=minutes))


def test_one_player_absent_is_a_no_show_through_the_api(api, party):
    """(rules.md S27, S10) a1, b1 and b2 checked in: a2 is absent, so a no-show for A succeeds
    and A forfeits: B gets the regulations' maximum (the target : 0)."""
    for seat in ("a1", "b1", "b2"):
        response = api.post(_url(party, "check-in"), {"seat": seat}, format="json")
        assert response.status_code == 200, response.json()
    check_in = api.get(_url(party)).json()["check_in"]
    assert (check_in["a"], check_in["b"]) == (False, True)
    assert check_in["seats"] == {"a1": True, "a2": False, "b1": True, "b2": True}
    _started_minutes_ago(party, 6)
    assert flag_no_show(party.pk) is True
    assert PartyDesk.objects.get(party=party).no_show_sides == "a"

    response = api.post(_url(party, "no-show"), {"side": "a"}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()["party"]
    assert body["winner"] == {"side": "b", "seat": ""}
    assert body["end_reason"] == "forfeit" and body["totals"]["points"] == {"a": 0, "b": 200}
    logged = PartyEvent.objects.filter(party=party, kind="check_in").order_by("seq")
    assert [event.data.get("seat") for event in logged] == ["a1", "b1", "b2"]


def test_a_pair_with_both_players_present_is_not_a_no_show(api, party):
    """(rules.md S27) Both players of B checked in one by one: B is present, a no-show for B
    is refused (400 naming the side); a player checked out again makes B absent."""
    for seat in ("b1", "b2"):
        api.post(_url(party, "check-in"), {"seat": seat}, format="json")
    _started_minutes_ago(party, 6)
    refused = api.post(_url(party, "no-show"), {"side": "b"}, format="json")
    assert refused.status_code == 400 and "side" in refused.json()
    api.post(_url(party, "check-in"), {"seat": "b2", "present": False}, format="json")
    assert api.get(_url(party)).json()["check_in"]["b"] is False
    assert api.post(_url(party, "no-show"), {"side": "b"}, format="json").status_code == 201


def test_a_side_checked_in_as_a_whole_marks_both_players(party):
    """(rules.md S27) Checking in a side marks each of its players (as before); a pair marked
    present before presence was kept per player counts both players present."""
    desk = services.check_in(party.pk, side="a")
    assert desk.present("a") and desk.present_seats.keys() == {"a1", "a2"}
    PartyDesk.objects.filter(party=party).update(present_seats={}, present_b=timezone.now())
    desk = services.check_in(party.pk, seat="b1", present=False)
    assert desk.seat_present("b2") and not desk.seat_present("b1") and not desk.present("b")


def test_the_desk_checks_in_each_player(client, referee_user, make_party):
    """(rules.md S27) The desk has a check-in button per player; one tap marks that player."""
    party = make_party()
    client.force_login(referee_user)
    page = client.get(reverse("referee:party", args=[party.pk])).content.decode()
    assert all(f'data-check-in="{seat}"' in page for seat in ("a1", "a2", "b1", "b2"))
    client.post(reverse("referee:action", args=[party.pk, "check-in"]),
                {"seat": "a2", "present": "true", "version": party.version})
    desk = PartyDesk.objects.get(party=party)
    assert desk.seat_present("a2") and not desk.seat_present("a1") and not desk.present("a")
