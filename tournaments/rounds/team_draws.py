"""The draw of a team event's round: teams are drawn, each team match seated at two tables.

Teams are the entrants of the ordinary engines (:mod:`tournaments.pairing`): Swiss on the team
standings (``scoring.teams.standings``: rank, team score, the teams met), or the round robin's
Berger schedule over the teams in registration order. Each team match then gets two tables
next to each other (:func:`~tournaments.pairing.teams.adjacent_tables`) and its ordinary
parties from the two line-ups (:func:`~tournaments.pairing.teams.team_seats`). A team's
line-up is by default its first two available pairs (registration order), or for a team of
players the pairs formed of its first four (``scoring.teams.seating``); the captain or the
organizer changes it per team match until the round is published
(``tournaments.rounds.team_lineups``). A round of a groups stage draws each group's round
robin of teams (``tournaments.rounds.team_groups``). An odd number of teams gives one a bye:
a team match without team B and without parties, counted as a win (``scoring.teams.results``).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError, translate_engine_error
from scoring.models import Regulations, Round, Stage, Team, TeamMatch, Tournament
from scoring.teams.seating import (
    by_players,
    round_lineups,
    seat_team_match,
    short_teams,
    team_pairs,
)
from scoring.teams.standings import team_standings
from tournaments.pairing import Draw, DrawUserError, Entrant, get_generator
from tournaments.pairing.teams import TablesError, adjacent_tables
from tournaments.rounds.draws import clear_draw, table_numbers
from tournaments.rounds.team_groups import team_groups_round

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
    refuse_short_teams(tournament, [pk for pk in names if info[pk][2]], "draw")
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


def refuse_short_teams(tournament: Tournament, team_ids: Sequence[int], field_name: str) -> None:
    """Refuse (on ``field_name``) when one of the teams cannot fill a team match's boards."""
    short = short_teams(tournament, team_ids)
    if not short:
        return
    name = Team.objects.get(pk=short[0]).name
    if by_players(tournament):
        raise ServiceError(field_name, _(
            "Team %(team)s has fewer than four players able to play.") % {"team": name})
    raise ServiceError(field_name, _(
        "Team %(team)s has fewer than two pairs able to play.") % {"team": name})


def run_team_engine(tournament: Tournament, rnd: Round, team_field: TeamField,
                    seed: int | None) -> Draw:
    """Draw the teams with the regulations' system: Swiss, or the round robin."""
    regulations = tournament.regulations
    system = regulations.pairing_system
    if rnd.stage is not None and rnd.stage.format == Stage.Format.GROUPS:
        present = {e.id for e in team_field.entrants}
        return team_groups_round(rnd, present)
    if system == Regulations.PairingSystem.ROUND_ROBIN:
        draw = get_generator("round_robin", absent=team_field.absent).generate(
            team_field.everyone, round_number=rnd.number)
        if not isinstance(draw, Draw):
            raise TypeError("The round robin gave a draw of an individual event")
        rank = {e.id: e.rank for e in team_field.entrants}
        parties = sorted(draw.parties, key=lambda p: min(rank[p.a], rank[p.b]))
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
    playing = [team for p in draw.parties for team in (p.a, p.b) if team is not None]
    lineups = round_lineups(tournament, rnd, playing)
    made: list[TeamMatch] = []
    for first, pairing in zip(firsts, draw.parties, strict=False):
        tm = TeamMatch.objects.create(round=rnd, team_a_id=pairing.a, team_b_id=pairing.b,
                                      first_table=first)
        seat_team_match(tournament, tm, lineups[pairing.a], lineups[pairing.b], tables)
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
