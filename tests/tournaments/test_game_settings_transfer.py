"""The tournament file carries the game settings as the regulations' own fields, as it did when
each was a column: same names, same order, same values; an import checks them as declared."""

from __future__ import annotations

import pytest

from scoring.models import Regulations
from tournaments.setup.services import create_tournament, update_regulations
from tournaments.transfer.archive import ArchiveError, export_tournament, import_tournament

pytestmark = pytest.mark.django_db

RECORD = [
    "id", "target", "party_minutes", "domino_counts_partner", "drawn_fish", "fine_points",
    "fine_mode", "allow_negative", "warnings_before_fine", "no_show_minutes",
    "forfeit_winner_points", "forfeit_loser_points", "win_points", "loss_points",
    "forfeit_win_points", "bye_points", "forfeit_loss_points", "standings_order",
    "club_best_results", "pairing_system", "first_round", "avoid_same_club", "rounds_planned",
    "players", "tiles_per_hand", "game_minutes", "games_to_win", "match_format",
    "udl_slow_play_points", "fish_variant", "zero_zero_value", "six_six_value", "goat_at",
    "memorize_limit", "kozel_pairs", "lone_zero_zero_in_fish", "latin_individual",
]
"""The regulations' record in a tournament file, as files of version 2 have had it (with the
results counted per club since the club standings; a file without it gets the default)."""
KOZEL = {"players": 3, "tiles_per_hand": 6, "fish_variant": "for_one", "zero_zero_value": 25,
         "six_six_value": 50, "goat_at": 151, "memorize_limit": 10}


@pytest.fixture
def goats(organizer):
    """A Kozel tournament of three players a table, with settings of its own."""
    t = create_tournament(name="Козёл", slug="goats", organizer=organizer,
                          rule_set="kozel", format="individual")
    update_regulations(t.pk, **KOZEL)
    return t


def test_the_file_carries_each_game_setting_as_a_field_of_the_regulations(goats):
    (record,) = export_tournament(goats)["regulations"]
    assert list(record) == RECORD
    assert {name: record[name] for name in KOZEL} == KOZEL
    assert record["kozel_pairs"] is False and record["match_format"] == "to_wins"


def test_an_import_keeps_every_game_setting(goats):
    doc = export_tournament(goats)
    imported = import_tournament(doc, slug="goats-2")
    found = Regulations.objects.get(tournament=imported)
    assert found.game_settings == {name: doc["regulations"][0][name] for name in RECORD[23:]}
    assert found.goat_at == 151 and found.rules_config().fish_variant == "for_one"


def test_a_file_without_a_setting_gets_its_default(goats):
    doc = export_tournament(goats)
    del doc["regulations"][0]["memorize_limit"]
    imported = import_tournament(doc, slug="goats-3")
    assert Regulations.objects.get(tournament=imported).memorize_limit == 12


@pytest.mark.parametrize(("name", "value"), [("goat_at", 0), ("fish_variant", "for_none"),
                                              ("kozel_pairs", "yes")])
def test_a_bad_game_setting_in_a_file_is_refused_naming_it(goats, name, value):
    doc = export_tournament(goats)
    doc["regulations"][0][name] = value
    with pytest.raises(ArchiveError, match=rf"regulations\[0\]\.{name}: "):
        import_tournament(doc, slug="goats-4")
