"""Backup and restore of an installation: its database, stored files and signing identity in
one archive (``manage.py backup`` / ``manage.py restore``).

The archive is a gzipped tar:

* ``manifest.json``: format, version, when, the database engine, the last migration of each
  app, and the SHA-256 of every other member (checked before anything is restored);
* ``database/postgresql.dump`` (``pg_dump --format=custom``, from the ``PATH``) or
  ``database/db.sqlite3`` (SQLite's online backup: a consistent copy of a live file);
* ``media/…``: every stored file (signed protocol PDFs, round prints);
* ``signing/…``: ``PROTOCOL_SIGNING_DIR`` (the key, the certificate, ``trusted/``), and
  ``configured/`` the ``PROTOCOL_SIGNING_KEY``/``CERT`` files and ``extra-trusted/`` those of
  ``PROTOCOL_TRUSTED_CERTS`` when set. The private key makes the archive a secret.

The database is dumped first, then the files: a protocol's PDF is stored before its row is
committed, so every file the dump refers to is in the archive. A restore goes into an empty
database of the same engine and refuses to overwrite a different file or key.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder

from scoring.protocols.signing import CERT_FILENAME, KEY_FILENAME, TRUSTED_DIRNAME
from scoring.signoff.identity import extra_trusted_certificates

FORMAT = "domino-backup"
VERSION = 1
POSTGRES_DUMP = "database/postgresql.dump"
SQLITE_FILE = "database/db.sqlite3"
TOOL_TIMEOUT = 3600


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why (nothing was changed)."""


@dataclass
class Manifest:
    """What an archive holds (``manifest.json``)."""

    engine: str
    created_at: str = ""
    migrations: dict[str, str] = field(default_factory=dict)
    sha256: dict[str, str] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        """How many members each part holds (``media``, ``signing``)."""
        parts = [name.split("/", 1)[0] for name in self.sha256]
        return {part: parts.count(part) for part in ("media", "signing")}


# -- the database ---------------------------------------------------------------------------


def engine() -> str:
    """``postgresql`` or ``sqlite`` (the engines a backup knows)."""
    vendor = connection.vendor
    if vendor not in ("postgresql", "sqlite"):
        raise BackupError(f"backups support PostgreSQL and SQLite, not {vendor}")
    return vendor


def _pg_environment() -> dict[str, str]:
    """libpq's variables for the default database (pg_dump and pg_restore read them)."""
    db = settings.DATABASES["default"]
    env = dict(os.environ)
    for key, variable in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"),
                          ("PASSWORD", "PGPASSWORD"), ("NAME", "PGDATABASE")):
        value = db.get(key)
        if value:
            env[variable] = str(value)
    if (db.get("OPTIONS") or {}).get("sslmode"):
        env["PGSSLMODE"] = db["OPTIONS"]["sslmode"]
    return env


def _run_tool(*args: str) -> None:
    """Run pg_dump or pg_restore from the PATH; a failure is a ``BackupError`` with its stderr."""
    if shutil.which(args[0]) is None:
        raise BackupError(f"{args[0]} is not on the PATH (install the PostgreSQL client)")
    done = subprocess.run(args, env=_pg_environment(), capture_output=True, text=True,
                          timeout=TOOL_TIMEOUT)
    if done.returncode != 0:
        raise BackupError(f"{args[0]} failed: {done.stderr.strip()}")


def dump_database(target: Path) -> str:
    """Write the database to ``target``; return the archive member it becomes."""
    if engine() == "postgresql":
        _run_tool("pg_dump", "--format=custom", "--no-owner", "--no-privileges",
                  f"--file={target}")
        return POSTGRES_DUMP
    connection.ensure_connection()
    with sqlite3.connect(target) as copy:
        connection.connection.backup(copy)
    copy.close()
    return SQLITE_FILE


def _database_is_empty() -> bool:
    with connection.cursor() as cursor:
        return not connection.introspection.table_names(cursor)


def load_database(source: Path, member: str) -> None:
    """Load a dump into the default database, which must be empty and of the same engine."""
    wanted = "postgresql" if member == POSTGRES_DUMP else "sqlite"
    if engine() != wanted:
        raise BackupError(f"the archive holds a {wanted} database; DATABASE_URL names "
                          f"{connection.vendor}: restore into the same engine")
    if not _database_is_empty():
        raise BackupError("the database is not empty: restore into a fresh database "
                          "(create it, do not migrate it)")
    if wanted == "postgresql":
        connection.close()
        _run_tool("pg_restore", "--no-owner", "--no-privileges", "--exit-on-error",
                  "--single-transaction", f"--dbname={settings.DATABASES['default']['NAME']}",
                  str(source))
        return
    connection.ensure_connection()
    with sqlite3.connect(source) as dump:
        dump.backup(connection.connection)
    dump.close()


def applied_migrations() -> dict[str, str]:
    """The last applied migration of each app (as the manifest records it)."""
    latest: dict[str, str] = {}
    for app, name in MigrationRecorder(connection).applied_migrations():
        latest[app] = max(latest.get(app, ""), name)
    return dict(sorted(latest.items()))


# -- files ----------------------------------------------------------------------------------


def _tree(root: Path, prefix: str) -> dict[str, Path]:
    """Every file under ``root`` by its archive name (``prefix/relative/path``)."""
    if not root.is_dir():
        return {}
    return {f"{prefix}/{path.relative_to(root).as_posix()}": path
            for path in sorted(root.rglob("*")) if path.is_file() and not path.name.startswith(
                ".signing-identity.lock")}


def backed_up_files() -> dict[str, Path]:
    """The stored files and the signing identity, by archive name."""
    files = _tree(Path(settings.MEDIA_ROOT), "media")
    files.update(_tree(Path(settings.PROTOCOL_SIGNING_DIR), "signing"))
    for setting, name in (("PROTOCOL_SIGNING_KEY", KEY_FILENAME),
                          ("PROTOCOL_SIGNING_CERT", CERT_FILENAME)):
        if getattr(settings, setting):
            files[f"signing/configured/{name}"] = Path(getattr(settings, setting))
    for number, path in enumerate(extra_trusted_certificates()):
        files[f"signing/extra-trusted/{number:03d}-{path.name}"] = path
    return files


def _restore_target(name: str) -> Path:
    """Where a restored member goes under this installation's settings."""
    parts = PurePosixPath(name).parts
    if ".." in parts or PurePosixPath(name).is_absolute() or len(parts) < 2:
        raise BackupError(f"the archive holds an unsafe name: {name}")
    top, rest = parts[0], Path(*parts[1:])
    signing = Path(settings.PROTOCOL_SIGNING_DIR)
    if top == "media":
        return Path(settings.MEDIA_ROOT) / rest
    if top == "signing" and parts[1] == "configured":
        setting = "PROTOCOL_SIGNING_KEY" if parts[-1] == KEY_FILENAME else "PROTOCOL_SIGNING_CERT"
        return Path(getattr(settings, setting) or signing / parts[-1])
    if top == "signing" and parts[1] == "extra-trusted":
        return signing / TRUSTED_DIRNAME / parts[-1]
    if top == "signing":
        return signing / rest
    raise BackupError(f"the archive holds an unknown member: {name}")


# -- the archive ----------------------------------------------------------------------------


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def make_backup(target: Path | str) -> Manifest:
    """Write the installation's archive to ``target`` (a new file); return its manifest."""
    target = Path(target)
    if target.exists():
        raise BackupError(f"{target} exists: choose a new file")
    with tempfile.TemporaryDirectory(prefix="domino-backup-") as scratch:
        dump = Path(scratch) / "database"
        member = dump_database(dump)
        files = {member: dump, **backed_up_files()}
        manifest = Manifest(engine=engine(),
                            created_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                            migrations=applied_migrations(),
                            sha256={name: _digest(path) for name, path in files.items()})
        partial = target.with_name(f".{target.name}.partial")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # holds the key
        with os.fdopen(fd, "wb") as raw, tarfile.open(fileobj=raw, mode="w:gz") as tar:
            text = json.dumps({"format": FORMAT, "version": VERSION, **manifest.__dict__},
                              indent=1).encode()
            info = tarfile.TarInfo("manifest.json")
            info.size, info.mode = len(text), 0o600
            tar.addfile(info, io.BytesIO(text))
            for name, path in files.items():
                tar.add(path, arcname=name, recursive=False)
        partial.replace(target)
    return manifest


def read_manifest(tar: tarfile.TarFile) -> Manifest:
    """The archive's manifest, its format and version checked."""
    try:
        doc = json.load(tar.extractfile("manifest.json"))  # type: ignore[arg-type]
    except (KeyError, ValueError, TypeError) as exc:
        raise BackupError(f"not a backup archive (no readable manifest.json): {exc}") from exc
    if doc.get("format") != FORMAT or doc.get("version") != VERSION:
        raise BackupError(f"not a backup of this kind: format {doc.get('format')!r}, "
                          f"version {doc.get('version')!r} ({FORMAT!r} {VERSION} expected)")
    return Manifest(engine=doc["engine"], created_at=doc.get("created_at", ""),
                    migrations=doc.get("migrations", {}), sha256=doc.get("sha256", {}))


def _unpack(source: Path, into: Path) -> Manifest:
    """Extract every member the manifest lists into ``into``, each checked by its SHA-256."""
    try:
        tar = tarfile.open(source, mode="r:gz")
    except (OSError, tarfile.TarError) as exc:
        raise BackupError(f"cannot read {source}: {exc}") from exc
    with tar:
        manifest = read_manifest(tar)
        for name, expected in manifest.sha256.items():
            if name not in (POSTGRES_DUMP, SQLITE_FILE):
                _restore_target(name)  # refuses unsafe names before anything is written
            try:
                member = tar.extractfile(name)
            except KeyError as exc:
                raise BackupError(f"the archive lacks {name}") from exc
            if member is None:
                raise BackupError(f"{name} in the archive is not a file")
            path = into / name
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "wb") as out:
                shutil.copyfileobj(member, out)
            if _digest(path) != expected:
                raise BackupError(f"{name} in the archive is damaged (SHA-256 differs)")
    return manifest


def restore_backup(source: Path | str) -> Manifest:
    """Restore an archive into this installation: an empty database, files that do not clash.

    Everything is checked first (the archive's checksums, the database empty and of the same
    engine, no existing file with other content); then the database is loaded and the files
    are written. Run ``manage.py migrate`` afterwards when this code is newer than the backup.
    """
    with tempfile.TemporaryDirectory(prefix="domino-restore-") as scratch:
        root = Path(scratch)
        manifest = _unpack(Path(source), root)
        database = next((m for m in (POSTGRES_DUMP, SQLITE_FILE) if m in manifest.sha256), None)
        if database is None:
            raise BackupError("the archive holds no database")
        writes = [(name, root / name, _restore_target(name)) for name in manifest.sha256
                  if name != database]
        clashes = [str(target) for _name, unpacked, target in writes
                   if target.exists() and _digest(target) != _digest(unpacked)]
        if clashes:
            raise BackupError("these files exist with other content (move them away first): "
                              + ", ".join(clashes))
        load_database(root / database, database)
        for name, unpacked, target in writes:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(unpacked, target)
            target.chmod(0o600 if PurePosixPath(name).name == KEY_FILENAME else 0o644)
    return manifest


def describe(manifest: Manifest) -> dict[str, Any]:
    """A short summary of a manifest for the commands' output."""
    return {"engine": manifest.engine, "created_at": manifest.created_at, **manifest.counts()}
