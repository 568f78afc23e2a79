"""Issue #34: a hand-made pairs draw keeps the sides the client sent, never swapped by rank.

A client that keeps its own sides rules no-shows and fines against a side: had the server put
the better-ranked pair on side A whatever was sent, those rulings would hit the wrong pair.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from scoring.models import Party, Round
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


def _generated(tournament) -> tuple[Round, list[Party]]:
    """A draft round with a generated draw: the better-ranked pair on side A at every table."""
    rnd = draw_services.generate_draw(rounds.create_round(tournament.pk).pk)
    return rnd, list(Party.objects.filter(round=rnd).order_by("table__number"))


def test_a_hand_made_draw_through_the_api_keeps_the_sides_sent(tournament, organizer):
    """(rules.md S34) A hand-made draw keeps the sides sent; a no-show then hits that side."""
    api = APIClient()
    api.force_authenticate(organizer)
    rnd, generated = _generated(tournament)
    draw = api.get(f"/api/v1/rounds/{rnd.pk}/draw/").json()
    parties = [{"table_number": p["table_number"], "seats": dict(p["seats"])}
               for p in draw["parties"]]
    # table 1: the lower-ranked pair sent as side A, the better-ranked as side B
    seats = parties[0]["seats"]
    seats["a1"], seats["a2"], seats["b1"], seats["b2"] = (
        seats["b1"], seats["b2"], seats["a1"], seats["a2"])
    lower, better = generated[0].pair_b_id, generated[0].pair_a_id

    response = api.put(f"/api/v1/rounds/{rnd.pk}/draw/", {"parties": parties}, format="json")
    assert response.status_code == 200, response.json()
    first = response.json()["parties"][0]
    assert (first["pairs"]["a"]["id"], first["pairs"]["b"]["id"]) == (lower, better)
    assert first["seats"] == seats  # every seat where it was sent
    party = Party.objects.get(round=rnd, table__number=1)
    assert (party.pair_a_id, party.pair_b_id) == (lower, better)

    # the client's side A is the pair a no-show on side A forfeits
    rounds.publish_round(rnd.pk)
    rounds.start_round(rnd.pk)
    Party.objects.filter(pk=party.pk).update(started_at=timezone.now() - timedelta(minutes=6))
    response = api.post(f"/api/v1/parties/{party.pk}/no-show/", {"side": "a"}, format="json")
    assert response.status_code == 201, response.json()
    party.refresh_from_db()
    assert (party.winner, party.pair_b_id) == ("b", better)


def test_a_hand_made_draw_through_the_organizers_page_keeps_the_sides_sent(
    client, tournament, organizer
):
    """(rules.md S34) The organizer's draw page keeps each row's sides as he entered them."""
    client.force_login(organizer)
    rnd, generated = _generated(tournament)
    data = {}
    for i, party in enumerate(generated):  # every table with its sides the other way round
        data.update({f"table_{i}": i + 1, f"a_{i}": party.pair_b_id, f"b_{i}": party.pair_a_id})
    url = reverse("tournaments:draw_edit", args=[tournament.slug, rnd.number])
    response = client.post(url, data, follow=True)
    assert "The draw was saved" in response.content.decode()
    saved = list(Party.objects.filter(round=rnd).order_by("table__number")
                 .values_list("pair_a_id", "pair_b_id"))
    assert saved == [(p.pair_b_id, p.pair_a_id) for p in generated]
