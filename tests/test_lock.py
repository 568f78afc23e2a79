"""The locks: the suite runs on exactly the packages CI tested, and the locks agree with the pins.

``make install`` installs ``requirements-dev.lock`` hash-checked and removes anything else
(``pip-sync``); ``make lock`` writes both locks from the pinned top-level files.
"""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==(\S+)", re.M)


def _key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins(path: Path) -> dict[str, str]:
    """``{normalized name: version}`` of a requirements or lock file's ``name==version`` lines."""
    return {_key(name): version for name, version in PIN.findall(path.read_text())}


def test_every_locked_package_has_hashes_and_nothing_floats():
    for lock in ("requirements.lock", "requirements-dev.lock"):
        text = (ROOT / lock).read_text()
        entries = re.findall(r"^([^\s#].*)((?:\n[ \t]+.*)*)", text, re.M)  # a line + its hashes
        assert len(entries) > 50
        for first, rest in entries:
            assert PIN.match(first), f"{lock}: not pinned with ==: {first}"
            assert "--hash=sha256:" in rest, f"{lock}: no hash for {first}"


def test_the_locks_agree_with_the_pinned_requirements_and_with_each_other():
    runtime, dev = _pins(ROOT / "requirements.lock"), _pins(ROOT / "requirements-dev.lock")
    for top, lock in (("requirements.txt", runtime), ("requirements-dev.txt", dev)):
        for name, version in _pins(ROOT / top).items():
            assert lock.get(name) == version, f"{top} pins {name}=={version}: run `make lock`"
    assert {name: dev.get(name) for name in runtime} == runtime  # the site's own versions


def test_the_suite_runs_on_exactly_the_lock():
    installed = {_key(d.metadata["Name"]): d.version for d in metadata.distributions()}
    locked = _pins(ROOT / "requirements-dev.lock")
    missing = {n: v for n, v in locked.items() if installed.get(n) != v}
    extra = sorted(set(installed) - set(locked) - {"pip", "setuptools", "wheel"})
    assert not missing, f"not installed at the locked version: {missing} (run `make install`)"
    assert not extra, f"installed but not in the lock: {extra} (run `make install`)"
