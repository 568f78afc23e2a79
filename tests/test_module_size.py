"""Modules of one job: no module outside migrations and tests is over 500 lines."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 500
PACKAGES = ("config", "tournaments", "scoring", "referee", "bench")


def offenders() -> list[str]:
    """Every module over the limit, with its length."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > LIMIT:
                found.append(f"{path.relative_to(ROOT)}: {lines} lines")
    return found


def test_no_module_is_over_500_lines():
    assert offenders() == []
