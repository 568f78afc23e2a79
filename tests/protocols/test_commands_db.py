"""The desk commands: protocol_pdf, print_round and signing_identity; the demo's protocols."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.protocols import verify_pdf
from scoring.signoff.content import party_players
from scoring.signoff.identity import certificate_path
from scoring.signoff.services import countersign, sign_as_player
from tests.protocols.conftest import page_count, pdf_text

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_protocol_pdf_writes_a_draft_then_the_signed_version(
    finished_party, player_users, referee_user, tmp_path
):
    target = tmp_path / "p.pdf"
    assert "unsigned draft" in run("protocol_pdf", str(finished_party.pk), "--output",
                                   str(target))
    assert "черновик" in pdf_text(target.read_bytes(), tmp_path)
    for user, (_seat, player) in zip(player_users, party_players(finished_party), strict=True):
        sign_as_player(finished_party.pk, player_id=player.pk, actor=user)
    countersign(finished_party.pk, actor=referee_user)
    assert "signed version 1" in run("protocol_pdf", str(finished_party.pk), "-o", str(target))
    assert verify_pdf(target.read_bytes(), certificate_path()).ok


def test_print_round_blank_and_signed(finished_party, tmp_path, make_party):
    make_party(table_number=2, round_number=finished_party.round.number,
               pair_a=finished_party.round.tournament.pairs.order_by("id")[2],
               pair_b=finished_party.round.tournament.pairs.order_by("id")[3])
    target = tmp_path / "round.pdf"
    out = run("print_round", str(finished_party.round_id), "--output", str(target), "--blank")
    assert "2 protocols (blank)" in out and page_count(target.read_bytes()) == 2
    with pytest.raises(CommandError):  # nothing signed yet
        run("print_round", str(finished_party.round_id), "--output", str(target))


def test_signing_identity_is_made_once(protocol_env):
    first = run("signing_identity")
    assert "certificate:" in first and "SHA-256:" in first
    assert run("signing_identity") == first


def test_signing_identity_accepts_a_configured_key(protocol_env, tmp_path):
    from scoring.protocols import ensure_signing_identity

    key, cert = ensure_signing_identity(tmp_path / "real")
    protocol_env.PROTOCOL_SIGNING_KEY, protocol_env.PROTOCOL_SIGNING_CERT = str(key), str(cert)
    assert str(cert) in run("signing_identity")
    protocol_env.PROTOCOL_SIGNING_CERT = ""
    with pytest.raises(CommandError):
        run("signing_identity")


def test_demo_has_signed_verifiable_protocols(protocol_env):
    from scoring.models import Protocol

    run("seed_demo")
    signed = Protocol.objects.filter(status=Protocol.Status.SIGNED)
    assert signed.count() >= 8
    for protocol in signed[:3]:
        assert verify_pdf(protocol.file.read(), certificate_path()).ok
