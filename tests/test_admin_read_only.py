"""The admin shows the record and changes nothing: changes go through the services."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring.models import Deal, Party, Tournament


def test_every_registered_model_is_read_only():
    from scoring.admin import ReadOnly

    ours = {model: admin.site.get_model_admin(model)
            for model in apps.get_app_config("scoring").get_models()
            if admin.site.is_registered(model)}
    assert len(ours) >= 17
    assert all(isinstance(model_admin, ReadOnly) for model_admin in ours.values())


@pytest.mark.django_db
def test_a_superuser_sees_a_deal_but_cannot_change_it(client, party, referee_user):
    from scoring.party.deals import record_deal

    record_deal(party.pk, actor=referee_user, outcome="domino", winner="a",
                pips={"a": 0, "b": 30})
    deal = Deal.objects.get(party=party)
    boss = get_user_model().objects.create_superuser("boss", "b@example.org", "pw")
    client.force_login(boss)
    page = client.get(reverse("admin:scoring_deal_change", args=[deal.pk]))
    assert page.status_code == 200 and b'name="points_a"' not in page.content
    version = Party.objects.get(pk=party.pk).version
    answer = client.post(reverse("admin:scoring_deal_change", args=[deal.pk]),
                         {"points_a": 99, "points_b": 0})
    assert answer.status_code == 403
    deal.refresh_from_db()
    assert (deal.points_a, deal.points_b) == (30, 0)
    assert Party.objects.get(pk=party.pk).version == version
    delete = reverse("admin:scoring_tournament_delete", args=[party.round.tournament_id])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert Tournament.objects.filter(pk=party.round.tournament_id).exists()
