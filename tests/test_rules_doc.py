"""docs/rules.md is trustworthy: every code reference and test name in its tables exists.

A row maps a rule of the seeds to its setting, its code (``module:function``) and its named
test (``tests/…py::test_name``). Only rows whose status starts "in progress" or "left to
people" may lack code or a test; "no test yet" stands in for a missing test; every reference
given must resolve: the module imports and has the attribute path, the test file defines the
function.
"""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
CODE_REF = re.compile(r"`([a-z_][\w.]*):([A-Za-z_][\w.]*)`")
TEST_REF = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
EXEMPT = ("in progress", "left to people")


def rows() -> list[tuple[str, str, str, str]]:
    """(row id, code cell, test cell, status cell) of every table row of docs/rules.md."""
    found = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 6 and re.fullmatch(r"[A-Z]\d+", cells[0]):
            found.append((cells[0], cells[3], cells[4], cells[5]))
    return found


@cache
def defined_tests(path: str) -> frozenset[str]:
    """The names of the functions a test file defines (module level or in classes)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return frozenset(
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    )


def resolves(module: str, qualname: str) -> bool:
    """Whether ``module`` imports and has the attribute path ``qualname``."""
    try:
        target: object = importlib.import_module(module)
    except ImportError:
        return False
    for part in qualname.split("."):
        if not hasattr(target, part):
            return False
        target = getattr(target, part)
    return callable(target)


def test_a_broken_reference_is_caught():
    assert not resolves("scoring.rules.latin", "LatinGame.no_such_function")
    assert not resolves("scoring.rules.no_such_module", "anything")
    assert "test_a_broken_reference_is_caught" in defined_tests("tests/test_rules_doc.py")


def test_the_table_lists_the_seed_rules():
    ids = [row[0] for row in rows()]
    assert len(ids) >= 40 and len(set(ids)) == len(ids), "row ids are missing or repeated"
    assert {"L1", "L5", "L7", "L8"} <= set(ids)  # the Latin game of seed 004


@pytest.mark.parametrize("row", rows(), ids=lambda row: row[0])
def test_every_row_has_code_and_a_test_or_says_why_not(row):
    row_id, code, test, status = row
    if status.startswith(EXEMPT) and not CODE_REF.search(code):
        return
    assert CODE_REF.search(code), f"{row_id}: no `module:function` and not in progress"
    assert TEST_REF.search(test) or "no test yet" in test, f"{row_id}: no named test"


@pytest.mark.parametrize("row", rows(), ids=lambda row: row[0])
def test_every_reference_exists(row):
    row_id, code, test, status = row
    if status.startswith(EXEMPT) and not CODE_REF.search(code):
        return
    missing = [f"{m}:{q}" for m, q in CODE_REF.findall(code) if not resolves(m, q)]
    for path, name in TEST_REF.findall(test):
        if not (ROOT / path).is_file() or name not in defined_tests(path):
            missing.append(f"{path}::{name}")
    assert not missing, f"{row_id}: not found: {', '.join(missing)}"
