"""The demo's finals: a cup whose qualifying is over and whose knockout bracket is being played
(quarter-finals decided but one, still at its table; a semi-final waiting to start), and a cup
in round-robin groups (its first round closed, its second being played). Both are played
through the services by the Double-Six Cup's players, so that the bracket, the groups' page
and their tabs have something to show."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from referee import services as referee_services
from scoring.models import Party, Player, Tournament
from scoring.party import deals as scoring_services
from scoring.signoff.demo import demo_profile, sign_demo_protocols
from tournaments.registration.services import add_table, register_pair, register_player
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds
from tournaments.rounds.finals import start_finals, start_groups
from tournaments.setup.services import create_tournament

FINALS_SLUG = "finals-cup"
GROUPS_SLUG = "groups-cup"
#: The Double-Six Cup's players (numbers of their logins player09 …) each plays.
FINALS_PLAYERS = range(9, 25)
GROUPS_PLAYERS = range(17, 33)

Deal = Callable[[random.Random], dict[str, Any]]


def _cup(command: Any, names: list[str], clubs: list[str], numbers: range,
         **fields: Any) -> tuple[Tournament, tuple[Any, Any]]:
    """A running sport-domino cup: its referees, a table for every two pairs, and the demo's
    players ``numbers`` (their logins and profiles) in pairs, best rated first."""
    organizer = command.demo_organizer()
    tournament = create_tournament(organizer=organizer, city="Москва",
                                   status=Tournament.Status.RUNNING, **fields)
    referees = command.demo_referees(tournament)
    for number in range(1, len(numbers) // 4 + 1):
        add_table(tournament, number)
    players: list[Player] = []
    for i in numbers:
        name = names[i - 1]
        first, _sep, last = name.partition(" ")
        user = command.demo_user(f"player{i:02d}", first, last)
        club = clubs[(i - 1) // 6 % len(clubs)]
        players.append(register_player(
            tournament, name=name, club=club, city="Москва", rating=1500 - i * 10, user=user,
            profile=demo_profile(user, name, club, "Москва")))
    for k in range(len(players) // 2):
        register_pair(tournament, players[2 * k], players[2 * k + 1])
    return tournament, referees


def _play(party: Party, actor: Any, deal: Deal, rng: random.Random, most: int = 60) -> None:
    """Start a party and record up to ``most`` of its deals, until it is finished."""
    referee_services.start_party(party.pk, actor=actor)
    for _n in range(most):
        if Party.objects.filter(pk=party.pk, status=Party.Status.FINISHED).exists():
            return
        scoring_services.record_deal(party.pk, actor=actor, **deal(rng))


def _round(tournament: Tournament, organizer: Any) -> list[Party]:
    """A new round drawn and published; its parties in table order."""
    rnd = rounds.create_round(tournament.pk, actor=organizer)
    draw_services.generate_draw(rnd.pk, actor=organizer)
    rounds.publish_round(rnd.pk, actor=organizer)
    return list(Party.objects.filter(round=rnd, pair_b__isnull=False).order_by("table__number"))


def build_finals_cup(command: Any, names: list[str], clubs: list[str],
                     deal: Deal) -> Tournament:
    """Eight pairs, two Swiss rounds played and closed, then knockout finals of eight with a
    match for third place: three quarter-finals decided, the fourth being played, the first
    semi-final waiting at its table."""
    rng = random.Random(20260321)
    organizer = command.demo_organizer()
    tournament, (referee, second_referee) = _cup(
        command, names, clubs, FINALS_PLAYERS, name="Финал Кубка 2026 · Cup Finals",
        slug=FINALS_SLUG, venue="Дом культуры «Домино», большой зал")
    tournament.regulations.rounds_planned = 2
    tournament.regulations.save(update_fields=["rounds_planned"])
    for _number in (1, 2):
        parties = _round(tournament, organizer)
        for i, party in enumerate(parties):
            _play(party, referee if i % 2 == 0 else second_referee, deal, rng)
        rounds.close_round(parties[0].round_id, actor=organizer)
    start_finals(tournament.pk, bracket_size=8, third_place=True, actor=organizer)
    quarters = Party.objects.filter(
        round__tournament=tournament, match__bracket_round=1).order_by("match__position")
    for i, party in enumerate(quarters):
        _play(party, referee if i % 2 == 0 else second_referee, deal, rng,
              most=60 if i < 3 else 2)  # the last one is still at its table
    sign_demo_protocols(tournament)
    return tournament


def build_groups_cup(command: Any, names: list[str], clubs: list[str],
                     deal: Deal) -> Tournament:
    """Eight pairs in two round-robin groups of four: the first round played and closed, the
    second being played (two parties finished, one at its table, one not started)."""
    rng = random.Random(20260322)
    organizer = command.demo_organizer()
    tournament, (referee, second_referee) = _cup(
        command, names, clubs, GROUPS_PLAYERS, name="Кубок групп 2026 · Group Cup",
        slug=GROUPS_SLUG, venue="Клуб «Дубль-шесть»")
    start_groups(tournament.pk, group_count=2, actor=organizer)
    for number in (1, 2):
        parties = _round(tournament, organizer)
        for i, party in enumerate(parties):
            actor = referee if i % 2 == 0 else second_referee
            if number == 1 or i < 2:
                _play(party, actor, deal, rng)
            elif i == 2:
                _play(party, actor, deal, rng, most=2)  # still at its table
        if number == 1:
            rounds.close_round(parties[0].round_id, actor=organizer)
    sign_demo_protocols(tournament)
    return tournament
