"""The round flow and registration leave INFO lines with ids in the log."""

from __future__ import annotations

import logging

from scoring.models import Player
from tests.tournaments.play import play_round
from tournaments.registration.services import register_pair, register_player, withdraw_pair
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds


def _messages(caplog, name):
    return [r.getMessage() for r in caplog.records if r.name == name and r.levelno == logging.INFO]


def test_round_flow_is_logged_with_ids(
    caplog, tournament, organizer, django_capture_on_commit_callbacks
):
    caplog.set_level(logging.INFO)
    rnd = rounds.create_round(tournament.pk, actor=organizer)
    draw_services.generate_draw(rnd.pk, actor=organizer)
    rounds.publish_round(rnd.pk, actor=organizer)
    rounds.start_round(rnd.pk, actor=organizer)
    play_round(rnd.pk, winner="a")
    with django_capture_on_commit_callbacks(execute=True):
        rounds.close_round(rnd.pk, actor=organizer)
    ids = f"tournament={tournament.pk} round={rnd.pk}"
    lines = [*_messages(caplog, "tournaments.rounds.services"),
             *_messages(caplog, "tournaments.rounds.draw_services")]
    for state in ("created", "drawn", "published", "started", "closed"):
        assert any(line.startswith(f"round {state}: {ids}") for line in lines), state
    assert any(f"actor={organizer.pk}" in line for line in lines)
    assert any(
        line == f"standings warmed: tournament={tournament.pk} lines=8"
        for line in _messages(caplog, "tournaments.tasks")
    )


def test_registration_is_logged_with_ids(caplog, tournament):
    caplog.set_level(logging.INFO)
    first = register_player(tournament, name="Новый Игрок")
    second = Player.objects.create(tournament=tournament, name="Второй Игрок")
    pair = register_pair(tournament, first, second)
    withdraw_pair(pair.pk)
    lines = _messages(caplog, "tournaments.registration.services")
    assert f"player registered: tournament={tournament.pk} player={first.pk}" in lines
    assert (f"pair registered: tournament={tournament.pk} pair={pair.pk} "
            f"players={first.pk},{second.pk}") in lines
    assert f"pair withdrawn: tournament={tournament.pk} pair={pair.pk}" in lines
