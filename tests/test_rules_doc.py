"""docs/rules.md is trustworthy: every code reference and test in its tables exists, and every
cited test names the row it proves.

A row maps a rule of the seeds to its setting, its code (``module:function``) and its named
tests (``tests/…py::test_name``). Only rows whose status starts "in progress" or "left to
people" may lack code or a test; "no test yet" stands in for a missing test; every reference
given must resolve: the module imports and has the attribute path, the test file defines the
function, and the function's docstring names the row (it opens with ``(rules.md S1, S2)``):
the test was written or checked for exactly that rule, not merely found. A row "in progress"
names the open issue that asks for it (``#34``).
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
MINIMUM_ROWS = 80


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


@cache
def docstrings(path: str) -> dict[str, str]:
    """The docstrings of the functions a test file defines, by name ("" for none)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return {
        node.name: ast.get_docstring(node) or ""
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def names_row(docstring: str, row_id: str) -> bool:
    """Whether a docstring names a row: a "(rules.md …)" mark listing ``row_id``."""
    return any(
        re.search(rf"(?<![\w.]){row_id}\b", mark)
        for mark in re.findall(r"\(rules\.md ([^)]*)\)", docstring)
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


def test_a_test_that_does_not_name_its_row_is_caught():
    assert names_row("(rules.md S1) A deal is worth at most 168.", "S1")
    assert names_row("(rules.md S14, S16, S17) Conduct.", "S16")
    assert not names_row("(rules.md S10) A no-show.", "S1")  # S10 is not S1
    assert not names_row("(rules.md S1) A deal.", "S10")
    assert not names_row("S1: a deal of 168, see S1.", "S1")  # no rules.md mark
    assert not names_row("(rules.md K2) Redeal.", "K")
    assert not names_row("", "S1")


def test_the_table_lists_the_seed_rules():
    ids = [row[0] for row in rows()]
    assert len(ids) >= MINIMUM_ROWS, f"{len(ids)} rows: every rule of the seeds has one"
    assert len(set(ids)) == len(ids), "row ids are repeated"
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


@pytest.mark.parametrize("row", rows(), ids=lambda row: row[0])
def test_every_cited_test_names_its_row(row):
    row_id, _code, test, _status = row
    unnamed = [
        f"{path}::{name}"
        for path, name in TEST_REF.findall(test)
        if (ROOT / path).is_file() and not names_row(docstrings(path).get(name, ""), row_id)
    ]
    assert not unnamed, f"{row_id}: the docstring does not name (rules.md {row_id}): {unnamed}"


@pytest.mark.parametrize("row", rows(), ids=lambda row: row[0])
def test_a_row_in_progress_names_its_issue(row):
    row_id, _code, _test, status = row
    if "in progress" in status:
        assert re.search(r"#\d+", status), f"{row_id}: in progress, but for which issue?"
