"""Build the demo tournaments through the services, as an organizer and referees would.

- Sport domino: 16 pairs, 8 tables, two finished rounds and one in progress (Swiss draw).
- UDL singles: 6 players, one round of matches to three game wins played, one match running.
- A Kozel evening: 8 players, individual format, two tables of four, a round played to the
  Goat, standings by rating points.
- Last autumn's cup (``tournaments.management.demo_autumn``): 8 of the sport demo's players in
  4 pairs, three rounds, finished. Each demo login's player is one profile across the tournaments.
- The finals (``tournaments.management.demo_finals``): a cup of 8 pairs whose knockout bracket
  is being played after two Swiss rounds, and a cup in two round-robin groups of four.
- Today's spring cup (``tournaments.management.demo_entries``): entries open on the site (some
  accepted, a waiting list), a timetable, check-in before round 1 open.
"""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from referee import services as referee_services
from scoring.models import Party, Player, Table, Tournament, TournamentRole
from scoring.party import deals as scoring_services
from scoring.signoff.demo import (
    demo_profile,
    drop_demo_tournament,
    link_demo_players,
    sign_demo_protocols,
)
from scoring.standings import default_order
from tournaments.management.demo_autumn import (
    AUTUMN_SLUG,
    build_autumn_cup,
    build_season_and_rating,
)
from tournaments.management.demo_entries import ENTRIES_SLUG, build_entries_cup
from tournaments.management.demo_finals import (
    FINALS_SLUG,
    GROUPS_SLUG,
    build_finals_cup,
    build_groups_cup,
)
from tournaments.registration.services import add_table, register_pair, register_player
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds
from tournaments.setup.services import create_tournament

DEMO_SLUG = "demo-cup"
UDL_SLUG = "udl-open"
KOZEL_SLUG = "kozel-evening"
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
COUNTRIES = [
    *["Россия"] * 20, *["Испания"] * 4, "Великобритания", "Германия", "Франция", "Польша",
    "Украина", "Украина", "Россия", "Россия",
]
"""The country of each of ``PLAYER_NAMES`` (the sport demo's countries' standings): two
pairs are of two countries each."""
UDL_NAMES = [
    "Ann Carter",
    "Борис Гришин",
    "Diego Ramos",
    "Вера Лосева",
    "Ethan Brooks",
    "Зоя Тихонова",
]
"""The UDL singles demo's players; logins udl01 … udl06."""
KOZEL_NAMES = [
    "Маша Белова",
    "Alex Turner",
    "Оля Кравец",
    "Serg Novak",
    "Галина Жукова",
    "Tom Baker",
    "Дмитрий Орлов",
    "Lucy Grant",
]
"""The Kozel evening's players; logins kozel01 … kozel08."""


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


def _udl_hand(rng: random.Random) -> dict[str, Any]:
    """A plausible UDL hand: scoring plays (multiples of five), then a domino or a block."""
    plays = [[rng.choice("ab"), rng.choice((5, 10, 10, 15, 20))] for _n in range(rng.randint(0, 4))]
    if rng.random() < 0.8:
        went_out, other = rng.choice((("a1", "b1"), ("b1", "a1")))
        return {
            "outcome": "domino",
            "went_out": went_out,
            "pips": {other: rng.randint(4, 45)},
            "plays": plays,
        }
    return {
        "outcome": "fish",
        "pips": {"a1": rng.randint(3, 30), "b1": rng.randint(3, 30)},
        "plays": plays,
    }


def _kozel_deal(rng: random.Random) -> dict[str, Any]:
    """A plausible Kozel deal: each player's pips left, after a domino or a fish."""
    seats = ["a1", "b1", "a2", "b2"]
    if rng.random() < 0.8:
        went_out = rng.choice(seats)
        pips = {s: rng.randint(1, 20) for s in seats if s != went_out}
        return {"outcome": "domino", "went_out": went_out, "pips": pips}
    return {"outcome": "fish", "pips": {s: rng.randint(1, 16) for s in seats}}


class Command(BaseCommand):
    """Create (once) each demo tournament and its logins; running it again changes nothing.

    With ``--fresh`` (what ``make run`` does) the demo tournaments are loaded anew, so that the
    live rounds' clocks start when the demo is served and the protocols carry the served
    address; other tournaments and every login are kept.
    """

    help = (
        "Load the demo tournaments (sport domino, finals and groups, UDL singles, Kozel, the "
        "spring cup taking entries) with "
        "logins organizer, referee, referee2, chief, player01..32, udl01..06, kozel01..08 and "
        "entrant01..14."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        """``--fresh``: drop the loaded demo tournaments and load them anew."""
        parser.add_argument(
            "--fresh", action="store_true",
            help="Load the demo tournaments anew (what was done in them is dropped), so that "
                 "the live rounds' clocks start now.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        """Create each demo tournament that does not exist yet (each anew with ``--fresh``)."""
        demos = (
            (DEMO_SLUG, self.build_sport, "Demo tournament"),
            (UDL_SLUG, self._build_udl, "UDL singles demo"),
            (KOZEL_SLUG, self._build_kozel, "Kozel demo"),
            (AUTUMN_SLUG, lambda: build_autumn_cup(self, PLAYER_NAMES, CLUBS, _deal_facts),
             "Autumn cup demo"),
            (FINALS_SLUG, lambda: build_finals_cup(self, PLAYER_NAMES, CLUBS, _deal_facts),
             "Knockout finals demo"),
            (GROUPS_SLUG, lambda: build_groups_cup(self, PLAYER_NAMES, CLUBS, _deal_facts),
             "Groups demo"),
            (ENTRIES_SLUG, lambda: build_entries_cup(self), "Entries and check-in demo"),
        )
        for slug, build, label in demos:
            with transaction.atomic():
                found = Tournament.objects.filter(slug=slug).first()
                if found is not None and not options.get("fresh"):
                    self.stdout.write(f"{label} is already loaded.")
                    continue
                if found is not None:
                    drop_demo_tournament(found)
                build()
            self.stdout.write(self.style.SUCCESS(f"{label} loaded."))
        with transaction.atomic():
            build_season_and_rating(self.demo_user("organizer"), [DEMO_SLUG, AUTUMN_SLUG])
        self.stdout.write(self.style.SUCCESS("Club season and rating list loaded."))

    def demo_user(self, username: str, first: str = "", last: str = "", **extra: Any) -> Any:
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

    def build_sport(self) -> None:
        """Players, pairs, tables, three Swiss rounds drawn and played through the services."""
        rng = random.Random(20261130)
        organizer = self.demo_user("organizer", "Олег", "Организаторов", is_staff=True)
        organizer.user_permissions.add(*Permission.objects.filter(codename__in=["add_tournament"]))
        referee = self.demo_user("referee", "Роман", "Судьин")
        chief = self.demo_user("chief", "Виктор", "Главный")
        second_referee = self.demo_user("referee2", "Rita", "Referee")
        tournament = create_tournament(
            name="Кубок Дубль-шесть 2026 · Double-Six Cup",
            slug=DEMO_SLUG,
            organizer=organizer,
            venue="Дом культуры «Домино»",
            city="Москва",
            status=Tournament.Status.RUNNING,
        )
        for user, role in ((referee, "referee"), (second_referee, "referee"), (chief, "chief")):
            TournamentRole.objects.get_or_create(tournament=tournament, user=user, role=role)
        for n in range(1, 9):
            Table.objects.create(tournament=tournament, number=n)
        players = []
        for i, name in enumerate(PLAYER_NAMES, start=1):
            first, _sep, last = name.partition(" ")
            user = self.demo_user(f"player{i:02d}", first, last)
            players.append(
                Player.objects.create(
                    tournament=tournament,
                    name=name,
                    club=CLUBS[(i - 1) // 6 % len(CLUBS)],
                    city="Москва" if i <= 20 else "",
                    country=COUNTRIES[i - 1],
                    rating=1500 - i * 10,
                    user=user,
                )
            )
        link_demo_players(tournament)  # one profile per login, across the demo tournaments
        for k in range(16):
            register_pair(tournament, players[2 * k], players[2 * k + 1])
        for number in (1, 2, 3):
            rnd = rounds.create_round(tournament.pk, actor=organizer)
            draw_services.generate_draw(rnd.pk, actor=organizer)
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

    def demo_organizer(self) -> Any:
        """The demo's organizer (also staff: the admin site)."""
        return self.demo_user("organizer", "Олег", "Организаторов", is_staff=True)

    def demo_referees(self, tournament: Tournament) -> tuple[Any, Any]:
        """The demo's two referees and chief referee get their roles; the referees are returned."""
        referee = self.demo_user("referee", "Роман", "Судьин")
        chief = self.demo_user("chief", "Виктор", "Главный")
        second_referee = self.demo_user("referee2", "Rita", "Referee")
        for user, role in ((referee, "referee"), (second_referee, "referee"), (chief, "chief")):
            TournamentRole.objects.get_or_create(tournament=tournament, user=user, role=role)
        return referee, second_referee

    def _players(
        self, tournament: Tournament, names: list[str], login: str, *, side: bool
    ) -> list[Player]:
        """Register ``names`` (with logins ``<login>01`` …), as sides of one player if ``side``."""
        players = []
        for i, name in enumerate(names, start=1):
            first, _sep, last = name.partition(" ")
            user = self.demo_user(f"{login}{i:02d}", first, last)
            players.append(
                register_player(
                    tournament, side=side, name=name, rating=1600 - 25 * i, user=user,
                    club=CLUBS[i % len(CLUBS)],
                    profile=demo_profile(user, name, CLUBS[i % len(CLUBS)]),
                )
            )
        return players

    @staticmethod
    def _play(party: Party, actor: Any, deal: Any, rng: random.Random, most: int) -> None:
        """Record up to ``most`` deals of a started party, until it is finished."""
        for _n in range(most):
            if Party.objects.filter(pk=party.pk, status=Party.Status.FINISHED).exists():
                return
            scoring_services.record_deal(party.pk, actor=actor, **deal(rng))

    @staticmethod
    def _game_tournament(organizer: Any, **fields: Any) -> Tournament:
        """A running demo tournament of another rule set: its preset, its standings order named."""
        tournament = create_tournament(
            organizer=organizer, status=Tournament.Status.RUNNING, **fields
        )
        regulations = tournament.regulations
        regulations.standings_order = list(default_order(tournament.rule_set))
        regulations.rounds_planned = 3
        regulations.save()
        return tournament

    def _build_udl(self) -> None:
        """UDL singles: 6 players, 3 tables; round 1 played to three game wins, round 2 live."""
        rng = random.Random(20260815)
        organizer = self.demo_organizer()
        tournament = self._game_tournament(
            organizer,
            name="UDL Singles Open · Открытый турнир UDL",
            slug=UDL_SLUG,
            rule_set=Tournament.RuleSet.UDL,
            venue="Клуб «Пять и десять»",
            city="Санкт-Петербург",
        )
        referee, second_referee = self.demo_referees(tournament)
        for n in range(1, 4):
            add_table(tournament, n)
        self._players(tournament, UDL_NAMES, "udl", side=True)
        for number in (1, 2):
            rnd = rounds.create_round(tournament.pk, actor=organizer)
            draw_services.generate_draw(rnd.pk, actor=organizer)
            rounds.publish_round(rnd.pk, actor=organizer)
            parties = Party.objects.filter(round=rnd, pair_b__isnull=False).order_by(
                "table__number"
            )
            for i, party in enumerate(parties):
                actor = referee if i % 2 == 0 else second_referee
                if number == 2 and i > 0:
                    continue  # one match of round 2 is running, the others wait
                referee_services.start_party(party.pk, actor=actor)
                if i == 0:  # a slow play warned, then one paid to the opponent
                    for _again in range(2):
                        referee_services.give_warning(
                            party.pk, side="b", category="move_time", seat="b1", actor=actor
                        )
                self._play(party, actor, _udl_hand, rng, 6 if number == 2 else 300)
            if number == 1:
                rounds.close_round(rnd.pk, actor=organizer)
        sign_demo_protocols(tournament)

    def _build_kozel(self) -> None:
        """A Kozel evening: 8 players at two tables of four, one round played to the Goat."""
        rng = random.Random(20261231)
        organizer = self.demo_organizer()
        tournament = self._game_tournament(
            organizer,
            name="Вечер «Козла» · Kozel Evening",
            slug=KOZEL_SLUG,
            rule_set=Tournament.RuleSet.KOZEL,
            format=Tournament.Format.INDIVIDUAL,
            venue="Двор на Садовой",
            city="Одесса",
        )
        referee, second_referee = self.demo_referees(tournament)
        for n in (1, 2):
            add_table(tournament, n)
        self._players(tournament, KOZEL_NAMES, "kozel", side=False)
        rnd = rounds.create_round(tournament.pk, actor=organizer)
        draw_services.generate_draw(rnd.pk, actor=organizer)
        rounds.publish_round(rnd.pk, actor=organizer)
        parties = Party.objects.filter(round=rnd, pair_b__isnull=False).order_by("table__number")
        for i, party in enumerate(parties):
            actor = referee if i % 2 == 0 else second_referee
            referee_services.start_party(party.pk, actor=actor)
            self._play(party, actor, _kozel_deal, rng, 100)
        rounds.close_round(rnd.pk, actor=organizer)  # every party was played to the Goat
        sign_demo_protocols(tournament)
