"""My tables and the party screens offline, server side: what the pages carry for the service
worker (markers, the server's time, the copy's note) and what the worker keeps."""

from __future__ import annotations

import re

import pytest
from django.templatetags.static import static

from referee.offline import SHELL
from scoring.models import Round

pytestmark = pytest.mark.django_db

MY_TABLES = "/referee/tables/"


@pytest.fixture
def ref_client(client, referee_user):
    client.force_login(referee_user)
    return client


@pytest.fixture
def live_round(party, make_party):
    """Round 1 in play: table 1 started, table 2 waiting."""
    pairs = list(party.round.tournament.pairs.order_by("id"))
    other = make_party(pairs[2], pairs[3], table_number=2, round_number=party.round.number)
    Round.objects.filter(pk=party.round_id).update(status=Round.Status.IN_PROGRESS)
    return party, other


def test_my_tables_asks_the_worker_to_keep_it_and_its_party_screens(ref_client, live_round):
    html = ref_client.get(MY_TABLES).content.decode()
    assert 'id="tables-offline"' in html and 'data-sw="/referee/sw.js"' in html
    assert static("js/offline-pages.js") in html
    # The list between the markers the worker splices each refresh into.
    start, end = html.index("<!--my-tables-->"), html.index("<!--/my-tables-->")
    kept = html[start:end]
    assert kept.startswith('<!--my-tables--><div id="my-tables" data-server-at="')
    for party in live_round:
        assert f'href="/referee/party/{party.pk}/"' in kept
    assert "<script>" not in html and " style=" not in html


def test_the_refreshed_list_carries_the_servers_time(ref_client, live_round):
    html = ref_client.get(MY_TABLES, HTTP_HX_REQUEST="true").content.decode()
    assert re.match(r'<div id="my-tables" data-server-at="\d{13}"', html)


@pytest.mark.parametrize("url", [MY_TABLES, "party"])
def test_a_page_the_device_keeps_has_the_copys_note_hidden(ref_client, live_round, url):
    if url == "party":
        url = f"/referee/party/{live_round[0].pk}/"
    html = ref_client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    note = re.search(r'<p id="from-cache"[^>]*>[^<]*</p>', html)
    assert note is not None and " hidden " in note.group(0)
    assert "Копия на этом устройстве: нет связи с сервером." in note.group(0)
    assert 'data-t-as-of="Копия на этом устройстве, состояние на {time}' in note.group(0)
    assert static("js/offline-pages.js") in html


def test_the_worker_keeps_my_tables_and_what_its_pages_need(client):
    body = client.get("/referee/sw.js").content.decode()
    assert 'const TABLES_PAGE = SCOPE + "tables/";' in body
    assert '"keep-tables"' in body and '"tables-kept"' in body
    for name in SHELL:
        assert f'"{static(name)}"' in body, name
    for name in ("js/offline-pages.js", "js/desk-confirm.js", "css/desk-confirm.css"):
        assert name in SHELL
