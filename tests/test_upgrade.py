"""Upgrade: a database built by the old code migrates to this code with its data intact.

A real upgrade, in separate processes, as an installation would run it:

1. the old code (``OLD_SCHEMA_COMMIT``) is checked out in a temporary ``git worktree``;
2. there, on a fresh database: ``manage.py migrate``, ``manage.py seed_demo``, then every
   tournament is written with ``manage.py export_tournament`` (the whole-tournament JSON file)
   and the row count of every table is taken;
3. this checkout runs ``manage.py migrate`` on that same database (same settings, same stored
   files), exports every tournament again and counts the rows again;
4. the files must be identical apart from ids (renumbered in file order, references remapped)
   and the moment of the export; every table must hold as many rows as before; users keep
   their permissions; ``migrate --check`` and ``makemigrations --check`` are clean.

It runs on a fresh SQLite file always, and on a fresh PostgreSQL database (``<name>_upgrade``,
created and dropped here) when ``DATABASE_URL`` names PostgreSQL, as in CI.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
import pytest

# The last commit of main before models move between the apps (tournaments, scoring, referee):
# 151a1db "Requirements: django-htmx; factory_boy, networkx and import-linter for tests and
# lint". Databases in use have this schema; they must keep upgrading with `migrate`. Keep it
# pinned (do not follow main): it is the schema that must stay upgradable.
OLD_SCHEMA_COMMIT = "151a1dba950f6aada7c4fe9f81eca22701a52b78"

HERE = Path(__file__).resolve().parent
DEMO_SLUGS = {"demo-cup", "udl-open", "kozel-evening"}
# Tables that gain rows by themselves on an upgrade: the applied migrations, and a content
# type and its permissions for each new model (checked one by one below). Every other table
# must hold exactly the rows it held.
GROWING_TABLES = {"django_migrations", "django_content_type", "auth_permission"}
COMMAND_TIMEOUT = 900
# Fields added since OLD_SCHEMA_COMMIT, per section of the export: an upgraded record must
# carry each at the value shown (the migration's default), then the files compare as before.
ADDED_FIELDS: dict[str, dict[str, Any]] = {
    "regulations": {"lone_zero_zero_in_fish": False, "match_format": "to_wins",
                    "latin_individual": False, "club_best_results": 2},
    "tournament": {"team_squad_pairs": 2, "team_members": "pairs", "team_squad_players": 6,
                   "team_lineup_changes": False, "team_halves": False,
                   "team_scoring": "match_points",
                   "team_tie_breaks": ["party_wins", "point_difference", "head_to_head",
                                       "buchholz"]},
    "players": {"country": "", "team": None},
    "pairs": {"team": None},
    "parties": {"first_mover": "", "match": None, "team_match": None, "board": None,
                "half": 1},
    "rounds": {"stage": 0, "bracket_round": None, "match_game": None},
    "deals": {"play_ended_before_time_up": False, "fish_by": "", "entered_at": None},
    "protocols": {"unverified": "", "unverified_parts": []},
    "party_desks": {"present_seats": {}},
}
# Values a data migration changes on purpose, per section of the export: (before, after).
# scoring 0007: the old forfeit default of 200 becomes empty, "the target".
MIGRATED_VALUES: dict[str, dict[str, tuple[Any, Any]]] = {
    "regulations": {"forfeit_winner_points": (200, None)},
}

# Run with `manage.py shell -c` in either checkout (so only APIs both have): every tournament
# through the export command, the row count of every table, each user's permissions.
SNAPSHOT = """
import io, json, os
from pathlib import Path

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection

out = Path(os.environ["UPGRADE_SNAPSHOT_DIR"])
out.mkdir(parents=True)
tournament_model = next(m for m in apps.get_models() if m.__name__ == "Tournament")
slugs = sorted(tournament_model._default_manager.values_list("slug", flat=True))
for slug in slugs:
    call_command("export_tournament", slug, output=str(out / f"{slug}.json"),
                 stdout=io.StringIO())
tables = {}
with connection.cursor() as cursor:
    for table in sorted(connection.introspection.table_names(cursor)):
        cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
        tables[table] = cursor.fetchone()[0]
through = get_user_model().user_permissions.through
user_permissions = sorted(through._default_manager.values_list(
    "user__username", "permission__content_type__model", "permission__codename"))
content_types = [[ct.pk, ct.app_label, ct.model, ct.model_class() is None]
                 for ct in ContentType.objects.order_by("pk")]
permissions = list(Permission.objects.order_by("pk").values_list("pk", "codename"))
(out / "database.json").write_text(json.dumps(
    {"slugs": slugs, "tables": tables, "user_permissions": user_permissions,
     "content_types": content_types, "permissions": permissions}))
"""


# -- git and the old checkout -------------------------------------------------------------


def _git(*args: str, cwd: Path = HERE) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def repository() -> Path:
    """The repository this test file lives in; skipped only when the old commit is absent."""
    top = _git("rev-parse", "--show-toplevel")
    if top.returncode != 0:
        pytest.skip(f"not a git checkout, so commit {OLD_SCHEMA_COMMIT[:7]} (the old schema) "
                    f"is not available: {top.stderr.strip()}")
    root = Path(top.stdout.strip())
    if _git("cat-file", "-e", f"{OLD_SCHEMA_COMMIT}^{{commit}}", cwd=root).returncode != 0:
        pytest.skip(f"commit {OLD_SCHEMA_COMMIT[:7]} (the old schema) is not in this clone's "
                    "history (a shallow clone?); `git fetch --unshallow` makes it available")
    return root


@pytest.fixture(scope="module")
def old_tree(repository: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The old code in a temporary detached worktree, removed again at the end."""
    path = tmp_path_factory.mktemp("old-schema") / "tree"
    added = _git("worktree", "add", "--detach", "--quiet", str(path), OLD_SCHEMA_COMMIT,
                 cwd=repository)
    assert added.returncode == 0, added.stderr
    try:
        yield path
    finally:
        removed = _git("worktree", "remove", "--force", str(path), cwd=repository)
        if removed.returncode != 0:
            shutil.rmtree(path, ignore_errors=True)
            _git("worktree", "prune", cwd=repository)


# -- the database -------------------------------------------------------------------------


def _postgres_url() -> str | None:
    """The environment's DATABASE_URL when it names PostgreSQL (CI), else None."""
    url = os.environ.get("DATABASE_URL", "")
    if url and dj_database_url.parse(url)["ENGINE"] == "django.db.backends.postgresql":
        return url
    return None


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: an SQLite file, or a PostgreSQL database made for the test."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'upgrade.sqlite3'}"
        return
    url = _postgres_url()
    if url is None:
        pytest.skip("DATABASE_URL does not name PostgreSQL (CI sets it); SQLite ran instead")
    with scratch_postgres(url, f"{dj_database_url.parse(url)['NAME']}_upgrade") as scratch:
        yield scratch


@contextlib.contextmanager
def scratch_postgres(url: str, name: str) -> Iterator[str]:
    """A new, empty PostgreSQL database ``name`` on ``url``'s server, dropped at the end."""
    import psycopg

    config = dj_database_url.parse(url)
    server = {
        "dbname": "postgres",
        "user": config["USER"] or None,
        "password": config["PASSWORD"] or None,
        "host": config["HOST"] or None,
        "port": config["PORT"] or None,
    }

    def run(sql: str) -> None:
        with psycopg.connect(**{k: v for k, v in server.items() if v}, autocommit=True) as conn:
            conn.execute(sql)

    run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    run(f'CREATE DATABASE "{name}"')
    try:
        yield urlsplit(url)._replace(path=f"/{name}").geturl()
    finally:
        run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _environment(database_url: str, files: Path) -> dict[str, str]:
    """Settings of both checkouts: this database, stored files in a temp dir, no broker."""
    left_out = {
        "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "REDIS_URL",  # Celery eager, local cache
        "PROTOCOL_SIGNING_KEY", "PROTOCOL_SIGNING_CERT", "PROTOCOL_SIGNING_KEY_PASSPHRASE",
        "PYTHONPATH",  # each checkout imports its own code
    }
    env = {k: v for k, v in os.environ.items() if k not in left_out}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url,
        CONN_MAX_AGE="0",
        DEBUG="1",
        MEDIA_ROOT=str(files / "media"),
        PROTOCOL_SIGNING_DIR=str(files / "signing"),
        STATIC_ROOT=str(files / "static"),
    )
    return env


def _manage(tree: Path, env: dict[str, str], *args: str) -> str:
    """Run ``manage.py`` of a checkout with this interpreter; its output, or the test fails."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=tree, env=env, capture_output=True,
        text=True, timeout=COMMAND_TIMEOUT,
    )
    assert result.returncode == 0, (
        f"manage.py {' '.join(args)} in {tree} exited with {result.returncode}:\n"
        f"{result.stdout}\n{result.stderr}"
    )
    return result.stdout


def _snapshot(tree: Path, env: dict[str, str], out: Path) -> dict[str, Any]:
    """Every tournament's export file (by slug) and the database's counts and permissions."""
    _manage(tree, {**env, "UPGRADE_SNAPSHOT_DIR": str(out)}, "shell", "-v", "0", "-c", SNAPSHOT)
    database = json.loads((out / "database.json").read_text())
    exports = {
        slug: json.loads((out / f"{slug}.json").read_text(encoding="utf-8"))
        for slug in database["slugs"]
    }
    return {"exports": exports, **database}


# -- comparing exports ----------------------------------------------------------------------


def canonical(doc: dict[str, Any]) -> dict[str, Any]:
    """An export file without its ids: records numbered in file order, references remapped.

    The file lists each section in id order, so this keeps the records' relative order (ties
    fall back on it) while ignoring the ids' values. The moment of the export is dropped.
    """
    from scoring.models import Tournament
    from tournaments.transfer.archive import ID_LISTS, SECTION_OF, SECTIONS, carried_fields

    numbers: dict[str, dict[int, int]] = {
        section.name: {r["id"]: n for n, r in enumerate(doc.get(section.name, [])) if "id" in r}
        for section in SECTIONS
    }

    def renumber(section: str, value: Any) -> Any:
        if value is None:
            return None
        return numbers[section].get(value, f"missing {section} id {value}")

    def record(model: type, raw: dict[str, Any], section: str | None) -> dict[str, Any]:
        out = dict(raw)
        if "id" in out:
            out["id"] = renumber(section, out["id"]) if section else 0
        for name, field in carried_fields(model).items():
            target = SECTION_OF.get(field.related_model) if field.is_relation else None
            if target is None or name not in out:
                continue
            if field.many_to_many:
                out[name] = sorted(renumber(target, v) for v in out[name] or [])
            else:
                out[name] = renumber(target, out[name])
        return out

    result = {k: v for k, v in doc.items() if k != "exported_at"}
    result["tournament"] = record(Tournament, doc["tournament"], None)
    for name, section in ID_LISTS.items():
        result["tournament"][name] = [renumber(section, v) for v in doc["tournament"][name]]
    for section in SECTIONS:
        result[section.name] = [
            record(section.model, raw, section.name) for raw in doc.get(section.name, [])
        ]
    return result


def without_added_fields(doc: dict[str, Any]) -> dict[str, Any]:
    """An upgraded export without the fields added since the old schema, each checked first."""
    result = dict(doc)
    for section, added in ADDED_FIELDS.items():
        single = isinstance(doc.get(section), dict)  # the tournament: one record, no list
        records = []
        for raw in [doc[section]] if single else doc.get(section, []):
            record = dict(raw)
            for name, value in added.items():
                assert record.pop(name) == value, f"{section}.{name}: {raw.get(name)!r}"
            records.append(record)
        result[section] = records[0] if single else records
    return result


def without_stages(doc: dict[str, Any]) -> dict[str, Any]:
    """An upgraded export without its one stage (scoring 0035 made every tournament a
    one-stage tournament of its regulations' format, every round in it), checked first."""
    result = dict(doc)
    stages = result["stages"]
    assert len(stages) == 1 and stages[0]["order"] == 1, stages
    assert stages[0]["format"] in ("swiss", "round_robin", "individual"), stages
    assert result["groups"] == [] and result["matches"] == []
    result["stages"] = []
    return result


def without_profiles(doc: dict[str, Any]) -> dict[str, Any]:
    """An upgraded export without what the profiles added (file version 2: ``profiles`` and
    each player's ``profile``), checked first: the data migration (scoring 0021) gave every
    player a profile of his name, club and city, one per player unless one login plays
    several tournaments (each file holds one tournament, so one per player here)."""
    result = dict(doc)
    assert result.pop("version") == 2
    result["version"] = 1
    people = {p["id"]: p for p in result.pop("profiles")}
    players = []
    for raw in doc.get("players", []):
        record = dict(raw)
        person = people[record.pop("profile")]
        assert (person["name"], person["club"], person["city"]) == (
            record["name"], record["club"], record["city"]), (person, record)
        players.append(record)
    assert len(people) == len(players)
    result["players"] = players
    return result


def accept_migrated(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """``new`` with each value a data migration changed on purpose put back as it was."""
    result = dict(new)
    for section, changes in MIGRATED_VALUES.items():
        records = [dict(record) for record in new.get(section, [])]
        for before, after in zip(old.get(section, []), records, strict=False):
            for name, (was, now) in changes.items():
                if before.get(name) == was and after.get(name) == now:
                    after[name] = was
        result[section] = records
    return result


def differences(old: Any, new: Any, path: str = "") -> Iterator[str]:
    """Where two JSON values differ, as paths with both values."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new), key=str):
            if key not in new:
                yield f"{path}.{key}: lost (was {str(old[key])[:200]})"
            elif key not in old:
                yield f"{path}.{key}: new (is {str(new[key])[:200]})"
            else:
                yield from differences(old[key], new[key], f"{path}.{key}")
    elif isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            yield f"{path}: {len(old)} items before, {len(new)} after"
        for n, (a, b) in enumerate(zip(old, new, strict=False)):
            yield from differences(a, b, f"{path}[{n}]")
    elif old != new or type(old) is not type(new):
        yield f"{path}: {str(old)[:200]} -> {str(new)[:200]}"


def _report(found: Iterator[str], most: int = 40) -> str:
    lines = []
    for line in found:
        if len(lines) == most:
            lines.append("…")
            break
        lines.append(line)
    return "\n".join(lines)


# -- the test -------------------------------------------------------------------------------


@pytest.mark.slow
def test_database_of_old_main_upgrades_with_data_intact(old_tree, database_url, tmp_path):
    env = _environment(database_url, tmp_path / "files")
    new_tree = HERE.parent
    timings: dict[str, float] = {}
    started = time.monotonic()

    def lap(name: str) -> None:
        nonlocal started
        timings[name] = round(time.monotonic() - started, 1)
        started = time.monotonic()

    # The old code builds the demo on a fresh database and exports it.
    _manage(old_tree, env, "migrate", "--noinput", "-v", "0")
    lap("old migrate")
    _manage(old_tree, env, "seed_demo")
    lap("old seed_demo")
    before = _snapshot(old_tree, env, tmp_path / "before")
    lap("old export")

    # This code upgrades that database and exports it again.
    _manage(new_tree, env, "migrate", "--noinput", "-v", "0")
    lap("new migrate")
    after = _snapshot(new_tree, env, tmp_path / "after")
    lap("new export")
    _manage(new_tree, env, "migrate", "--check", "-v", "0")
    _manage(new_tree, env, "makemigrations", "--check", "--dry-run", "-v", "0")
    lap("checks")
    print(f"upgrade test on {database_url.split(':')[0]}: {timings}")

    assert DEMO_SLUGS <= set(before["slugs"]), before["slugs"]
    assert all(before["exports"][slug]["deals"] for slug in DEMO_SLUGS)
    assert any(before["exports"][slug]["protocols"] for slug in DEMO_SLUGS)
    assert after["slugs"] == before["slugs"], "tournaments were lost or added by the upgrade"
    for slug in before["slugs"]:
        old = canonical(before["exports"][slug])
        new = accept_migrated(old, without_stages(without_added_fields(without_profiles(
            canonical(after["exports"][slug])))))
        if old != new:
            pytest.fail(f"the export of {slug!r} changed with the upgrade (ids aside):\n"
                        + _report(differences(old, new)))

    tables_before, tables_after = before["tables"], after["tables"]
    changed = {
        table: (n, tables_after.get(table, "table gone"))
        for table, n in tables_before.items()
        if not (tables_after.get(table) == n
                or table in GROWING_TABLES and tables_after.get(table, -1) >= n)
    }
    assert not changed, f"row counts changed with the upgrade (table: before, after): {changed}"

    # A model moved to another app keeps its content type (and so the permissions users hold)
    # only if the migration renames the content type; else the old one is left pointing at no
    # model, and a new one with new permissions appears that nobody holds.
    types_after = {pk: (label, model, stale) for pk, label, model, stale in after["content_types"]}
    for pk, label, model, stale in before["content_types"]:
        assert pk in types_after, f"content type {label}.{model} was deleted"
        assert types_after[pk][1] == model, f"content type {label}.{model} became {types_after[pk]}"
        assert types_after[pk][2] == stale, (
            f"content type {label}.{model} now names no model (as {types_after[pk][0]}."
            f"{types_after[pk][1]}): a moved model's content type must be renamed to its new app"
        )
    assert set(map(tuple, before["permissions"])) <= set(map(tuple, after["permissions"])), (
        "permissions were deleted or renamed by the upgrade"
    )
    assert after["user_permissions"] == before["user_permissions"]


def test_canonical_form_ignores_ids_but_not_what_they_refer_to():
    def doc(shift: int, *, swap: bool = False) -> dict[str, Any]:
        t1, t2, p1, p2 = 1 + shift, 2 + shift, 7 + shift, 9 + shift
        return {
            "format": "domino-tournament", "exported_at": f"2026-01-0{1 + shift % 7}",
            "tournament": {"id": 3 + shift, "slug": "cup", "start_list": [p2, p1]},
            "tables": [{"id": t1, "number": 1}, {"id": t2, "number": 2}],
            "roles": [{"id": 5 + shift, "user": "ref", "role": "referee", "tables": [t2, t1]}],
            "players": [{"id": 4 + shift, "name": "Иван"}, {"id": 6 + shift, "name": "Пётр"}],
            "pairs": [{"id": p1, "player1": 4 + shift, "player2": None},
                      {"id": p2, "player1": 6 + shift, "player2": None}],
            "parties": [{"id": 11 + shift, "table": t2 if swap else t1, "pair_a": p1,
                         "pair_b": p2}],
        }

    assert canonical(doc(0)) == canonical(doc(100))
    assert canonical(doc(0)) != canonical(doc(100, swap=True))
    assert canonical(doc(0))["parties"][0] == {"id": 0, "table": 0, "pair_a": 0, "pair_b": 1}
    assert canonical(doc(0))["tournament"]["start_list"] == [1, 0]
