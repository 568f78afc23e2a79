"""The draw of a team event's round: teams are drawn, each team match seated at two tables.

Teams are the entrants of the ordinary engines (:mod:`tournaments.pairing`): Swiss on the team
standings (``scoring.teams.standings``: rank, team score, the teams met), or the round robin's
Berger schedule over the teams in registration order. Each team match then gets two tables
next to each other (:func:`~tournaments.pairing.teams.adjacent_tables`) and its ordinary
parties from the two line-ups (:func:`~tournaments.pairing.teams.team_seats`). A team's
line-up is by default its first two available pairs (registration order); with
``Tournament.team_lineup_changes`` it can be set per team match until the round is published
(:func:`set_lineup`). An odd number of teams gives one a bye: a team match without team B and
without parties, counted as a win (``scoring.teams.results``).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError, translate_engine_error
from scoring.models import Pair, Party, Regulations, Round, Team, TeamMatch, Tournament
from scoring.teams.seating import default_lineup, seat_team_match, team_pairs
from scoring.teams.standings import team_standings
from tournaments.pairing import Draw, DrawUserError, Entrant, get_generator
from tournaments.pairing.teams import BOARDS, TablesError, adjacent_tables
from tournaments.rounds.draws import clear_draw, table_numbers
from tournaments.rounds.services import lock_round, require_status
from tournaments.setup.services import actor_id

logger = logging.getLogger(__name__)


def is_team_event(tournament: Tournament) -> bool:
    """Whether the tournament's rounds draw teams."""
    return tournament.format == Tournament.Format.TEAMS


@dataclass
class TeamField:
    """The teams of a round's draw: available ones ranked, names, each team's pairs able to
    play (registration order)."""

    entrants: list[Entrant]
    names: dict[int, str]
    pairs: dict[int, list[int]]
    absent: list[int] = field(default_factory=list)
    everyone: list[int] = field(default_factory=list)


def load_team_field(tournament: Tournament, rnd: Round) -> TeamField:
    """The available teams ranked by the team standings, with the teams each has met and its
    byes; refused when an available team has fewer than two pairs able to play."""
    teams = list(Team.objects.filter(tournament=tournament).order_by("id")
                 .values_list("id", "name", "rating", "club", "country", "withdrawn",
                              "disqualified"))
    names = {pk: name for pk, name, *_rest in teams}
    info = {pk: (rating, club or country, not (w or d))
            for pk, _name, rating, club, country, w, d in teams}
    pairs = team_pairs(names)
    for pk, name, *_rest in teams:
        if info[pk][2] and len(pairs[pk]) < BOARDS:
            raise ServiceError("draw", _(
                "Team %(team)s has fewer than two pairs able to play.") % {"team": name})
    opponents: dict[int, set[int]] = defaultdict(set)
    byes: dict[int, int] = defaultdict(int)
    for a, b in (TeamMatch.objects.filter(round__tournament=tournament,
                                          round__number__lt=rnd.number)
                 .values_list("team_a_id", "team_b_id")):
        if b is None:
            byes[a] += 1
        else:
            opponents[a].add(b)
            opponents[b].add(a)
    entrants: list[Entrant] = []
    for row in team_standings(tournament):
        rating, club, available = info[row.team]
        if not available:
            continue
        entrants.append(Entrant(
            id=row.team, rank=len(entrants), score=row.score, rating=rating, club=club,
            had_bye=byes.get(row.team, 0), opponents=frozenset(opponents.get(row.team, ())),
        ))
    absent = [pk for pk, *_rest in teams if not info[pk][2]]
    return TeamField(entrants, names, dict(pairs), absent, [pk for pk, *_rest in teams])


def run_team_engine(tournament: Tournament, rnd: Round, team_field: TeamField,
                    seed: int | None) -> Draw:
    """Draw the teams with the regulations' system: Swiss, or the round robin."""
    regulations = tournament.regulations
    system = regulations.pairing_system
    if system == Regulations.PairingSystem.ROUND_ROBIN:
        draw = get_generator("round_robin", absent=team_field.absent).generate(
            team_field.everyone, round_number=rnd.number)
        rank = {e.id: e.rank for e in team_field.entrants}
        parties = sorted(draw.parties, key=lambda p: min(rank[p.a], rank[p.b]))
        if not isinstance(draw, Draw):
            raise TypeError("The round robin gave a draw of an individual event")
        return Draw(parties=parties, byes=draw.byes, seed=None, warnings=draw.warnings)
    if system == Regulations.PairingSystem.MANUAL:
        raise ServiceError("pairing_system", _(
            "A team event's rounds are drawn by Swiss or by round robin."))
    generator = get_generator(
        "swiss", first_round=regulations.first_round, avoid_same_club=False,
        rounds_planned=regulations.rounds_planned,
    )
    draw = generator.generate(team_field.entrants, round_number=rnd.number, seed=seed)
    if not isinstance(draw, Draw):
        raise TypeError("The Swiss draw gave a draw of an individual event")
    return draw


def lineup_of(team_field: TeamField, team: int) -> list[int]:
    """A team's line-up when none is set (:func:`scoring.teams.seating.default_lineup`)."""
    return default_lineup(team_field.pairs, team)


def write_team_draw(rnd: Round, draw: Draw, team_field: TeamField) -> list[TeamMatch]:
    """Replace the round's draw with the team matches of ``draw`` and their parties; nothing
    is written when the tables are too few."""
    tournament = rnd.tournament
    tables = table_numbers(tournament)
    try:
        firsts = adjacent_tables(list(tables), len(draw.parties))
    except TablesError as err:
        raise translate_engine_error(err) from err
    clear_draw(rnd)
    made: list[TeamMatch] = []
    for first, pairing in zip(firsts, draw.parties, strict=False):
        tm = TeamMatch.objects.create(round=rnd, team_a_id=pairing.a, team_b_id=pairing.b,
                                      first_table=first)
        seat_team_match(tournament, tm, lineup_of(team_field, pairing.a),
                        lineup_of(team_field, pairing.b), tables)
        made.append(tm)
    for team in draw.byes:
        made.append(TeamMatch.objects.create(round=rnd, team_a_id=team, team_b=None))
    return made


def generate_team_draw(rnd: Round, seed: int | None) -> tuple[Draw, TeamField]:
    """Draw a locked draft round of a team event and write it (see the module)."""
    tournament = rnd.tournament
    team_field = load_team_field(tournament, rnd)
    if len(team_field.entrants) < 2:
        raise ServiceError("draw", _("A team round needs at least two teams."))
    try:
        draw = run_team_engine(tournament, rnd, team_field, seed)
    except DrawUserError as err:
        error = translate_engine_error(err)
        error.field = "draw"
        raise error from err
    write_team_draw(rnd, draw, team_field)
    return draw, team_field


@dataclass(frozen=True)
class LineupSet:
    """What :func:`set_lineup` did: the team match, the team and its two pairs by board."""

    team_match: int
    team: int
    pairs: tuple[int, ...]


@transaction.atomic
def set_lineup(team_match_id: int, team_id: int, pairs: Sequence[int], *,
               actor: Any = None) -> LineupSet:
    """Name a team's two pairs (board 1, board 2) for one team match of a draft round; the
    team match's parties are made again. Needs ``team_lineup_changes``."""
    tm = TeamMatch.objects.select_related("round").filter(pk=team_match_id).first()
    if tm is None:
        raise ServiceError("team_match", _("No such team match."))
    rnd = lock_round(tm.round_id)
    tournament = rnd.tournament
    require_status(rnd, Round.Status.DRAFT)
    if not tournament.team_lineup_changes:
        raise ServiceError("pairs", _(
            "The regulations keep each team's line-up: its first two pairs play every match."))
    if team_id not in (tm.team_a_id, tm.team_b_id):
        raise ServiceError("team", _("The team does not play this team match."))
    chosen = [int(pk) for pk in pairs]
    if len(chosen) != BOARDS or len(set(chosen)) != BOARDS:
        raise ServiceError("pairs", _("Name two different pairs: board 1's and board 2's."))
    team = Team.objects.get(pk=team_id)
    able = set(Pair.objects.filter(team=team, withdrawn=False, disqualified=False)
               .values_list("id", flat=True))
    if not set(chosen) <= able:
        raise ServiceError("pairs", _("Team %(team)s has no such pair able to play.")
                           % {"team": team.name})
    current = {
        (half, board): (a, b) for half, board, a, b in
        Party.objects.filter(team_match=tm).values_list("half", "board", "pair_a_id",
                                                        "pair_b_id")
    }
    lineup_a = [current[(1, 1)][0], current[(1, 2)][0]]
    lineup_b = [current[(1, 1)][1], current[(1, 2)][1]]
    if team_id == tm.team_a_id:
        lineup_a = chosen
    else:
        lineup_b = chosen
    seat_team_match(tournament, tm, lineup_a, lineup_b, table_numbers(tournament))
    logger.info("team line-up set: tournament=%s team_match=%s team=%s pairs=%s actor=%s",
                tournament.pk, tm.pk, team_id, chosen, actor_id(actor))
    return LineupSet(tm.pk, team_id, tuple(chosen))
