"""Every referee action refuses a referee of another tournament, a player and an anonymous user.

Each endpoint of the API and of the pages is tried by each of them, with data present that
could leak; the answer is 403 or 404 and nothing changes (no deal, penalty, ruling or event).
"""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from rest_framework.test import APIClient

from referee.services import give_fine
from scoring.models import Deal, PartyEvent, Penalty, Ruling, TournamentRole
from scoring.party.deals import record_deal

pytestmark = pytest.mark.django_db

PARTY_POSTS = {
    "start": {},
    "pause": {"reason": "x"},
    "pause-reason": {"reason": "x"},
    "resume": {},
    "time-up": {},
    "game-time-up": {},
    "finish": {},
    "check-in": {"side": "a"},
    "deal": {"outcome": "domino", "winner": "a", "points": {"a": 10, "b": 0}},
    "warning": {"side": "a", "category": "talking"},
    "fine": {"side": "a", "category": "signs"},
    "out-of-turn": {"seat": "a1", "choice": "reshuffle"},
    "false-pass": {"seat": "a1"},
    "touched-tile": {"seat": "a1", "fits": False},
    "no-show": {"side": "b"},
    "disqualify": {"side": "a", "scope": "tournament", "reason": "x"},
    "undo": {"record": "penalty", "id": 1},
    "move-advice": {"hand": ["1-2"], "open_ends": [1, 3]},
    "tiles-preview": {"tiles": {"a1": ["1-2"]}},
}


@pytest.fixture
def records(party, referee_user):
    """A deal and a fine of the party, so that corrections have something to act on."""
    deal = record_deal(party.pk, outcome="domino", winner="a", points={"a": 10, "b": 0},
                       actor=referee_user).record
    fine = give_fine(party.pk, side="b", category="signs", actor=referee_user).record
    return {"deal": deal, "fine": fine}


@pytest.fixture(params=["foreign_referee", "player", "anonymous", "other_table_referee"])
def outsider(request, other_tournament_referee, player_user, table_referee):
    return {
        "foreign_referee": other_tournament_referee,
        "player": player_user,
        "anonymous": None,
        "other_table_referee": table_referee,
    }[request.param]


def snapshot(party):
    return (
        Deal.objects.filter(party=party).count(),
        list(Penalty.objects.filter(party=party).values_list("pk", "cancelled")),
        Ruling.objects.filter(party=party).count(),
        PartyEvent.objects.filter(party=party).count(),
        party.__class__.objects.get(pk=party.pk).version,
        TournamentRole.objects.count(),
    )


def api_requests(party, records, tournament):
    deal, fine = records["deal"], records["fine"]
    # the party itself and its records are public as its public page is (test_party_records);
    # the event log and every action are its referees'
    requests = [("get", f"/api/v1/parties/{party.pk}/events/", None),
                ("get", f"/api/v1/referee/tournaments/{tournament.pk}/overview/", None),
                ("get", f"/api/v1/referee/tournaments/{tournament.pk}/referees/", None),
                ("post", f"/api/v1/referee/tournaments/{tournament.pk}/referees/",
                 {"username": "player", "role": "chief"}),
                ("get", f"/api/v1/referee/tournaments/{tournament.pk}/referee-settings/", None),
                ("put", f"/api/v1/referee/tournaments/{tournament.pk}/referee-settings/",
                 {"penalty_preset": "udl"}),
                ("post", f"/api/v1/deals/{deal.pk}/correct/",
                 {"outcome": "fish", "side": "b", "points": {"a": 0, "b": 5}, "reason": "x"}),
                ("post", f"/api/v1/deals/{deal.pk}/annul/", {"reason": "x"}),
                ("post", f"/api/v1/penalties/{fine.pk}/cancel/", {"reason": "x"})]
    requests += [("post", f"/api/v1/parties/{party.pk}/{name}/", body)
                 for name, body in PARTY_POSTS.items()]
    role = TournamentRole.objects.get(tournament=tournament, role="referee", user__username="ref")
    requests.append(("delete", f"/api/v1/referee/roles/{role.pk}/", None))
    return requests


def page_requests(party, records, tournament):
    deal, fine = records["deal"], records["fine"]
    posts = {name: {k: v for k, v in body.items() if not isinstance(v, dict | list)}
             for name, body in PARTY_POSTS.items()}
    requests = [("get", f"/referee/party/{party.pk}/", None),
                ("get", f"/referee/party/{party.pk}/status/", None),
                ("get", f"/referee/t/{tournament.slug}/", None),
                ("get", f"/referee/t/{tournament.slug}/referees/", None),
                ("post", f"/referee/t/{tournament.slug}/referees/",
                 {"username": "player", "role": "chief"}),
                ("get", f"/referee/deal/{deal.pk}/correct/", None),
                ("post", f"/referee/deal/{deal.pk}/correct/",
                 {"outcome": "fish", "winner": "b", "points_b": 5, "reason": "x"}),
                ("post", f"/referee/deal/{deal.pk}/annul/", {"reason": "x"}),
                ("post", f"/referee/penalty/{fine.pk}/cancel/", {"reason": "x"})]
    requests += [("post", f"/referee/party/{party.pk}/{name}/", body)
                 for name, body in posts.items() if name not in ("move-advice", "tiles-preview")]
    requests += [("post", f"/referee/party/{party.pk}/move-advice/", {"hand": "1-2"}),
                 ("post", f"/referee/party/{party.pk}/tiles-preview/", {"tiles_a1": "1-2"})]
    return requests


def test_outsiders_are_refused_every_api_endpoint(party, records, tournament, outsider):
    client = APIClient()
    if outsider is not None:
        client.force_authenticate(outsider)
    before = snapshot(party)
    for method, url, body in api_requests(party, records, tournament):
        response = getattr(client, method)(url, body, format="json")
        if outsider is not None and outsider.username == "table2-ref" and method == "get" and (
            "overview" in url
        ):
            assert response.status_code == 200  # his own tables only (tested elsewhere)
            continue
        assert response.status_code in (401, 403, 404), (method, url, response.status_code)
    assert snapshot(party) == before


def test_outsiders_are_refused_every_page(party, records, tournament, outsider):
    client = Client()
    if outsider is not None:
        client.force_login(outsider)
    before = snapshot(party)
    for method, url, body in page_requests(party, records, tournament):
        response = getattr(client, method)(url, body or {})
        if outsider is None and method == "get" and response.status_code == 302:
            assert response["Location"].startswith("/accounts/login/")
            continue
        if outsider is not None and outsider.username == "table2-ref" and url.endswith(
            f"/t/{tournament.slug}/"
        ):
            assert response.status_code == 200
            continue
        assert response.status_code in (403, 404), (method, url, response.status_code)
    assert snapshot(party) == before


def test_refusal_leaks_nothing_of_the_party(party, records, tournament, player_user):
    client = APIClient()
    client.force_authenticate(player_user)
    response = client.get(f"/api/v1/parties/{party.pk}/events/")
    assert response.status_code == 403
    assert "Иван" not in response.content.decode()


def _key(keyed: bool) -> dict[str, str]:
    """An Idempotency-Key header (the action then runs in one transaction, the party locked by
    the view) or none."""
    return {"HTTP_IDEMPOTENCY_KEY": uuid.uuid4().hex} if keyed else {}


@pytest.mark.parametrize("keyed", [False, True])
def test_hidden_tournament_is_404_for_outsiders(party, records, tournament, make_user, keyed):
    tournament.public = False
    tournament.save()
    client = APIClient()
    client.force_authenticate(make_user())
    assert client.get(f"/api/v1/parties/{party.pk}/").status_code == 404
    assert client.post(f"/api/v1/parties/{party.pk}/warning/",
                       {"side": "a", "category": "talking"}, format="json",
                       **_key(keyed)).status_code == 404
    assert client.post(f"/api/v1/parties/{party.pk + 1000}/warning/",
                       {"side": "a", "category": "talking"}, format="json",
                       **_key(keyed)).status_code == 404


@pytest.mark.parametrize("keyed", [False, True])
def test_referee_chief_and_organizer_may_act(party, referee_user, chief_user, organizer,
                                             table_referee, keyed):
    for user, allowed in ((referee_user, True), (chief_user, True), (organizer, True),
                          (table_referee, False)):
        client = APIClient()
        client.force_authenticate(user)
        before = party.penalties.count()
        response = client.post(f"/api/v1/parties/{party.pk}/warning/",
                               {"side": "a", "category": "other"}, format="json", **_key(keyed))
        assert (response.status_code == 201) is allowed, (user, response.status_code)
        assert party.penalties.count() == before + allowed  # a refusal writes nothing


CORRECTIONS = (
    ("/referee/deal/{deal}/correct/", "/api/v1/deals/{deal}/correct/"),
    ("/deal/{deal}/correct/", "/api/v1/deals/{deal}/correct/"),
    ("/referee/deal/{deal}/annul/", "/api/v1/deals/{deal}/annul/"),
    ("/deal/{deal}/annul/", "/api/v1/deals/{deal}/annul/"),
    ("/referee/penalty/{fine}/cancel/", "/api/v1/penalties/{fine}/cancel/"),
)


@pytest.mark.parametrize("page_url,api_url", CORRECTIONS)
def test_another_referee_of_the_party_may_not_change_what_the_recorder_entered(
        party, records, make_user, tournament, page_url, api_url):
    """Issue 14 (3): the pages refused nothing the API and desk refuse; now both answer 403."""
    other = make_user("ref-2")
    TournamentRole.objects.create(tournament=tournament, user=other, role="referee")
    ids = {"deal": records["deal"].pk, "fine": records["fine"].pk}
    body = {"outcome": "fish", "winner": "b", "points_b": 5, "reason": "x"}
    before = snapshot(party)
    page = Client()
    page.force_login(other)
    assert page.get(f"/referee/deal/{ids['deal']}/correct/").status_code == 403
    assert page.post(page_url.format(**ids), body).status_code == 403
    api = APIClient()
    api.force_authenticate(other)
    api_body = {"outcome": "fish", "side": "b", "points": {"a": 0, "b": 5}, "reason": "x"}
    assert api.post(api_url.format(**ids), api_body, format="json").status_code == 403
    assert snapshot(party) == before
    # the party's other actions stay his
    assert api.post(f"/api/v1/parties/{party.pk}/warning/", {"side": "a", "category": "other"},
                    format="json").status_code == 201


def test_the_recorder_and_the_chief_annul_on_the_page(party, records, referee_user,
                                                        chief_user):
    for user in (referee_user, chief_user):
        deal = record_deal(party.pk, outcome="domino", winner="a", points={"a": 10, "b": 0},
                           actor=referee_user).record
        client = Client()
        client.force_login(user)
        response = client.post(f"/deal/{deal.pk}/annul/", {"reason": "Ошибка"})
        assert response.status_code in (200, 302), (user, response.status_code)
        deal.refresh_from_db()
        assert deal.outcome == Deal.Outcome.ANNULLED, user
