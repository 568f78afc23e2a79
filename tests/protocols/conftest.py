"""Fixtures for the protocol PDF tests: a signing identity in a temp dir, PDF helpers."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from pyhanko.pdf_utils.reader import PdfFileReader

from scoring.protocols import ensure_signing_identity, get_signer


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} not found: install poppler-utils (apt-get install poppler-utils)")
    return path


def pdf_text(pdf: bytes, tmp_path: Path, *, first: int | None = None,
             last: int | None = None, layout: bool = True) -> str:
    """Extract the text of a PDF (or of a page range) with poppler's pdftotext."""
    source = tmp_path / f"text-{abs(hash(pdf))}.pdf"
    source.write_bytes(pdf)
    cmd = [_tool("pdftotext"), "-enc", "UTF-8"]
    if layout:
        cmd.append("-layout")
    if first is not None:
        cmd += ["-f", str(first)]
    if last is not None:
        cmd += ["-l", str(last)]
    cmd += [str(source), "-"]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def pdfsig(pdf: bytes, tmp_path: Path) -> str:
    """Run poppler's pdfsig on a PDF and return what it prints."""
    source = tmp_path / f"sig-{abs(hash(pdf))}.pdf"
    source.write_bytes(pdf)
    done = subprocess.run([_tool("pdfsig"), str(source)], capture_output=True, text=True)
    return done.stdout + done.stderr


def page_count(pdf: bytes) -> int:
    """Count pages with pyHanko's PDF reader (independent of poppler)."""
    reader = PdfFileReader(io.BytesIO(pdf), strict=False)
    return int(reader.root["/Pages"]["/Count"])


@pytest.fixture(scope="session")
def identity(tmp_path_factory) -> tuple[Path, Path]:
    """The installation's signing key and certificate, created once in a temp dir."""
    return ensure_signing_identity(tmp_path_factory.mktemp("signing"))


@pytest.fixture(scope="session")
def signer(identity):
    return get_signer(*identity)


@pytest.fixture(scope="session")
def cert_path(identity) -> Path:
    return identity[1]
