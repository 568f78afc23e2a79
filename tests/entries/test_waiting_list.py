"""The waiting list: beyond the places an entry waits; a withdrawal moves the first one up,
with its mail; accepted entries become pairs."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from scoring.models import Entry, Pair
from tournaments.entries.decisions import decide_entry, update_entry_settings, withdraw_own_entry

pytestmark = pytest.mark.django_db


def test_seventeenth_pair_waits_and_moves_up_when_a_pair_withdraws(
        open_cup, enter_pair, django_capture_on_commit_callbacks):
    entries = [enter_pair(open_cup, n) for n in range(1, 18)]
    assert [e.status for e in entries[:16]] == ["received"] * 16
    assert entries[16].status == "waiting"
    received = [m for m in mail.outbox if "player17@example.org" in m.to]
    assert received and "ожидания" in received[0].subject  # the tournament's language: ru
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _gone, promoted = withdraw_own_entry(entries[3].pk)
    assert [e.pk for e in promoted] == [entries[16].pk]
    assert Entry.objects.get(pk=entries[16].pk).status == "received"
    to = sorted(address for m in mail.outbox for address in m.to)
    assert to == ["partner17@example.org", "player17@example.org"]
    assert "Открытый кубок" in mail.outbox[0].subject
    assert re.search(r"/entries/[^/\s]+/", mail.outbox[0].body)


def test_accepting_makes_the_pair_and_withdrawing_it_frees_the_place(
        open_cup, enter_pair, django_capture_on_commit_callbacks):
    update_entry_settings(open_cup.pk, capacity=1)
    first, second = enter_pair(open_cup, 1), enter_pair(open_cup, 2)
    assert (first.status, second.status) == ("received", "waiting")
    with django_capture_on_commit_callbacks(execute=True):
        accepted, promoted = decide_entry(first.pk, "accept")
    pair = Pair.objects.get(pk=accepted.pair_id)
    assert [p.name for p in pair.players] == ["Игрок 1", "Партнёр 1"]
    assert pair.player1.profile is not None and pair.player1.user.username == "player1"
    assert promoted == []
    with django_capture_on_commit_callbacks(execute=True):
        _entry, promoted = decide_entry(first.pk, "withdraw")
    assert Pair.objects.get(pk=pair.pk).withdrawn
    assert [e.pk for e in promoted] == [second.pk]


def test_more_places_move_the_waiting_list_up(open_cup, enter_pair):
    update_entry_settings(open_cup.pk, capacity=1)
    enter_pair(open_cup, 1)
    waiting = enter_pair(open_cup, 2)
    _conf, promoted = update_entry_settings(open_cup.pk, capacity=2)
    assert [e.pk for e in promoted] == [waiting.pk]


def test_an_entry_waiting_cannot_be_accepted_over_the_places(open_cup, enter_pair):
    from scoring.core.errors import ServiceError

    update_entry_settings(open_cup.pk, capacity=1)
    enter_pair(open_cup, 1)
    waiting = enter_pair(open_cup, 2)
    with pytest.raises(ServiceError, match="waiting list"):
        decide_entry(waiting.pk, "accept")


def test_the_promotion_mail_lands_in_the_file_backend(open_cup, enter_pair, settings, tmp_path,
                                                      django_capture_on_commit_callbacks):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"  # the default
    settings.EMAIL_FILE_PATH = str(tmp_path)
    update_entry_settings(open_cup.pk, capacity=1)
    first, waiting = enter_pair(open_cup, 1), enter_pair(open_cup, 2)
    for written in tmp_path.iterdir():
        written.unlink()
    with django_capture_on_commit_callbacks(execute=True):
        withdraw_own_entry(first.pk)
    text = "".join(f.read_text(encoding="utf-8") for f in tmp_path.iterdir())
    assert "player2@example.org" in text and "partner2@example.org" in text
    assert Entry.objects.get(pk=waiting.pk).status == "received"
