"""A public page's ETag follows its entrants: a name corrected, a pair withdrawn or a table
renamed between results is answered 200 with the change, never 304 with the old page."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse

from scoring import live
from scoring.models import Pair, Player, Table, Tournament
from tests.tournaments.test_public_pages import played  # noqa: F401 - the fixture
from tournaments.registration.services import update_member, withdraw_pair

pytestmark = pytest.mark.django_db

PAGES = ("standings", "current_draw", "hall")


@pytest.fixture(autouse=True)
def _no_version_cache(settings):
    settings.PUBLIC_ETAG_VERSION_SECONDS = 0  # each request computes its ETag


@pytest.fixture
def sent(monkeypatch):
    """The live events sent, as (channel, data)."""
    out: list[tuple[str, dict]] = []
    monkeypatch.setattr(live, "send", lambda channels, data: out.extend(
        (channel, data) for channel in channels))
    return out


def _url(tournament, name):
    return reverse(f"tournaments:{name}", args=[tournament.slug])


def _version(tournament):
    return Tournament.objects.get(pk=tournament.pk).entrants_version


@pytest.mark.parametrize("name", PAGES)
def test_a_corrected_name_is_answered_in_full_with_a_new_etag(
        client, played, name, django_capture_on_commit_callbacks):  # noqa: F811
    url = _url(played, name)
    first = client.get(url)
    player = Player.objects.filter(tournament=played, name="Иван Петров").get()
    assert first.status_code == 200 and "Иван Петров" in first.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        update_member(player, name="Иван Петрович Сидоров-Задунайский")
    after = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    assert "Иван Петрович Сидоров-Задунайский" in after.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=after["ETag"]).status_code == 304


def test_a_withdrawn_pair_and_a_renamed_table_change_the_etag(
        client, played, django_capture_on_commit_callbacks):  # noqa: F811
    url = _url(played, "current_draw")
    etag = client.get(url)["ETag"]
    pair = Pair.objects.filter(tournament=played, formed_in_round__isnull=True).first()
    with django_capture_on_commit_callbacks(execute=True):
        withdraw_pair(pair.pk)
    withdrawn = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert withdrawn.status_code == 200 and withdrawn["ETag"] != etag
    table = Table.objects.filter(tournament=played).order_by("number").first()
    with django_capture_on_commit_callbacks(execute=True):
        update_member(table, label="Сцена")
    relabelled = client.get(url, HTTP_IF_NONE_MATCH=withdrawn["ETag"])
    assert relabelled.status_code == 200 and relabelled["ETag"] != withdrawn["ETag"]


def test_the_version_moves_once_a_transaction_after_commit_and_tells_the_pages(
        played, sent, django_capture_on_commit_callbacks):  # noqa: F811
    before = _version(played)
    players = list(Player.objects.filter(tournament=played).order_by("pk")[:3])
    with django_capture_on_commit_callbacks(execute=False) as callbacks, transaction.atomic():
        for player in players:
            update_member(player, club="Спартак")
        assert _version(played) == before and sent == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert _version(played) == before + 1
    assert [(channel, data["kind"]) for channel, data in sent] == [
        (live.tournament_channel(played.pk), "entrants")]
    assert sent[0][1]["tournament"] == played.pk
    assert live.TOKEN_PATTERN.fullmatch(sent[0][1]["token"])


def test_a_rolled_back_change_moves_nothing(
        played, sent, django_capture_on_commit_callbacks):  # noqa: F811
    before = _version(played)
    player = Player.objects.filter(tournament=played).first()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RuntimeError), transaction.atomic():
            update_member(player, name="Откат")
            raise RuntimeError("the request fails after the change")
    assert callbacks == [] and sent == [] and _version(played) == before
    assert Player.objects.get(pk=player.pk).name != "Откат"


def test_a_tournament_file_does_not_carry_the_version(played):  # noqa: F811
    from tournaments.transfer.archive import export_tournament

    Tournament.objects.filter(pk=played.pk).update(entrants_version=41)
    assert "entrants_version" not in export_tournament(played)["tournament"]
