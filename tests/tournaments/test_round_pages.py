"""The organizer's round flow through the pages, public draw and standings pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Pair, Party, Round
from tests.tournaments.play import play_round

pytestmark = pytest.mark.django_db


def _url(tournament, name, *args):
    return reverse(f"tournaments:{name}", args=[tournament.slug, *args])


def _action(tournament, number, action):
    return _url(tournament, "round_action", number, action)


def test_organizer_runs_two_rounds_with_a_swap_and_a_withdrawal(client, tournament, organizer):
    client.force_login(organizer)
    # round 1: create → generate → preview → swap → publish → start → play → close
    response = client.post(_url(tournament, "round_create"), follow=True)
    assert response.redirect_chain[-1][0] == _url(tournament, "round", 1)
    rnd = Round.objects.get(tournament=tournament, number=1)
    assert rnd.status == Round.Status.DRAFT

    response = client.post(_action(tournament, 1, "generate"), follow=True)
    html = response.content.decode()
    assert "The draw was generated" in html
    assert "preview, not published" in html
    assert Party.objects.filter(round=rnd).count() == 4
    # a seeded first round: top pair (by rating, then registration) at table 1
    first = Party.objects.get(round=rnd, table__number=1)
    second = Party.objects.get(round=rnd, table__number=2)

    response = client.post(_action(tournament, 1, "swap"), {"first": 1, "second": 2}, follow=True)
    assert "The tables were swapped." in response.content.decode()
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.table.number, second.table.number) == (2, 1)

    # players do not see the draft yet
    client.logout()
    assert client.get(_url(tournament, "round", 1)).status_code == 404
    client.force_login(organizer)

    response = client.post(_action(tournament, 1, "publish"), follow=True)
    assert "The draw is published." in response.content.decode()
    response = client.post(_action(tournament, 1, "start"), follow=True)
    assert "4 parties started." in response.content.decode()
    # a round cannot be closed while parties are being played
    response = client.post(_action(tournament, 1, "close"), follow=True)
    assert "4 parties of the round are not finished." in response.content.decode()
    # nor can the next one be created
    response = client.post(_url(tournament, "round_create"), follow=True)
    assert "Round 1 still has unfinished parties." in response.content.decode()

    play_round(rnd.pk, winner="a")
    # the protocols are not signed: the close lists them and asks to confirm
    response = client.post(_action(tournament, 1, "close"), follow=True)
    html = response.content.decode()
    assert "4 protocols are not signed" in html
    assert "Close anyway" in html
    rnd.refresh_from_db()
    assert rnd.status != Round.Status.FINISHED
    response = client.post(_action(tournament, 1, "close"), {"confirm": "1"}, follow=True)
    assert "The round is closed; 4 protocols are not signed yet." in response.content.decode()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.FINISHED

    # a withdrawal through the tournament page: the pair leaves later draws
    leaver = Pair.objects.filter(tournament=tournament).order_by("id").first()
    response = client.post(
        _url(tournament, "withdraw", "pairs", leaver.pk), {"withdrawn": "1"}, follow=True
    )
    assert "is withdrawn from later draws" in response.content.decode()
    leaver.refresh_from_db()
    assert leaver.withdrawn

    client.post(_url(tournament, "round_create"))
    response = client.post(_action(tournament, 2, "generate"), follow=True)
    rnd2 = Round.objects.get(tournament=tournament, number=2)
    in_draw = set(Party.objects.filter(round=rnd2).values_list("pair_a", flat=True)) | set(
        Party.objects.filter(round=rnd2).values_list("pair_b", flat=True)
    )
    assert leaver.pk not in in_draw
    # 7 pairs: three parties and a bye, finished at once
    bye = Party.objects.get(round=rnd2, pair_b__isnull=True)
    assert (bye.status, bye.end_reason, bye.winner, bye.table) == ("finished", "bye", "a", None)
    assert Party.objects.filter(round=rnd2, pair_b__isnull=False).count() == 3
    # no rematch of round 1
    met = {frozenset(p) for p in Party.objects.filter(round=rnd).values_list("pair_a", "pair_b")}
    for a, b in Party.objects.filter(round=rnd2, pair_b__isnull=False).values_list(
        "pair_a", "pair_b"
    ):
        assert frozenset((a, b)) not in met

    # the withdrawn pair keeps its round-1 result in the standings
    html = client.get(_url(tournament, "standings")).content.decode()
    assert leaver.display_name in html and "withdrawn" in html


def test_manual_edit_through_the_page_keeps_a_rematch_as_a_warning(client, tournament, organizer):
    from tournaments.rounds import draw_services
    from tournaments.rounds import services as rounds

    client.force_login(organizer)
    rnd = rounds.create_round(tournament.pk)
    draw_services.generate_draw(rnd.pk)
    rounds.publish_round(rnd.pk)
    rounds.start_round(rnd.pk)
    play_round(rnd.pk)
    rounds.close_round(rnd.pk)
    old = list(Party.objects.filter(round=rnd).order_by("table__number"))
    rnd2 = rounds.create_round(tournament.pk)

    response = client.get(_url(tournament, "draw_edit", 2))
    assert response.status_code == 200
    # the organizer repeats round 1 exactly: four rematches, accepted with warnings
    data = {}
    for i, party in enumerate(old):
        data.update({f"table_{i}": i + 1, f"a_{i}": party.pair_a_id, f"b_{i}": party.pair_b_id})
    response = client.post(_url(tournament, "draw_edit", 2), data, follow=True)
    html = response.content.decode()
    assert "The draw was saved" in html
    assert html.count("Rematch:") == 4
    assert old[0].pair_a.display_name in html
    assert Party.objects.filter(round=rnd2).count() == 4

    # leaving a pair out is refused with the engine's message, translated, naming the pair
    data.pop("a_3"), data.pop("b_3"), data.pop("table_3")
    response = client.post(_url(tournament, "draw_edit", 2), data)
    assert response.status_code == 400
    error = response.context["messages"]
    texts = [str(m) for m in error]
    assert any("Entrants missing from the draw" in t and old[3].pair_a.display_name in t
               and old[3].pair_b.display_name in t for t in texts), texts


def test_strangers_cannot_drive_rounds(client, tournament, make_user):
    from tournaments.rounds import services as rounds

    rnd = rounds.create_round(tournament.pk)
    client.force_login(make_user())
    assert client.post(_url(tournament, "round_create")).status_code == 403
    assert client.post(_action(tournament, 1, "generate")).status_code in (403, 404)
    assert client.get(_url(tournament, "draw_edit", 1)).status_code in (403, 404)
    pair = tournament.pairs.first()
    assert client.post(_url(tournament, "withdraw", "pairs", pair.pk)).status_code == 403
    rnd.refresh_from_db()
    assert not Party.objects.filter(round=rnd).exists()
    pair.refresh_from_db()
    assert not pair.withdrawn


def test_public_pages_refresh_while_a_round_is_played(client, tournament):
    from tournaments.rounds import draw_services
    from tournaments.rounds import services as rounds

    rnd = rounds.create_round(tournament.pk)
    draw_services.generate_draw(rnd.pk)
    rounds.publish_round(rnd.pk)
    rounds.start_round(rnd.pk)
    html = client.get(_url(tournament, "round", 1)).content.decode()
    assert 'hx-trigger="every 10s"' in html
    assert "Иван Петров" in html
    partial = client.get(_url(tournament, "round", 1), HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith("<section id=\"draw\"")
    assert "<html" not in partial
    standings = client.get(_url(tournament, "standings")).content.decode()
    assert 'hx-trigger="every 10s"' in standings

    play_round(rnd.pk)
    rounds.close_round(rnd.pk)
    assert 'hx-trigger' not in client.get(_url(tournament, "round", 1)).content.decode()
    html = client.get(_url(tournament, "standings")).content.decode()
    assert 'hx-trigger' not in html
    assert "240 : 60" in client.get(_url(tournament, "round", 1)).content.decode()
    assert "Draw · Round 1" in client.get(_url(tournament, "current_draw")).content.decode()


@pytest.mark.parametrize(
    ("role", "can_drive"),
    [(None, False), ("stranger", False), ("referee", False), ("chief", False),
     ("organizer", True)],
)
def test_round_permissions_matrix(client, tournament, organizer, make_user, role, can_drive):
    from scoring.models import TournamentRole
    from tournaments.rounds import services as rounds

    rnd = rounds.create_round(tournament.pk)
    if role == "organizer":
        client.force_login(organizer)
    elif role is not None:
        user = make_user()
        if role != "stranger":
            TournamentRole.objects.create(tournament=tournament, user=user, role=role)
        client.force_login(user)
    draft_page = client.get(_url(tournament, "round", 1))
    assert draft_page.status_code == (200 if can_drive else 404)
    response = client.post(_action(tournament, 1, "generate"))
    if role is None:
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    else:
        assert response.status_code == (302 if can_drive else 403)
    assert Party.objects.filter(round=rnd).exists() == can_drive
    if can_drive:
        assert 'action="/t/' in draft_page.content.decode()  # the controls are shown
