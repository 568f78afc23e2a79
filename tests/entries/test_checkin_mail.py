""""Check-in is open": mailed once to the entrants with an address when a window opens, at
once or when its opening passes (the beat's sweep); not when switched off for the tournament."""

from __future__ import annotations

from datetime import timedelta

from django.core import mail
from django.utils import timezone

from scoring.models import CheckInWindow
from tournaments.checkin import services as checkin
from tournaments.checkin.tasks import close_windows
from tournaments.entries.decisions import decide_entry, update_entry_settings

EVERYONE = {f"{who}{n}@example.org" for who in ("player", "partner") for n in (1, 2, 3)}


def _accepted_pairs(cup, enter_pair) -> None:
    """Three pairs entered on the site and accepted (six players with addresses)."""
    for n in (1, 2, 3):
        decide_entry(enter_pair(cup, n).pk, "accept")
    mail.outbox.clear()


def _opened_mails() -> list[mail.EmailMessage]:
    """The "check-in is open" mails sent so far (the tournament speaks Russian)."""
    return [m for m in mail.outbox if "открыта отметка" in m.subject]


def test_a_window_opened_now_mails_every_entrant_once(open_cup, enter_pair,
                                                      django_capture_on_commit_callbacks):
    _accepted_pairs(open_cup, enter_pair)
    with django_capture_on_commit_callbacks(execute=True):
        window = checkin.open_window(open_cup, closes_at=timezone.now() + timedelta(minutes=40))
    sent = _opened_mails()
    assert {address for m in sent for address in m.to} == EVERYONE
    assert all(len(m.to) == 1 for m in sent)  # each sees only his own address
    assert f"/t/{open_cup.slug}/me/" in sent[0].body
    assert "перед туром 1" in sent[0].subject
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        close_windows()
        checkin.change_window(window.pk, closes_at=timezone.now() + timedelta(hours=1))
    assert _opened_mails() == []


def test_a_planned_window_mails_when_its_opening_passes(open_cup, enter_pair,
                                                        django_capture_on_commit_callbacks):
    _accepted_pairs(open_cup, enter_pair)
    later = timezone.now() + timedelta(hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        window = checkin.open_window(open_cup, opens_at=later,
                                     closes_at=later + timedelta(minutes=30))
        close_windows()
    assert _opened_mails() == []  # planned, not open yet
    # an hour on: the window's opening has passed
    CheckInWindow.objects.filter(pk=window.pk).update(
        opens_at=timezone.now() - timedelta(minutes=1))
    with django_capture_on_commit_callbacks(execute=True):
        close_windows()
    assert {address for m in _opened_mails() for address in m.to} == EVERYONE
    assert CheckInWindow.objects.get(pk=window.pk).announced_at is not None


def test_no_mail_when_switched_off_for_the_tournament(open_cup, enter_pair,
                                                      django_capture_on_commit_callbacks):
    _accepted_pairs(open_cup, enter_pair)
    update_entry_settings(open_cup.pk, disabled_mails=["checkin_open"])
    with django_capture_on_commit_callbacks(execute=True):
        checkin.open_window(open_cup, closes_at=timezone.now() + timedelta(minutes=40))
    assert _opened_mails() == []
