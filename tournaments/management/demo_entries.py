"""The demo's coming tournament: today's spring cup taking entries on the site (most pairs
accepted, two more waiting for a place), with its timetable and check-in before round 1 open,
so that the calendar, the tournament's page, the entries and the check-in have something to
show. Built through the services as the players and the organizer would."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from scoring.models import Entry, Tournament
from tournaments.checkin import services as checkin
from tournaments.entries.decisions import decide_entry, update_entry_settings
from tournaments.entries.services import Person, confirm_partner, create_entry
from tournaments.entries.tokens import make_token
from tournaments.registration.services import add_table
from tournaments.rounds import services as rounds
from tournaments.schedule.services import create_item
from tournaments.setup.services import create_tournament

ENTRIES_SLUG = "spring-cup"
#: Places (pairs) the cup takes; the pairs that enter beyond them wait.
PLACES = 12
#: Of the pairs holding a place, how many the organizer has accepted (the others await him).
ACCEPTED = 10
#: The pairs entering: the player (a demo login entrant01 …) and his partner (by name).
PAIRS = (
    ("Аркадий Белов", "Виктор Гусев"), ("Галина Дёмина", "Евгения Жукова"),
    ("Захар Ильин", "Кирилл Лапин"), ("Марина Носова", "Оксана Панова"),
    ("Роман Седов", "Тимур Уваров"), ("Фаина Харитонова", "Цецилия Чернова"),
    ("Шамиль Щеглов", "Эрик Юсупов"), ("Яна Абрамова", "Богдан Власов"),
    ("Глеб Давыдов", "Егор Ершов"), ("Жанна Зуева", "Инна Карпова"),
    ("Леонид Мухин", "Никита Орлов"), ("Полина Рябова", "Светлана Титова"),
    ("Ульяна Фомина", "Христофор Цветков"), ("Чеслав Шубин", "Эльдар Юрьев"),
)


def build_entries_cup(command: Any) -> Tournament:
    """Today's cup: entries open (12 places: 10 pairs accepted, 2 awaiting the organizer, 2
    waiting for a place), tables, round 1 planned in two hours with the hall's opening, a
    break and the prize-giving, and check-in before round 1 open until ten minutes before."""
    organizer = command.demo_organizer()
    start = (timezone.now() + timedelta(hours=2)).replace(minute=0, second=0, microsecond=0)
    tournament = create_tournament(
        name="Весенний кубок · Spring Cup", slug=ENTRIES_SLUG, organizer=organizer,
        venue="Клуб «Дубль»", city="Казань", start_date=timezone.localdate(),
        time_zone="Europe/Moscow")
    for number in range(1, PLACES // 2 + 1):
        add_table(tournament, number)
    update_entry_settings(tournament.pk, actor=organizer, open=True, capacity=PLACES,
                          closes_at=start - timedelta(minutes=30))
    for n, (player, partner) in enumerate(PAIRS, start=1):
        first, _sep, last = player.partition(" ")
        user = command.demo_user(f"entrant{n:02d}", first, last,
                                 email=f"entrant{n:02d}@example.org")
        entry = create_entry(tournament.pk, Person(name=player), Person(
            name=partner, email=f"partner{n:02d}@example.org"), user=user)
        entry = confirm_partner(make_token("partner", entry.pk))
        if n <= ACCEPTED and entry.status == Entry.Status.RECEIVED:
            decide_entry(entry.pk, "accept", actor=organizer)
    first_round = rounds.create_round(tournament.pk, actor=organizer)
    rounds.schedule_round(first_round.pk, start, actor=organizer)
    create_item(tournament, actor=organizer, kind="opening", starts_at=start - timedelta(hours=1))
    create_item(tournament, actor=organizer, kind="break", starts_at=start + timedelta(hours=2),
                ends_at=start + timedelta(hours=2, minutes=30))
    create_item(tournament, actor=organizer, kind="prizes", starts_at=start + timedelta(hours=5))
    checkin.open_window(tournament, closes_at=start - timedelta(minutes=10), actor=organizer)
    return tournament
