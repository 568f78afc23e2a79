"""Team standings: teams ranked by their team score, then ``Tournament.team_tie_breaks``.

The ranking is the plain standings engine's (``scoring.standings.rank_tally``) over a
:class:`~scoring.standings.Tally` of teams in which each decided team match is one "party":
match points are the team score, wins the parties won, points for and against the party
points over the boards, efectiveness their sum; head-to-head is the team score earned
against the tied teams and Buchholz the sum of the opponents' team scores. Only decided team
matches of published rounds count (a knockout's team matches are placed by its bracket); a
bye counts as :mod:`scoring.teams.results` says.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.models import Round, Team, TeamMatch, Tournament
from scoring.standings import StandingsConfig, Tally, paused_gc, rank_tally
from scoring.standings.metrics import Number

from .results import TeamMatchResult, team_match_results

TIE_BREAK_METRICS = {
    "party_wins": "wins",
    "point_difference": "point_difference",
    "head_to_head": "head_to_head",
    "buchholz": "buchholz",
}
"""The standings engine's metric for each team tie-break (``TEAM_TIE_BREAKS``)."""


@dataclass(frozen=True)
class TeamStandingRow:
    """One team's line: rank (shared ranks repeat), team score, team matches played, won,
    level and lost, byes, parties won, points for and against, point difference,
    efectiveness, head-to-head (0 outside a tie) and Buchholz."""

    team: int
    name: str
    rank: int
    shared: bool
    score: Number
    played: int
    won: int
    level: int
    lost: int
    byes: int
    party_wins: int
    points_for: int
    points_against: int
    point_difference: int
    efectiveness: Number
    head_to_head: Number
    buchholz: Number
    withdrawn: bool


def team_order(tournament: Tournament) -> tuple[str, ...]:
    """The engine's metric order: the team score, then the tournament's tie-breaks."""
    chosen = [key for key in (tournament.team_tie_breaks or []) if key in TIE_BREAK_METRICS]
    return ("match_points", *dict.fromkeys(TIE_BREAK_METRICS[key] for key in chosen))


def team_tally(results: list[TeamMatchResult]) -> Tally:
    """The standings' tally over teams, each decided team match one party (see the module)."""
    tally = Tally()
    for r in results:
        if not r.decided:
            continue
        sides = [(r.a, r.b), (r.b, r.a)] if r.b is not None else [(r.a, None)]
        for mine, theirs in sides:
            assert mine is not None
            team = mine.team
            tally.match_points[team] = tally.match_points.get(team, 0) + mine.score
            tally.wins[team] = tally.wins.get(team, 0) + mine.parties_won
            tally.points_for[team] = tally.points_for.get(team, 0) + mine.points
            tally.points_against[team] = tally.points_against.get(team, 0) + mine.points_against
            tally.efectiveness[team] = tally.efectiveness.get(team, 0) + mine.efectiveness
            if theirs is None:
                tally.byes[team] = tally.byes.get(team, 0) + 1
            else:
                tally.parties.setdefault(team, []).append(((theirs.team,), mine.score))
    return tally


def team_standings(
    tournament: Tournament, *, after_round: int | None = None
) -> list[TeamStandingRow]:
    """The tournament's team standings (every team, withdrawn ones too), best first."""
    teams = list(Team.objects.filter(tournament=tournament).order_by("id")
                 .values_list("id", "name", "withdrawn", "disqualified"))
    live = set(TeamMatch.objects.filter(round__tournament=tournament, knockout_match__isnull=True)
               .exclude(round__status=Round.Status.DRAFT).values_list("id", flat=True))
    results = [r for pk, r in team_match_results(tournament, after_round=after_round).items()
               if pk in live]
    return rank_teams(tournament, teams, results)


def rank_teams(
    tournament: Tournament, teams: list[tuple[int, str, bool, bool]],
    results: list[TeamMatchResult],
) -> list[TeamStandingRow]:
    """Rank ``teams`` (id, name, withdrawn, disqualified) from team match results."""
    cfg = StandingsConfig(order=team_order(tournament))
    tally = team_tally(results)
    outcome: dict[int, list[int]] = {team: [0, 0, 0] for team, *_rest in teams}
    for r in results:
        if not r.decided or r.b is None:
            continue
        for side in (r.a, r.b):
            counts = outcome.setdefault(side.team, [0, 0, 0])
            counts[0 if r.winner == side.team else 1 if r.winner is None else 2] += 1
    names = {team: (name, withdrawn or disqualified) for team, name, withdrawn, disqualified
             in teams}
    with paused_gc():
        rows = rank_tally(list(names), tally, cfg)
    out: list[TeamStandingRow] = []
    for row in rows:
        team, m = row.entrant, row.metrics
        won, level, lost = outcome.get(team, [0, 0, 0])
        byes = tally.byes.get(team, 0)
        out.append(TeamStandingRow(
            team=team, name=names[team][0], rank=row.rank, shared=row.shared,
            score=m["match_points"], played=won + level + lost + byes, won=won + byes,
            level=level, lost=lost, byes=byes, party_wins=int(m["wins"]),
            points_for=int(m["points_for"]), points_against=int(m["points_against"]),
            point_difference=int(m["point_difference"]), efectiveness=m["efectiveness"],
            head_to_head=m.get("head_to_head", 0), buchholz=m["buchholz"],
            withdrawn=names[team][1],
        ))
    return out
