"""The game settings on the regulations page and in the API, made from their declarations:
the fields, labels, refusals and shown values clients had when each was a column."""

from __future__ import annotations

import inspect

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from scoring.models import Regulations
from scoring.models.game_settings import GameSettingAttribute
from scoring.rules.game_settings import DECLARATIONS
from tournaments.setup.forms import RegulationsForm
from tournaments.setup.game_setting_fields import game_settings_display
from tournaments.setup.services import create_tournament, update_regulations

pytestmark = pytest.mark.django_db

TOO_LOW = "Ensure this value is greater than or equal to 1."


@pytest.fixture
def goats(organizer):
    """A Kozel tournament of single players."""
    return create_tournament(name="Козёл", slug="goats", organizer=organizer,
                             rule_set="kozel", format="individual")


def form_data(regulations: Regulations, **changes) -> dict:
    """What the regulations page posts: every field as the form shows it, then ``changes``."""
    form = RegulationsForm(instance=regulations)
    data = {name: form[name].value() for name in form.fields}
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    data["standings_order"] = ",".join(regulations.standings_order)
    return {**data, **changes}


def test_every_declared_setting_is_a_typed_attribute_of_the_regulations():
    for setting in DECLARATIONS:
        attribute = inspect.getattr_static(Regulations, setting.name)
        assert isinstance(attribute, GameSettingAttribute) and attribute.setting is setting
    regulations = Regulations(goat_at=77)  # set as the settings' own keyword, too
    assert (regulations.game_settings, regulations.goat_at, regulations.players) == (
        {"goat_at": 77}, 77, 4)


def test_the_form_offers_the_games_settings_in_order_with_their_words(goats):
    with translation.override("en"):
        form = RegulationsForm(instance=goats.regulations)
        game = [name for name in form.fields if name in goats.engine.setting_names]
        assert game == list(goats.engine.setting_names)
        assert list(form.fields)[-len(game):] == game  # after the common settings
        assert str(form.fields["goat_at"].label) == "Kozel: the Goat at"
        assert "is the Goat and loses" in str(form.fields["goat_at"].help_text)
        assert form["goat_at"].value() == 101
        assert "lone_zero_zero_in_fish" not in form.fields  # the Classic game's


def test_the_form_saves_a_game_setting_and_refuses_a_bad_one_naming_it(goats):
    regulations = goats.regulations
    with translation.override("en"):
        bad = RegulationsForm(form_data(regulations, goat_at=0), instance=regulations)
        assert bad.errors["goat_at"] == [TOO_LOW]
        good = RegulationsForm(form_data(regulations, goat_at=121, fish_variant="for_one"),
                               instance=regulations)
        assert good.is_valid(), good.errors
    update_regulations(goats.pk, **{k: good.cleaned_data[k] for k in ("goat_at", "fish_variant")})
    stored = Regulations.objects.get(pk=regulations.pk)
    assert (stored.goat_at, stored.game_settings["fish_variant"]) == (121, "for_one")


def test_the_api_refuses_a_setting_out_of_its_bounds_naming_it(goats, organizer):
    api = APIClient()
    api.force_authenticate(organizer)
    with translation.override("en"):
        response = api.patch(f"/api/v1/tournaments/{goats.pk}/regulations/",
                             {"goat_at": 0}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert [str(m) for m in response.data["goat_at"]] == [TOO_LOW]


def test_the_shown_settings_name_a_choice_by_its_label(goats):
    update_regulations(goats.pk, fish_variant="for_one", goat_at=121)
    with translation.override("en"):
        shown = dict(game_settings_display(Regulations.objects.get(tournament=goats)))
    assert shown["Kozel: fish"] == "Fish for one: the highest hand takes all"
    assert shown["Kozel: the Goat at"] == "121"
    assert shown["Kozel: four play as two pairs"] == "no"
