"""The result of a team match from its parties (each an ordinary party at one board and half).

Per side: the parties won, the points for and against and the efectiveness — exactly the
standings' figures, since every party is read by the standings' loader
(``scoring.ranking.loaders``: stored totals, forfeits, fines) and summed by the standings'
own tally (``scoring.standings.Tally``) over the pairs of the match, each pair's figures
then added to its team's side. The team score follows ``Tournament.team_scoring``:

- ``match_points``: 2 for more parties won than the opponent, 1 each when level, 0 else;
- ``parties``: the parties won;
- ``points``: the sum of the points scored over the boards;
- ``efectiveness``: the sum of the efectiveness over the boards (RULES.md §1).

A team match is decided when it has parties and every one of them is finished; its winner
is the side with the higher team score (None when level, or undecided).

A bye (a team match without team B) is decided at once and counts as a win with the
parties' forfeit values, as if every party of the match (two boards, times two with two
halves) had been won by forfeit: each a party won, the regulations' forfeit points scored
(none conceded) and half the target of efectiveness (the standings' forfeit win); its team
score is what those figures give (2 match points).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count, Q

from scoring.models import BOARDS, Party, TeamMatch, Tournament
from scoring.ranking.loaders import counted_parties, party_row_fields, rows_for_engine
from scoring.standings import PartyResult, PlainResult, StandingsConfig, Tally
from scoring.standings.metrics import Number

MATCH_WIN, MATCH_LEVEL, MATCH_LOSS = 2, 1, 0
"""The team match points of the ``match_points`` scoring."""


@dataclass(frozen=True)
class TeamSide:
    """One team's figures in a team match: parties won, points for and against (party totals
    as the standings count them), efectiveness and the team score."""

    team: int
    parties_won: int
    points: int
    points_against: int
    efectiveness: Number
    score: Number


@dataclass(frozen=True)
class TeamMatchResult:
    """A team match's result: both sides' figures, how many parties it has and how many are
    finished, whether it is decided, the winning team (None when level or undecided)."""

    team_match: int
    round: int
    a: TeamSide
    b: TeamSide | None
    parties: int
    finished: int
    decided: bool
    winner: int | None
    knockout: bool = False

    @property
    def bye(self) -> bool:
        """True for a bye (no team B)."""
        return self.b is None

    @property
    def level(self) -> bool:
        """True for a decided team match without a winner."""
        return self.decided and self.winner is None

    def side_of(self, team: int) -> TeamSide:
        """The figures of ``team`` (one of the two sides)."""
        if self.a.team == team:
            return self.a
        if self.b is not None and self.b.team == team:
            return self.b
        raise ValueError(f"team {team} did not play team match {self.team_match}")


def team_score(
    scoring: str, parties_won: int, opponent_won: int, points: int, efectiveness: Number
) -> Number:
    """One side's team score under ``scoring`` (``Tournament.TeamScoring``)."""
    if scoring == Tournament.TeamScoring.PARTIES:
        return parties_won
    if scoring == Tournament.TeamScoring.POINTS:
        return points
    if scoring == Tournament.TeamScoring.EFECTIVENESS:
        return efectiveness
    if parties_won > opponent_won:
        return MATCH_WIN
    return MATCH_LEVEL if parties_won == opponent_won else MATCH_LOSS


def side_figures(
    results: Iterable[PartyResult | PlainResult], cfg: StandingsConfig, pairs_of_a: set[int],
    pairs_of_b: set[int],
) -> tuple[tuple[int, int, int, Number], tuple[int, int, int, Number]]:
    """Parties won, points for, points against and efectiveness of side A and side B of a team
    match, summed by the standings' tally over the pairs of each side."""
    tally = Tally.build(results, cfg)
    out = []
    for pairs in (pairs_of_a, pairs_of_b):
        out.append((
            int(sum(tally.wins.get(p, 0) for p in pairs)),
            int(sum(tally.points_for.get(p, 0) for p in pairs)),
            int(sum(tally.points_against.get(p, 0) for p in pairs)),
            sum(tally.efectiveness.get(p, 0) for p in pairs),
        ))
    return out[0], out[1]


def parties_per_match(tournament: Tournament) -> int:
    """How many parties a team match has: one per board, per half."""
    return BOARDS * (2 if tournament.team_halves else 1)


def bye_side(tournament: Tournament, team: int) -> TeamSide:
    """A bye's figures: every party of a team match won by forfeit (see the module)."""
    cfg = tournament.regulations.standings_config()
    n = parties_per_match(tournament)
    half: Number = cfg.target // 2 if cfg.target % 2 == 0 else cfg.target / 2
    points = n * tournament.regulations.rules_config().forfeit_points()
    won, efectiveness = n, n * half
    return TeamSide(team, won, points, 0, efectiveness,
                    team_score(tournament.team_scoring, won, 0, points, efectiveness))


def team_match_results(
    tournament: Tournament, *, after_round: int | None = None,
    team_matches: Sequence[int] | None = None, bumping: tuple[int, int] | None = None,
) -> dict[int, TeamMatchResult]:
    """Every team match of the tournament (or those of ``team_matches``) with its result, by
    team match id; rounds up to ``after_round``. A constant number of queries (four, and
    the stored totals a stale party needs). ``bumping`` is (party id, version) of a party
    whose totals were just stored for the version its caller is about to give it."""
    matches = TeamMatch.objects.filter(round__tournament=tournament)
    if after_round is not None:
        matches = matches.filter(round__number__lte=after_round)
    if team_matches is not None:
        matches = matches.filter(pk__in=list(team_matches))
    heads = list(matches.order_by("round__number", "first_table", "id").values_list(
        "id", "round__number", "team_a_id", "team_b_id", "knockout_match_id"))
    if not heads:
        return {}
    ids = [h[0] for h in heads]
    counts = {
        row["team_match"]: (row["n"], row["done"])
        for row in Party.objects.filter(team_match__in=ids).order_by().values("team_match")
        .annotate(n=Count("id"), done=Count("id", filter=Q(status=Party.Status.FINISHED)))
    }
    fields, tail = party_row_fields(per_player=False, seats=False)
    extra = len(fields)
    rows = list(
        counted_parties(tournament, after_round, knockout=True)
        .filter(team_match__in=ids).order_by()
        .values_list(*fields, "team_match_id", "pair_a__team_id", "pair_b__team_id")
    )
    if bumping is not None:  # its stored totals are fresh as of the coming version
        rows = [(*row[:tail], bumping[1], *row[tail + 1:]) if row[0] == bumping[0] else row
                for row in rows]
    results = rows_for_engine(tournament, rows, per_player=False, tail=tail)
    per_match: dict[int, list[tuple[tuple, PartyResult | PlainResult]]] = defaultdict(list)
    for row, result in zip(rows, results, strict=True):
        per_match[row[extra]].append((row, result))
    cfg = tournament.regulations.standings_config()
    scoring = tournament.team_scoring
    out: dict[int, TeamMatchResult] = {}
    bye_cache: dict[int, TeamSide] = {}
    for pk, number, team_a, team_b, knockout in heads:
        if team_b is None:
            side = bye_cache.get(team_a) or bye_side(tournament, team_a)
            bye_cache[team_a] = side
            out[pk] = TeamMatchResult(pk, number, side, None, 0, 0, True, team_a,
                                      knockout is not None)
            continue
        pairs_a: set[int] = set()
        pairs_b: set[int] = set()
        for row, _result in per_match.get(pk, ()):
            pair_a, pair_b, team_of_a = row[2], row[3], row[extra + 1]
            # the draw puts team A's pair on side a; a pair's team read to be sure
            if team_of_a == team_b:
                pair_a, pair_b = pair_b, pair_a
            pairs_a.add(pair_a)
            if pair_b is not None:
                pairs_b.add(pair_b)
        (won_a, for_a, against_a, ef_a), (won_b, for_b, against_b, ef_b) = side_figures(
            [result for _row, result in per_match.get(pk, ())], cfg, pairs_a, pairs_b)
        side_a = TeamSide(team_a, won_a, for_a, against_a, ef_a,
                          team_score(scoring, won_a, won_b, for_a, ef_a))
        side_b = TeamSide(team_b, won_b, for_b, against_b, ef_b,
                          team_score(scoring, won_b, won_a, for_b, ef_b))
        n, done = counts.get(pk, (0, 0))
        decided = n > 0 and done == n
        winner = None
        if decided and side_a.score != side_b.score:
            winner = team_a if side_a.score > side_b.score else team_b
        out[pk] = TeamMatchResult(pk, number, side_a, side_b, n, done, decided, winner,
                                  knockout is not None)
    return out


def team_match_result(
    team_match: TeamMatch, bumping: tuple[int, int] | None = None
) -> TeamMatchResult:
    """The result of one team match (:func:`team_match_results` for it alone)."""
    tournament = team_match.round.tournament
    return team_match_results(tournament, team_matches=[team_match.pk],
                              bumping=bumping)[team_match.pk]
