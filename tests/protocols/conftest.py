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


# -- database fixtures: a finished party, signing and media in temporary directories ---------

DEALS = [  # (kwargs for record_deal, points A, points B)
    ({"outcome": "domino", "winner": "a", "points": {"a": 60, "b": 0}}, 60, 0),
    ({"outcome": "fish", "pips": {"a1": 20, "a2": 15, "b1": 5, "b2": 7}}, 0, 47),
    ({"outcome": "domino", "winner": "a", "points": {"a": 55, "b": 0}}, 55, 0),
    ({"outcome": "domino", "went_out": "b2",
      "pips": {"a1": 12, "a2": 11, "b1": 10, "b2": 0}}, 0, 33),
    ({"outcome": "domino", "winner": "a", "points": {"a": 70, "b": 0}}, 70, 0),
    ({"outcome": "domino", "winner": "a", "points": {"a": 45, "b": 0}}, 45, 0),
]
FINE = 25


@pytest.fixture
def protocol_env(settings, tmp_path):
    """Signing key, certificate and stored files in temporary directories."""
    settings.PROTOCOL_SIGNING_DIR = tmp_path / "signing"
    settings.PROTOCOL_SIGNING_KEY = ""
    settings.PROTOCOL_SIGNING_CERT = ""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.SITE_URL = "https://domino.example.org"
    return settings


def play_out(party, referee):
    """Record the deals of ``DEALS`` with a warning and a fine between them: A wins 205 : 80."""
    from referee.services import give_fine, give_warning
    from scoring.party.deals import record_deal

    for number, (kwargs, _a, _b) in enumerate(DEALS, start=1):
        if number == 4:
            give_warning(party.pk, side="b", category="talking", seat="b1",
                         reason="Разговоры во время кона", actor=referee)
            give_fine(party.pk, side="a", category="other", seat="a2", points=FINE,
                      reason="Опоздание", actor=referee)
        record_deal(party.pk, actor=referee, **kwargs)
    party.refresh_from_db()
    return party


@pytest.fixture
def finished_party(protocol_env, party, referee_user):
    """A party at table 1 that pair A won 205 : 80 by the target, with a warning and a fine."""
    return play_out(party, referee_user)


@pytest.fixture
def player_users(finished_party, make_user):
    """Logins for the four players of ``finished_party``, in seat order (a1, a2, b1, b2)."""
    from scoring.signoff.content import party_players

    users = []
    for seat, player in party_players(finished_party):
        user = make_user(f"player-{seat}-{player.pk}")
        player.user = user
        player.save(update_fields=["user"])
        users.append(user)
    finished_party.refresh_from_db()
    return users


def sign_off(party, users, referee):
    """All four players sign on their own logins, then the referee countersigns."""
    from scoring.signoff.content import party_players
    from scoring.signoff.services import countersign, sign_as_player

    for user, (_seat, player) in zip(users, party_players(party), strict=True):
        sign_as_player(party.pk, player_id=player.pk, actor=user)
    return countersign(party.pk, actor=referee)


@pytest.fixture
def signed(finished_party, player_users, referee_user):
    """The finished party's protocol signed off: ``(protocol, its signed PDF)``."""
    protocol = sign_off(finished_party, player_users, referee_user)
    with protocol.file.open("rb") as handle:
        return protocol, handle.read()
