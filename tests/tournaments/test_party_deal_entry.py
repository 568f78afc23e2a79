"""One deal entry: the party page records a new deal through the desk's ``DealInput``.

Bad input is refused with the serializer's error naming its field and changes nothing; a good
deal is recorded exactly as the desk's own deal action records it on a twin party.
"""

from __future__ import annotations

import re

import pytest

from scoring.models import Deal, Party, PartyEvent

pytestmark = pytest.mark.django_db

FIELDS = ("number", "outcome", "winner", "went_out", "points_a", "points_b", "scores", "pips",
          "plays", "play_points", "led", "recorded_by_id", "note")


@pytest.fixture
def twin(make_party, party, referee_user, tournament):
    """A second started party of the same round, at table 2, for the desk's action."""
    from referee.services import start_party

    pairs = list(tournament.pairs.order_by("id"))
    other = make_party(pairs[2], pairs[3], table_number=2, round_number=party.round.number)
    start_party(other.pk, actor=referee_user)
    other.refresh_from_db()
    return other


def state(party):
    """The party's deals, events and version."""
    fresh = Party.objects.get(pk=party.pk)
    return (list(Deal.objects.filter(party=party).values()),
            PartyEvent.objects.filter(party=party).count(), fresh.version)


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"outcome": "domino", "winner": "a", "points_a": 200, "points_b": 0}, "points_a", "168"),
        ({"outcome": "fish", "pips_a1": -3, "pips_a2": 5, "pips_b1": 4, "pips_b2": 6},
         "pips a1", "greater than or equal to 0"),
        ({"outcome": "domino", "points_a": 30, "points_b": 0}, "seat",
         "needs the player who went out or the winning pair"),
        ({"outcome": "sideways", "winner": "a", "points_a": 10}, "outcome", "valid choice"),
    ],
)
def test_a_bad_new_deal_shows_the_serializers_field_error_and_changes_nothing(
    client, party, referee_user, data, field, message
):
    client.force_login(referee_user)
    before = state(party)
    response = client.post(party.get_absolute_url(),
                           {**data, "number": 1, "version": party.version})
    assert response.status_code == 400
    html = response.content.decode()
    errors = re.search(r'<ul class="errorlist" id="deal-errors">(.*?)</ul>', html, re.S)
    assert errors is not None, html
    assert f"<b>{field}</b>" in errors.group(1) and message in errors.group(1)
    assert 'name="outcome"' in html  # the form is shown again, beside its errors
    assert state(party) == before


def test_a_good_new_deal_is_recorded_as_the_desk_records_it(client, party, twin, referee_user):
    client.force_login(referee_user)
    data = {"outcome": "domino", "went_out": "a1", "pips_a1": 0, "pips_a2": 10,
            "pips_b1": 20, "pips_b2": 30, "number": 1}
    page = client.post(party.get_absolute_url(), {**data, "version": party.version})
    assert page.status_code == 302
    desk = client.post(f"/referee/party/{twin.pk}/deal/", {**data, "version": twin.version})
    assert desk.status_code == 302
    mine, theirs = Deal.objects.get(party=party), Deal.objects.get(party=twin)
    assert [getattr(mine, name) for name in FIELDS] == [getattr(theirs, name) for name in FIELDS]
    assert (mine.points_a, mine.points_b) == (60, 0)
    quick = {"outcome": "domino", "winner": "b", "points": "25", "number": 2}
    client.post(party.get_absolute_url(), {**quick, "version": state(party)[2]})
    client.post(f"/referee/party/{twin.pk}/deal/", {**quick, "version": state(twin)[2]})
    mine, theirs = Deal.objects.get(party=party, number=2), Deal.objects.get(party=twin, number=2)
    assert [getattr(mine, name) for name in FIELDS] == [getattr(theirs, name) for name in FIELDS]
    assert (mine.points_a, mine.points_b) == (0, 25)


def test_there_is_one_deal_validator(client, party, referee_user, monkeypatch):
    from referee import views as desk_views
    from referee.serializers import DealInput
    from scoring.signoff import forms

    assert not hasattr(forms, "DealForm")
    seen = []
    original = desk_views.run_page_form

    def spy(post, party, user, input_class, record=None):
        seen.append(input_class)
        return original(post, party, user, input_class, record)

    monkeypatch.setattr(desk_views, "run_page_form", spy)
    client.force_login(referee_user)
    data = {"outcome": "domino", "winner": "a", "points": "10"}
    client.post(party.get_absolute_url(), {**data, "number": 1})
    client.post(f"/referee/party/{party.pk}/deal/", {**data, "number": 2})
    assert seen == [DealInput, DealInput]
    assert Deal.objects.filter(party=party).count() == 2


def test_the_party_pages_event_log_names_the_pairs_as_the_desk_does(client, party, referee_user):
    """The log on the party page says who won by name, never "pair A"."""
    client.force_login(referee_user)
    quick = {"outcome": "domino", "winner": "b", "points": "25", "number": 1}
    client.post(party.get_absolute_url(), {**quick, "version": party.version})
    html = client.get(party.get_absolute_url()).content.decode()
    log = re.search(r'<ol class="events">(.*?)</ol>', html, re.S).group(1)
    assert party.pair_b.display_name in log and "pair B" not in log
