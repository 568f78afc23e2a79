"""The standings order on the regulations page: numbered selects of the rule set's metrics by
their (translated) names, validated against the rule set; no machine keys to type."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.core.errors import ServiceError
from tournaments.setup.forms import RegulationsForm
from tournaments.setup.services import create_tournament, update_regulations

pytestmark = pytest.mark.django_db


def _form_data(regulations) -> dict:
    """What the regulations page posts back unchanged (the standings order left out)."""
    data = {**RegulationsForm(instance=regulations).initial}
    data = {k: ("" if v is None else v) for k, v in data.items() if k != "standings_order"}
    return {k: v for k, v in data.items() if v is not False}


def _order(*keys: str) -> dict:
    return {f"standings_order_{i}": key for i, key in enumerate(keys)}


def _options(html: str, place: int) -> list[tuple[str, str]]:
    select = re.search(rf'<select name="standings_order_{place}"[^>]*>(.*?)</select>', html,
                       re.S).group(1)
    return re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select)


def test_places_offer_the_metrics_by_name_in_russian(client, tournament, organizer):
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    html = client.get(reverse("tournaments:regulations", args=[tournament.slug])).content.decode()
    assert html.count('<select name="standings_order_') == 6
    options = dict(_options(html, 0))
    assert options["match_points"] == "Очки матча" and options["wins"] == "Победы"
    assert "game_wins" not in options and "rating_points" not in options  # not sport's
    visible = re.sub(r"<[^>]+>", " ", html)
    assert "match_points" not in visible and "point_difference" not in visible
    assert 'for="id_standings_order_0"' in html  # the field's label points at place 1


def test_chosen_order_is_saved_and_shown_again(client, tournament, organizer):
    regulations = tournament.regulations
    client.force_login(organizer)
    url = reverse("tournaments:regulations", args=[tournament.slug])
    response = client.post(url, {**_form_data(regulations), **_order("wins", "", "buchholz")})
    assert response.status_code == 302
    regulations.refresh_from_db()
    assert regulations.standings_order == ["wins", "buchholz"]
    assert regulations.standings_config().order == ("wins", "buchholz")
    html = client.get(url).content.decode()
    assert re.search(r'<select name="standings_order_0"[^>]*>.*?<option value="wins" selected',
                     html, re.S)
    assert re.search(r'<select name="standings_order_1"[^>]*>.*?<option value="buchholz" '
                     r'selected', html, re.S)
    # every place empty: the rule set's own order again
    response = client.post(url, {**_form_data(regulations), **_order("", "")})
    regulations.refresh_from_db()
    assert regulations.standings_order == []


@pytest.mark.parametrize(("order", "error"), [
    (("wins", "points_for", "wins"), "Wins is chosen twice."),
    (("match_points", "game_wins"), "Game wins difference is not a standings metric of this "
                                    "rule set."),
    (("match_points", "nonsense"), "nonsense is not a standings metric of this rule set."),
])
def test_refused_orders_save_nothing(client, tournament, organizer, order, error):
    regulations = tournament.regulations
    before = list(regulations.standings_order)
    client.force_login(organizer)
    url = reverse("tournaments:regulations", args=[tournament.slug])
    response = client.post(url, {**_form_data(regulations), **_order(*order)})
    assert response.status_code == 200
    assert error in response.content.decode()
    regulations.refresh_from_db()
    assert regulations.standings_order == before


def test_each_rule_set_offers_its_own_metrics(client, organizer):
    kozel = create_tournament(name="Козёл", slug="kozel-order", organizer=organizer,
                              rule_set="kozel", format="individual")
    client.force_login(organizer)
    url = reverse("tournaments:regulations", args=[kozel.slug])
    keys = [key for key, _name in _options(client.get(url).content.decode(), 0)]
    assert {"rating_points", "goats", "points_taken"} <= set(keys)
    response = client.post(url, {**_form_data(kozel.regulations),
                                 **_order("rating_points", "goats")})
    assert response.status_code == 302
    kozel.regulations.refresh_from_db()
    assert kozel.regulations.standings_order == ["rating_points", "goats"]


def test_the_service_refuses_another_rule_sets_metric(tournament, organizer):
    """The API and every other path meet the same rule (the model's validation)."""
    with pytest.raises(ServiceError, match="Not a standings metric of this rule set: Goat games"):
        update_regulations(tournament.pk, actor=organizer, standings_order=["wins", "goats"])
