"""The game settings moved from a column each into one field: data kept both ways, and the
tournament file of a tournament with settings of its own is the same byte for byte."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.models import GAME_SETTINGS, Regulations
from tournaments.setup.services import create_tournament, update_regulations
from tournaments.transfer.archive import export_tournament
from tournaments.transfer.archive_export import dumps

BEFORE = ("scoring", "0024_tournament_rule_set_registry")

KOZEL = {"players": 3, "tiles_per_hand": 6, "fish_variant": "for_one", "zero_zero_value": 25,
         "six_six_value": 50, "goat_at": 151, "memorize_limit": 10}
UDL = {"games_to_win": 2, "game_minutes": 12, "match_format": "best_of_three",
       "udl_slow_play_points": 30}


def file_bytes(tournament) -> bytes:
    """The tournament file, its moment of export left out, and its stages (scoring 0035 gives
    every tournament its one stage on the way forward, made otherwise at its first round:
    checked on their own in the test)."""
    doc = export_tournament(tournament)
    doc["exported_at"] = "-"
    doc.pop("stages", None)
    return dumps(doc)


def migrate(target: tuple[str, str] | None = None) -> MigrationExecutor:
    """Bring the database to ``target`` of the migration history (None: the latest)."""
    executor = MigrationExecutor(connection)
    executor.migrate([target] if target else executor.loader.graph.leaf_nodes())
    executor.loader.build_graph()
    return executor


@pytest.fixture
def games(organizer):
    """A Kozel tournament and a UDL one, each with game settings of its own."""
    goats = create_tournament(name="Козёл", slug="goats", organizer=organizer,
                              rule_set="kozel", format="individual")
    update_regulations(goats.pk, **KOZEL)
    udl = create_tournament(name="UDL", slug="udl", organizer=organizer, rule_set="udl")
    update_regulations(udl.pk, **UDL)
    return goats, udl


@pytest.mark.migrations
@pytest.mark.django_db(transaction=True)
def test_game_settings_survive_the_migration_back_and_forth(games):
    goats, udl = games
    files = {t.pk: file_bytes(t) for t in games}
    columns = {t.pk: {name: getattr(Regulations.objects.get(tournament=t), name)
                      for name in GAME_SETTINGS} for t in games}
    assert columns[goats.pk] == {**columns[goats.pk], **KOZEL}
    assert columns[udl.pk] == {**columns[udl.pk], **UDL}

    executor = migrate(BEFORE)
    old = executor.loader.project_state([BEFORE]).apps.get_model("scoring", "Regulations")
    for t in games:  # back in their columns, every value
        row = old.objects.get(tournament_id=t.pk)
        assert {name: getattr(row, name) for name in GAME_SETTINGS} == columns[t.pk]
    old.objects.filter(tournament_id=goats.pk).update(goat_at=77)  # set as a column

    migrate()  # 0025_game_settings and on
    for t in games:
        found = Regulations.objects.get(tournament_id=t.pk)
        expected = {**columns[t.pk], **({"goat_at": 77} if t == goats else {})}
        assert found.game_settings == expected  # one field, every setting by name
        assert {name: getattr(found, name) for name in GAME_SETTINGS} == expected
    update_regulations(goats.pk, goat_at=151)
    assert {t.pk: file_bytes(t) for t in games} == files
    # The way forward made each tournament its one stage, of its own format.
    assert {t.pk: list(t.stages.values_list("order", "format")) for t in games} == {
        goats.pk: [(1, "individual")], udl.pk: [(1, "swiss")]}
    assert json.loads(files[udl.pk])["regulations"][0]["match_format"] == "best_of_three"
