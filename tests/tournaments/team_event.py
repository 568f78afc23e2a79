"""A team event made with the ORM for the pages' tests: teams of two pairs with long Cyrillic
names, a round of team matches seated at two tables next to each other (two halves: the
second swaps the opponents), parties started and played through the services."""

from __future__ import annotations

from scoring.models import Pair, Party, Round, Table, Team, TeamMatch, Tournament
from scoring.stages.common import first_stage
from tests.factories import PairFactory, PlayerFactory, TableFactory, TournamentFactory

TEAM_NAMES = [
    "Сборная Санкт-Петербурга и Ленинградской области",
    "Клуб «Дубль-шесть» из Верхнеднепровска",
    "Команда Новосибирского академгородка",
    "Спортклуб «Рыба» Петропавловска-Камчатского",
]
PLAYER_NAMES = [
    "Вячеслав Преображенский", "Александра Константинопольская", "Святослав Мухоморов",
    "Анастасия Воскресенская", "Владимир Рождественский", "Екатерина Ли",
    "Константин Верхнеднепровский", "Евгения Голенищева-Кутузова", "Пётр Первый",
    "Фёдор Второй", "Юрий Третий", "Борис Четвёртый", "Нина Пятая", "Вера Шестая",
    "Лев Седьмой", "Яков Восьмой",
]


def team_event(organizer, *, slug: str, halves: bool = True, teams: int = 4,
               **fields) -> Tournament:
    """A team tournament of ``teams`` teams of two pairs each and as many tables."""
    t = TournamentFactory(name="Командный чемпионат России по спортивному домино", slug=slug,
                          organizer=organizer, format="teams", team_halves=halves, **fields)
    names = iter(PLAYER_NAMES * 2)
    for k in range(teams):
        team = Team.objects.create(tournament=t, name=TEAM_NAMES[k], club=f"Клуб {k + 1}",
                                   country="Россия")
        for _ in range(2):
            PairFactory(tournament=t, team=team,
                        player1=PlayerFactory(tournament=t, name=next(names)),
                        player2=PlayerFactory(tournament=t, name=next(names)))
    TableFactory.create_batch(teams, tournament=t)
    return t


def teams_of(t: Tournament) -> list[Team]:
    """The event's teams in the order they were registered."""
    return list(Team.objects.filter(tournament=t).order_by("pk"))


def pairs_of(team: Team) -> list[Pair]:
    """A team's two pairs (board 1's first)."""
    return list(Pair.objects.filter(team=team).order_by("pk"))


def draw_round(t: Tournament, number: int, pairing: list[tuple[Team, Team]]) -> Round:
    """A published round of these team matches, match k at tables 2k+1 and 2k+2: board 1
    A1–B1, board 2 A2–B2; the second half (when the event has halves) A1–B2, A2–B1."""
    rnd = Round.objects.create(tournament=t, number=number, stage=first_stage(t),
                               status=Round.Status.PUBLISHED)
    for k, (team_a, team_b) in enumerate(pairing):
        first = 2 * k + 1
        match = TeamMatch.objects.create(round=rnd, team_a=team_a, team_b=team_b,
                                         first_table=first)
        a1, a2 = pairs_of(team_a)
        b1, b2 = pairs_of(team_b)
        halves = [[(a1, b1), (a2, b2)], [(a1, b2), (a2, b1)]][: 2 if t.team_halves else 1]
        for half, boards in enumerate(halves, 1):
            for board, (pair_a, pair_b) in enumerate(boards, 1):
                Party.objects.create(
                    round=rnd, table=Table.objects.get(tournament=t, number=first + board - 1),
                    pair_a=pair_a, pair_b=pair_b, team_match=match, board=board, half=half)
    return rnd


def party_at(rnd: Round, table: int, half: int = 1) -> Party:
    """The round's party at a table in a half."""
    return Party.objects.get(round=rnd, table__number=table, half=half)
