"""The finals' pages: the organizer starts them from the rounds page (qualifiers proposed and
edited, refusals on the form, nothing written); the public bracket page (live, 304 while
unchanged, placings once decided, queries constant in the bracket's size), its PDF for the
wall, and the player's next knockout table."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from referee.services.clock import forfeit_party
from scoring.models import Match, Party, PrintJob, Round, Stage
from scoring.ranking.results import standings_table
from scoring.stages.common import first_stage
from tests.factories import PairFactory, PlayerFactory, TableFactory, TournamentFactory
from tests.tournaments.test_finals import _field, _qualifying_round, api  # noqa: F401
from tournaments.rounds.finals import start_finals

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(organizer) -> Client:
    client = Client()
    client.force_login(organizer)
    return client


def _decide_all_ready() -> int:
    """Decide every unfinished knockout party (side A wins by forfeit); how many."""
    parties = list(Party.objects.filter(match__isnull=False).exclude(
        status=Party.Status.FINISHED))
    for party in parties:
        forfeit_party(party.pk, absent_side="b")
    return len(parties)


def _bracket_of(organizer, slots: int, slug: str):
    """A tournament whose qualifying is over (one closed round) and finals of ``slots``."""
    t = TournamentFactory(slug=slug, organizer=organizer)
    pairs = [PairFactory(tournament=t, player1=PlayerFactory(tournament=t),
                         player2=PlayerFactory(tournament=t)).pk for _ in range(slots)]
    TableFactory.create_batch(slots // 2, tournament=t)
    Round.objects.create(tournament=t, number=1, stage=first_stage(t),
                         status=Round.Status.FINISHED)
    start_finals(t.pk, qualifiers=pairs, third_place=True)
    return t


def test_the_organizer_starts_edited_finals_from_the_rounds_page(
        api, organizer, org, django_capture_on_commit_callbacks):  # noqa: F811
    t = _field(organizer, 8, 1, "ko-page")
    page = org.get(f"/t/{t.slug}/rounds/")
    assert "Start the finals" not in page.content.decode()  # no round yet: groups only
    assert "Start the groups" in page.content.decode()
    _qualifying_round(api, t)
    order = [row.entrant for row in standings_table(t).rows]
    page = org.get(f"/t/{t.slug}/rounds/?size=4").content.decode()
    assert "Start the finals" in page
    for pk in order[:4]:
        assert f'value="{pk}" id="id_qualifiers_' in page
    ticked = page.count("checked")
    assert ticked == 5  # four qualifiers and the third-place match
    # the organizer replaces the 4th by the 5th: seeded in the standings' order
    chosen = [*order[:3], order[4]]
    done = org.post(f"/t/{t.slug}/finals/start/", {
        "bracket_size": 4, "third_place": "on", "best_of": 1, "qualifiers": chosen})
    assert done.status_code == 302 and done["Location"] == f"/t/{t.slug}/bracket/"
    stage = Stage.objects.get(tournament=t, format="knockout")
    assert stage.qualifiers == chosen and stage.third_place
    rounds = org.get(f"/t/{t.slug}/rounds/").content.decode()
    assert "Semi-finals" in rounds and "Start the finals" not in rounds
    assert f"/t/{t.slug}/bracket.pdf?page=A3" in rounds
    # a knockout round is a round like any other: its page prints and starts its parties
    semis = Round.objects.get(tournament=t, bracket_round=1)
    assert 'id="print"' in org.get(f"/t/{t.slug}/rounds/{semis.number}/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):  # the print task runs
        printed = org.post(f"/rounds/{semis.pk}/print/", {"kind": "blank", "back": "round"})
    assert printed.status_code == 302
    job = PrintJob.objects.get(round=semis)
    assert job.status == PrintJob.Status.DONE and job.total == 2
    assert org.post(f"/t/{t.slug}/rounds/{semis.number}/start/").status_code == 302
    assert not Party.objects.filter(round=semis, status=Party.Status.SCHEDULED).exists()
    assert "Finals: the bracket" in org.get(f"/t/{t.slug}/").content.decode()


def test_refusals_show_on_the_form_and_write_nothing(api, organizer, org):  # noqa: F811
    t = _field(organizer, 8, 2, "ko-refused")
    _qualifying_round(api, t)
    too_big = org.post(f"/t/{t.slug}/finals/start/", {"bracket_size": 16, "best_of": 1})
    assert too_big.status_code == 400
    assert "larger than the qualified field of 8" in too_big.content.decode()
    three = list(t.pairs.values_list("pk", flat=True)[:3])
    wrong_count = org.post(f"/t/{t.slug}/finals/start/", {
        "bracket_size": 4, "best_of": 1, "qualifiers": three})
    assert wrong_count.status_code == 400
    assert "Tick as many pairs as the bracket takes (4): 3 ticked." in wrong_count.content.decode()
    rid = api.post("/api/v1/rounds/", {"tournament": t.pk}, format="json").data["id"]
    api.post(f"/api/v1/rounds/{rid}/generate/", {}, format="json")
    api.post(f"/api/v1/rounds/{rid}/publish/")
    unfinished = org.post(f"/t/{t.slug}/finals/start/", {"bracket_size": 4, "best_of": 1})
    assert unfinished.status_code == 400
    assert "Qualifying parties not finished: 4." in unfinished.content.decode()
    assert not Stage.objects.filter(tournament=t, format="knockout").exists()
    assert not Match.objects.exists()
    groups = org.post(f"/t/{t.slug}/groups/start/", {"group_count": 2})
    assert groups.status_code == 400 and "not finished" in groups.content.decode()


def test_the_bracket_page_is_live_with_304s_and_shows_placings_once_decided(
        organizer, settings):
    settings.PUBLIC_ETAG_VERSION_SECONDS = 0  # each request reads the results version
    t = _bracket_of(organizer, 4, "ko-live")
    client = Client()
    first = client.get(f"/t/{t.slug}/bracket/")
    body = first.content.decode()
    assert first.status_code == 200 and "Semi-finals" in body and "Third place" in body
    assert 'hx-trigger="every 10s"' in body and "Final placings" not in body
    again = client.get(f"/t/{t.slug}/bracket/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    _decide_all_ready()
    changed = client.get(f"/t/{t.slug}/bracket/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    while _decide_all_ready():
        pass
    done = client.get(f"/t/{t.slug}/bracket/").content.decode()
    assert "Final placings" in done and "every 10s" not in done
    fragment = client.get(f"/t/{t.slug}/bracket/", HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fragment
    assert 'id="bracket"' in fragment
    hall = client.get(f"/t/{t.slug}/hall/?panel=bracket-1").content.decode()
    assert 'class="hall-panel hall-bracket"' in hall and "Final placings" in hall
    russian = client.get(f"/t/{t.slug}/bracket/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Полуфиналы" in russian and "Итоговые места" in russian


def test_the_bracket_pdf_comes_in_a3_and_a4_in_the_tournaments_language(organizer):
    t = _bracket_of(organizer, 8, "ko-pdf")
    client = Client()
    for page in ("A3", "A4", "a4"):
        answer = client.get(f"/t/{t.slug}/bracket.pdf?page={page}")
        assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
        assert answer.content.startswith(b"%PDF")
    assert client.get(f"/t/{t.slug}/bracket.pdf?page=B5").status_code == 404
    plain = TournamentFactory(slug="no-finals", organizer=organizer)
    assert client.get(f"/t/{plain.slug}/bracket/").status_code == 404
    assert client.get(f"/t/{plain.slug}/bracket.pdf").status_code == 404


def test_the_bracket_pages_queries_do_not_grow_with_the_bracket(organizer):
    counts = []
    for slots in (8, 64):
        t = _bracket_of(organizer, slots, f"ko-q{slots}")
        _decide_all_ready()
        client = Client()
        client.get(f"/t/{t.slug}/bracket/")  # warm: the session, the caches
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/t/{t.slug}/bracket/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_player_area_names_the_knockout_match(organizer, make_user):
    t = _bracket_of(organizer, 8, "ko-me")
    party = Party.objects.filter(match__bracket_round=1).select_related(
        "pair_a__player1", "pair_b__player1", "table").first()
    user = make_user("ko-player")
    player = party.pair_a.player1
    player.user = user
    player.save()
    client = Client()
    client.force_login(user)
    body = client.get(f"/t/{t.slug}/me/").content.decode()
    opponent = party.pair_b.display_name
    assert (f"Your quarter-final: table {party.table.number} against {opponent}"
            in body.replace("&#x27;", "'"))
