"""Public standings, draw and hall answer conditional GETs: 304 while no result changes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Party
from scoring.party.deals import record_deal
from tests.tournaments.play import DOMINO
from tests.tournaments.test_public_pages import played  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db

PAGES = ("standings", "current_draw", "hall")


@pytest.fixture(autouse=True)
def _no_version_cache(settings):
    settings.PUBLIC_ETAG_VERSION_SECONDS = 0  # each request reads the results version


def _url(tournament, name):
    return reverse(f"tournaments:{name}", args=[tournament.slug])


@pytest.mark.parametrize("name", PAGES)
def test_unchanged_page_answers_304_with_no_body(client, played, name):  # noqa: F811
    first = client.get(_url(played, name))
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('"')
    again = client.get(_url(played, name), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    assert client.get(_url(played, name), HTTP_IF_NONE_MATCH='"other"').status_code == 200


@pytest.mark.parametrize("name", PAGES)
def test_a_recorded_deal_changes_the_etag(client, played, name):  # noqa: F811
    etag = client.get(_url(played, name))["ETag"]
    party = Party.objects.filter(round__tournament=played, round__number=2).first()
    record_deal(party.pk, outcome="domino", **DOMINO["b"])
    after = client.get(_url(played, name), HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200 and after["ETag"] != etag


def test_etag_varies_with_language_and_fragment(client, played):  # noqa: F811
    url = _url(played, "standings")
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    russian = client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
    assert english["ETag"] != russian["ETag"]
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="ru",
                      HTTP_IF_NONE_MATCH=english["ETag"]).status_code == 200
    client.cookies["django_language"] = "ru"
    by_cookie = client.get(url)
    assert by_cookie["ETag"] == russian["ETag"] and "Accept-Language" in by_cookie["Vary"]
    fragment = client.get(url, HTTP_HX_REQUEST="true")
    assert fragment["ETag"] != by_cookie["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=by_cookie["ETag"],
                      HTTP_HX_REQUEST="true").status_code == 200


def test_hall_running_clocks_are_always_answered_in_full(client, played):  # noqa: F811
    url = _url(played, "hall") + "?panel=running-1"
    response = client.get(url)
    assert response.status_code == 200 and not response.has_header("ETag")


def test_a_poll_within_the_version_time_costs_no_query(
    client, played, settings, django_assert_num_queries  # noqa: F811
):
    settings.PUBLIC_ETAG_VERSION_SECONDS = 30
    url = _url(played, "standings")
    etag = client.get(url)["ETag"]
    with django_assert_num_queries(0):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    party = Party.objects.filter(round__tournament=played, round__number=2).first()
    record_deal(party.pk, outcome="domino", **DOMINO["b"])
    from django.core.cache import cache

    cache.clear()  # the version time is over
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


# -- the spectator's poll: answered before the session, the user and the view ---------------


def test_an_anonymous_poll_is_answered_by_the_middleware_from_the_cache(
    client, played, settings  # noqa: F811
):
    from django.test import RequestFactory

    from tournaments.public.conditional import PublicNotModifiedMiddleware

    settings.PUBLIC_ETAG_VERSION_SECONDS = 30
    url = _url(played, "standings")
    etag = client.get(url)["ETag"]

    def the_stack(request):
        raise AssertionError("the poll went past the middleware")

    middleware = PublicNotModifiedMiddleware(the_stack)
    answer = middleware(RequestFactory().get(url, HTTP_IF_NONE_MATCH=etag))
    assert answer.status_code == 304 and answer["ETag"] == etag
    assert "no-cache" in answer["Cache-Control"] and "private" in answer["Cache-Control"]
    assert {"Accept-Language", "Cookie", "HX-Request"} <= {
        v.strip() for v in answer["Vary"].split(",")}
    # another language, the htmx fragment, a running clock's panel: not this ETag's answer
    for headers, address in (({"HTTP_ACCEPT_LANGUAGE": "ru"}, url),
                             ({"HTTP_HX_REQUEST": "true"}, url),
                             ({}, _url(played, "hall") + "?panel=running-1")):
        request = RequestFactory().get(address, HTTP_IF_NONE_MATCH=etag, **headers)
        with pytest.raises(AssertionError, match="past the middleware"):
            middleware(request)


def test_a_poll_through_the_whole_stack_costs_no_query_and_sets_no_cookie(
    client, played, settings, django_assert_num_queries  # noqa: F811
):
    settings.PUBLIC_ETAG_VERSION_SECONDS = 30
    for name in PAGES:
        url = _url(played, name)
        etag = client.get(url)["ETag"]
        with django_assert_num_queries(0):
            again = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert again.status_code == 304 and again["ETag"] == etag and not again.cookies
        assert again.has_header("X-Request-ID")


def test_a_logged_in_visitor_polls_through_the_view_with_his_own_etag(
    client, played, settings, make_user  # noqa: F811
):
    settings.PUBLIC_ETAG_VERSION_SECONDS = 30
    url = _url(played, "standings")
    anonymous = client.get(url)["ETag"]
    client.force_login(make_user())
    mine = client.get(url)
    assert mine.status_code == 200 and mine["ETag"] != anonymous
    assert client.get(url, HTTP_IF_NONE_MATCH=anonymous).status_code == 200
    assert client.get(url, HTTP_IF_NONE_MATCH=mine["ETag"]).status_code == 304
