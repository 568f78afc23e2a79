"""The restore drill: an installation backed up with ``manage.py backup`` and restored with
``manage.py restore`` into a fresh database and empty directories gives the same tournaments.

As an installation would run it, in separate processes: the demo is built on a fresh database
and its signing key rotated (so both a current and a retired certificate must come back),
every tournament is exported (the whole-tournament JSON file) and every table counted; the
archive is restored into another fresh database with other, empty media and signing
directories; the exports (ids included) and counts must be identical, every signed protocol
must still verify there, and a second restore into the now full database is refused.

On a fresh SQLite file always; on two fresh PostgreSQL databases (unique names, created and
dropped here; ``pg_dump``/``pg_restore`` from the PATH) when ``DATABASE_URL`` names
PostgreSQL, as in CI.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import dj_database_url
import pytest

from tests.test_upgrade import (
    _environment,
    _manage,
    _postgres_url,
    _report,
    _snapshot,
    differences,
    scratch_postgres,
)

TREE = Path(__file__).resolve().parent.parent

# Run in the restored installation: each signed protocol as the verification page sees it.
VERIFY = """
import json
from scoring.models import Protocol
from scoring.signoff.verification import look_up
print(json.dumps({p.public_id: look_up(public_id=p.public_id).state
                  for p in Protocol.objects.exclude(sha256="")}))
"""


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def databases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two fresh, empty databases: the installation's and the one it is restored into."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'source.sqlite3'}", f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
        return
    url = _postgres_url()
    if url is None:
        pytest.skip("DATABASE_URL does not name PostgreSQL (CI sets it); SQLite ran instead")
    name = f"{dj_database_url.parse(url)['NAME']}_drill_{uuid.uuid4().hex[:8]}"
    with scratch_postgres(url, f"{name}_source") as source, \
            scratch_postgres(url, f"{name}_fresh") as fresh:
        yield source, fresh


def without_moment(doc: dict) -> dict:
    """An export file without the moment it was written."""
    return {k: v for k, v in doc.items() if k != "exported_at"}


@pytest.mark.slow
def test_restore_drill_gives_identical_tournaments_and_verifiable_protocols(databases,
                                                                             tmp_path):
    source_url, fresh_url = databases
    source = _environment(source_url, tmp_path / "source")
    _manage(TREE, source, "migrate", "--noinput", "-v", "0")
    _manage(TREE, source, "seed_demo")
    _manage(TREE, source, "signing_identity", "rotate")
    before = _snapshot(TREE, source, tmp_path / "before")
    archive = tmp_path / "backup.tar.gz"
    assert "keep it secret" in _manage(TREE, source, "backup", "--output", str(archive))
    assert archive.stat().st_mode & 0o077 == 0, "the archive holds the key: owner only"

    fresh = _environment(fresh_url, tmp_path / "fresh")
    assert not (tmp_path / "fresh").exists()
    _manage(TREE, fresh, "restore", str(archive))
    _manage(TREE, fresh, "migrate", "--check", "-v", "0")
    after = _snapshot(TREE, fresh, tmp_path / "after")

    assert after["slugs"] == before["slugs"] and before["slugs"]
    assert any(before["exports"][slug]["protocols"] for slug in before["slugs"])
    for slug in before["slugs"]:
        old, new = without_moment(before["exports"][slug]), without_moment(after["exports"][slug])
        if old != new:
            pytest.fail(f"the export of {slug!r} changed with backup and restore:\n"
                        + _report(differences(old, new)))
    assert after["tables"] == before["tables"]
    assert after["user_permissions"] == before["user_permissions"]

    states = json.loads(_manage(TREE, fresh, "shell", "-v", "0", "-c", VERIFY))
    assert states and set(states.values()) == {"authentic"}, states
    key = Path(fresh["PROTOCOL_SIGNING_DIR"]) / "protocol-signing-key.pem"
    assert key.stat().st_mode & 0o077 == 0
    assert list((Path(fresh["PROTOCOL_SIGNING_DIR"]) / "trusted").glob("*.pem"))

    again = subprocess.run([sys.executable, "manage.py", "restore", str(archive)], cwd=TREE,
                           env=fresh, capture_output=True, text=True, timeout=600)
    assert again.returncode != 0 and "the database is not empty" in again.stderr


# -- archives that are refused before anything is written -------------------------------------


def _archive(path: Path, members: dict[str, bytes], sha256: dict[str, str]) -> Path:
    """A backup-shaped tar.gz holding ``members`` and a manifest claiming ``sha256``."""
    import io
    import tarfile

    manifest = {"format": "domino-backup", "version": 1, "engine": "sqlite", "sha256": sha256}
    with tarfile.open(path, "w:gz") as tar:
        for name, data in {"manifest.json": json.dumps(manifest).encode(), **members}.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


@pytest.mark.parametrize(("members", "claimed", "message"), [
    ({"database/db.sqlite3": b"x", "media/protocols/a.pdf": b"changed"},
     {"database/db.sqlite3": "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881",
      "media/protocols/a.pdf": "0" * 64}, "damaged"),
    ({"media/../../etc/evil": b"x"}, {"media/../../etc/evil": "0" * 64}, "unsafe name"),
    ({}, {"media/protocols/a.pdf": "0" * 64}, "lacks media/protocols/a.pdf"),
])
def test_a_damaged_or_unsafe_archive_is_refused_and_nothing_is_written(
        members, claimed, message, tmp_path, settings):
    from tournaments.transfer.backup import BackupError, restore_backup

    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PROTOCOL_SIGNING_DIR = tmp_path / "signing"
    archive = _archive(tmp_path / "b.tar.gz", members, claimed)
    with pytest.raises(BackupError, match=message):
        restore_backup(archive)
    assert not (tmp_path / "media").exists() and not (tmp_path / "signing").exists()
    assert not (tmp_path.parent / "etc").exists()
