"""Build the demo tournament: 16 pairs, 8 tables, two finished rounds and one in progress.

The rounds go through the round-flow services and the Swiss draw, as an organizer's would.
"""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand
from django.db import transaction

from referee import services as referee_services
from scoring import services as scoring_services
from scoring.demo import sign_demo_protocols
from tournaments import rounds
from tournaments.models import Pair, Party, Player, Table, Tournament, TournamentRole
from tournaments.services import create_tournament

DEMO_SLUG = "demo-cup"
DEMO_PASSWORD = "demo"
PLAYER_NAMES = [
    "Иван Петров",
    "Сергей Смирнов",
    "Алексей Кузнецов",
    "Дмитрий Попов",
    "Андрей Соколов",
    "Михаил Лебедев",
    "Николай Козлов",
    "Владимир Новиков",
    "Ольга Морозова",
    "Мария Волкова",
    "Елена Зайцева",
    "Татьяна Павлова",
    "Юрий Семёнов",
    "Фёдор Голубев",
    "Пётр Виноградов",
    "Григорий Богданов",
    "Наталья Воробьёва",
    "Светлана Фёдорова",
    "Анатолий Михайлов",
    "Борис Беляев",
    "José García",
    "Carlos Rodríguez",
    "María Fernández",
    "Luis Martínez",
    "John Smith",
    "Anna Müller",
    "Pierre Dubois",
    "Jan Kowalski",
    "Олександр Шевченко",
    "Богдан Коваленко",
    "Ёлкин Щукин",
    "Эдуард Юдин",
]
CLUBS = ["Дубль-шесть", "Рыба", "Club Capicúa", "Камень", "Domino Riga", "Азов"]


def _deal_facts(rng: random.Random) -> dict[str, Any]:
    """Plausible pips left per player for one deal (a domino or a fish)."""
    seats = ["a1", "b1", "a2", "b2"]
    if rng.random() < 0.75:
        went_out = rng.choice(seats)
        pips = {s: (0 if s == went_out else rng.randint(3, 30)) for s in seats}
        return {"outcome": "domino", "went_out": went_out, "pips": pips}
    pips = {s: rng.randint(2, 24) for s in seats}
    if pips["a1"] + pips["a2"] == pips["b1"] + pips["b2"]:
        pips["a1"] += 1
    return {"outcome": "fish", "pips": pips}


class Command(BaseCommand):
    """Create (once) the demo tournament and its logins; running it again changes nothing."""

    help = "Load the demo tournament with logins organizer, referee, chief and player01..32."

    def handle(self, *args: Any, **options: Any) -> None:
        """Create the demo unless it exists."""
        if Tournament.objects.filter(slug=DEMO_SLUG).exists():
            self.stdout.write("The demo tournament is already loaded.")
            return
        with transaction.atomic():
            self._build()
        self.stdout.write(self.style.SUCCESS("Demo tournament loaded."))

    def _user(self, username: str, first: str = "", last: str = "", **extra: Any) -> Any:
        """Create or reuse a demo login with the demo password."""
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=username, defaults={"first_name": first, "last_name": last, **extra}
        )
        if created:
            if not hasattr(self, "_password_hash"):
                self._password_hash = make_password(DEMO_PASSWORD)
            user.password = self._password_hash
            user.save(update_fields=["password"])
        return user

    def _build(self) -> None:
        """Players, pairs, tables, three Swiss rounds drawn and played through the services."""
        rng = random.Random(20261130)
        organizer = self._user("organizer", "Олег", "Организаторов", is_staff=True)
        organizer.user_permissions.add(*Permission.objects.filter(codename__in=["add_tournament"]))
        referee = self._user("referee", "Роман", "Судьин")
        chief = self._user("chief", "Виктор", "Главный")
        second_referee = self._user("referee2", "Rita", "Referee")
        tournament = create_tournament(
            name="Кубок Дубль-шесть 2026 · Double-Six Cup",
            slug=DEMO_SLUG,
            organizer=organizer,
            venue="Дом культуры «Домино»",
            city="Москва",
            status=Tournament.Status.RUNNING,
        )
        for user, role in ((referee, "referee"), (second_referee, "referee"), (chief, "chief")):
            TournamentRole.objects.create(tournament=tournament, user=user, role=role)
        for n in range(1, 9):
            Table.objects.create(tournament=tournament, number=n)
        players = []
        for i, name in enumerate(PLAYER_NAMES, start=1):
            first, _sep, last = name.partition(" ")
            user = self._user(f"player{i:02d}", first, last)
            players.append(
                Player.objects.create(
                    tournament=tournament,
                    name=name,
                    club=CLUBS[(i - 1) // 6 % len(CLUBS)],
                    city="Москва" if i <= 20 else "",
                    rating=1500 - i * 10,
                    user=user,
                )
            )
        for k in range(16):
            Pair.objects.create(
                tournament=tournament,
                player1=players[2 * k],
                player2=players[2 * k + 1],
                rating=(players[2 * k].rating + players[2 * k + 1].rating) // 2,
            )
        for number in (1, 2, 3):
            rnd = rounds.create_round(tournament.pk, actor=organizer)
            rounds.generate_draw(rnd.pk, actor=organizer)
            rounds.publish_round(rnd.pk, actor=organizer)
            parties = Party.objects.filter(round=rnd, pair_b__isnull=False).order_by(
                "table__number"
            )
            for i, party in enumerate(parties):
                actor = referee if i % 2 == 0 else second_referee
                if number == 3 and i >= 4:
                    continue  # not started yet
                referee_services.start_party(party.pk, actor=actor)
                deals = 3 if number == 3 else 40
                for _n in range(deals):
                    party.refresh_from_db()
                    if party.status == Party.Status.FINISHED:
                        break
                    scoring_services.record_deal(party.pk, actor=actor, **_deal_facts(rng))
            if number < 3:
                rounds.close_round(rnd.pk, actor=organizer)
        sign_demo_protocols(tournament)
