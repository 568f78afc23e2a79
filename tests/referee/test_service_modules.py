"""The referee desk's modules: one job each, none over 500 lines; the services log changes."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

import referee
from referee import services

ROOT = Path(referee.__file__).parent


def test_callers_keep_the_public_names():
    for name in ("start_party", "pause_clock", "give_warning", "give_fine", "cancel_penalty",
                 "rule_out_of_turn", "disqualify", "rule_udl_violation", "assign_referee",
                 "WARNING_CATEGORIES", "referee_settings"):
        assert callable(getattr(services, name)) or getattr(services, name)


@pytest.mark.django_db
def test_each_state_change_is_logged_with_the_party_and_the_actor(party, referee_user, caplog):
    with caplog.at_level(logging.INFO, logger="referee.services"):
        services.pause_clock(party.pk, actor=referee_user, reason="врач")
        services.give_warning(party.pk, side="a", category="talking", actor=referee_user)
    lines = [(r.name, r.getMessage()) for r in caplog.records if r.levelno == logging.INFO]
    assert [name for name, _ in lines] == ["referee.services.clock", "referee.services.penalties"]
    for _name, message in lines:
        assert f"party {party.pk}" in message and f"actor {referee_user.pk}" in message
