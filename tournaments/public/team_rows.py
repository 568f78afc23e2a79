"""The rows of a team event's pages: team matches, a team's record, the team standings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import Q
from django.utils import formats
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.models import Pair, Player, Round, Team, TeamMatch, Tournament
from scoring.ranking.results import standings_table
from scoring.teams.results import TeamMatchResult, team_match_results
from scoring.teams.standings import TIE_BREAK_METRICS, TeamStandingRow, team_order
from scoring.teams.standings import team_standings as team_standings_rows
from tournaments.pages import url_root
from tournaments.public.history import HistoryRow, history

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


SCORE_NAMES: dict[str, StrOrPromise] = {
    Tournament.TeamScoring.MATCH_POINTS: _("match points"),
    Tournament.TeamScoring.PARTIES: _("parties won"),
    Tournament.TeamScoring.POINTS: _("points"),
    Tournament.TeamScoring.EFECTIVENESS: _("efectiveness"),
}


def number_text(value: Any) -> str:
    """A figure as the pages print it (integers as they are, fractions localized)."""
    return str(value) if isinstance(value, int) else formats.localize(value)


# -- a team match as the pages show it ---------------------------------------------------


@dataclass
class MatchView:
    """A team match of a round: its teams, tables, result and its boards half by half.

    ``halves``: [(half, [board rows])], each board row a ``map_tables`` row (or a history
    row on a team's page) with ``board_title`` added.
    """

    pk: int
    round_number: int
    team_a: Team
    team_b: Team | None
    first_table: int | None
    result: TeamMatchResult | None
    scoring: str
    halves: list[tuple[int, list[Any]]] = field(default_factory=list)

    @property
    def bye(self) -> bool:
        """True when team A has no opponent this round."""
        return self.team_b is None

    @property
    def tables(self) -> str:
        """Its tables, "5–6" (board 1's and board 2's)."""
        if self.first_table is None:
            return ""
        return f"{self.first_table}–{self.first_table + 1}"

    @property
    def parties_score(self) -> str:
        """The parties won by each team so far, "3 : 1" (empty for a bye)."""
        result = self.result
        if result is None or result.b is None:
            return ""
        return f"{result.a.parties_won} : {result.b.parties_won}"

    @property
    def team_score(self) -> str:
        """The team score as the tournament counts it, "2 : 0" (empty for a bye)."""
        result = self.result
        if result is None or result.b is None:
            return ""
        return f"{number_text(result.a.score)} : {number_text(result.b.score)}"

    @property
    def score_name(self) -> str:
        """What the team score counts ("match points")."""
        return str(SCORE_NAMES.get(self.scoring, ""))

    @property
    def shows_team_score(self) -> bool:
        """Whether the team score says more than the parties won (not the parties scoring)."""
        return self.scoring != Tournament.TeamScoring.PARTIES

    @property
    def decided(self) -> bool:
        """Whether every party of the team match is finished."""
        return self.result is not None and self.result.decided

    @property
    def winner(self) -> str:
        """"a" or "b" for the winning team of a decided match, else empty (a bye too)."""
        result = self.result
        if result is None or result.winner is None or self.bye:
            return ""
        return "a" if result.winner == self.team_a.pk else "b"

    def opponent_of(self, team: int) -> Team | None:
        """The other team of the match."""
        return self.team_b if team == self.team_a.pk else self.team_a

    def outcome_for(self, team: int) -> str:
        """won, lost, drawn, bye or playing, for ``team``."""
        if self.bye:
            return "bye"
        if not self.decided:
            return "playing"
        if not self.winner:
            return "drawn"
        mine = "a" if team == self.team_a.pk else "b"
        return "won" if self.winner == mine else "lost"


OUTCOME_LABELS: dict[str, StrOrPromise] = {
    "won": _("won"),
    "lost": _("lost"),
    "drawn": _("drawn"),
    "bye": _("bye"),
    "playing": _("in play"),
}


def board_title(board: int | None, table: int | None) -> str:
    """"Board 2 · Table 6" (a board without a table: "Board 2")."""
    text = gettext("Board %(board)s") % {"board": board or "?"}
    if table:
        text += " · " + gettext("Table %(number)s") % {"number": table}
    return text


def half_title(half: int) -> str:
    """"First half", "Second half"."""
    return gettext("First half") if half == 1 else gettext("Second half")


def _views(
    tournament: Tournament, matches: list[TeamMatch], results: dict[int, TeamMatchResult]
) -> dict[int, MatchView]:
    """Each team match as a view, by id (boards not yet given)."""
    return {
        m.pk: MatchView(
            pk=m.pk, round_number=m.round.number, team_a=m.team_a, team_b=m.team_b,
            first_table=m.first_table, result=results.get(m.pk),
            scoring=tournament.team_scoring,
        )
        for m in matches
    }


def _add_boards(view: MatchView, boards: list[tuple[int, int, Any]]) -> None:
    """Give a match view its boards: (half, board, row) sorted into halves."""
    halves: dict[int, list[Any]] = {}
    for half, _board, row in sorted(boards, key=lambda item: (item[0], item[1])):
        halves.setdefault(half, []).append(row)
    view.halves = sorted(halves.items())


def round_matches(
    tournament: Tournament, rnd: Round, rows: list[dict[str, Any]]
) -> list[MatchView]:
    """The round's team matches in table order, each with its boards (rows of
    ``map_tables``), halves in order; two queries besides the results."""
    matches = list(
        TeamMatch.objects.filter(round=rnd).select_related("team_a", "team_b")
        .order_by("first_table", "pk")
    )
    for match in matches:
        match.round = rnd
    results = team_match_results(tournament, team_matches=[m.pk for m in matches])
    views = _views(tournament, matches, results)
    boards: dict[int, list[tuple[int, int, Any]]] = {}
    for row in rows:
        if row.get("team_match_id") in views:
            row["board_title"] = board_title(row["board"], row["table__number"])
            boards.setdefault(row["team_match_id"], []).append(
                (row["half"], row["board"] or 0, row))
    for pk, view in views.items():
        _add_boards(view, boards.get(pk, []))
    return sorted(views.values(), key=lambda v: (v.bye, v.first_table or 0, v.pk))


# -- a team's page -----------------------------------------------------------------------


@dataclass(frozen=True)
class BoardRow:
    """One board of a team's match: its title ("Board 2 · Table 6") and the party from the
    team's side."""

    title: str
    row: HistoryRow


def team_history(tournament: Tournament, team: Team) -> list[MatchView]:
    """The team's matches of the published rounds in round order, each board a
    :class:`BoardRow` from the team's point of view (its pair, the opponents, the score)."""
    matches = list(
        TeamMatch.objects.filter(Q(team_a=team) | Q(team_b=team), round__tournament=tournament)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round", "team_a", "team_b")
        .order_by("round__number", "pk")
    )
    results = team_match_results(tournament, team_matches=[m.pk for m in matches])
    views = _views(tournament, matches, results)
    rows = history(
        tournament, Q(team_match__in=list(views)), lambda pair: pair.team_id == team.pk)
    boards: dict[int, list[tuple[int, int, Any]]] = {}
    for row in rows:
        party = row.party
        title = board_title(party.board, party.table.number if party.table else None)
        if party.team_match_id is not None:
            boards.setdefault(party.team_match_id, []).append(
                (party.half, party.board or 0, BoardRow(title, row)))
    for pk, view in views.items():
        _add_boards(view, boards.get(pk, []))
    return [views[m.pk] for m in matches]


@dataclass
class MemberRecord:
    """One member of a team (a pair, or a player of a team of players) with its record in
    the standings of pairs (of players)."""

    name: str
    detail: str
    url: str
    rank: str
    values: list[tuple[Any, str]]


def member_records(
    tournament: Tournament, team: Team, links: bool
) -> tuple[list[Any], list[MemberRecord]]:
    """The team's members with their figures (the first columns): its pairs from the pairs'
    standings, or, for a team of players (paired anew for each match), its players from the
    standings of players."""
    players = tournament.team_members == Tournament.TeamMembers.PLAYERS
    table = standings_table(tournament, per_player=players)
    columns = list(table.columns[:3])
    rows = {row.entrant: row for row in table.rows}
    root = url_root("tournaments:player" if players else "tournaments:pair",
                    tournament.slug) if links else ""
    members: list[tuple[int, str, str]]
    if players:
        members = [(p.pk, p.name, p.club) for p in Player.objects.filter(team=team)
                   .order_by("pk")]
    else:
        members = [(p.pk, p.display_name, p.players_label if p.name else "")
                   for p in Pair.objects.filter(team=team, formed_in_round__isnull=True)
                   .select_related("player1", "player2").order_by("pk")]
    records = []
    for pk, name, detail in members:
        row = rows.get(pk)
        records.append(MemberRecord(
            name=name, detail=detail,
            url=f"{root}{pk}/" if links else "",
            rank=("" if row is None else f"{row.rank}=" if row.shared else str(row.rank)),
            values=[(m, number_text(row.metrics[m.key]) if row else "–") for m in columns],
        ))
    return columns, records


# -- the team standings ------------------------------------------------------------------


SCORE_ABBRS: dict[str, StrOrPromise] = {
    Tournament.TeamScoring.MATCH_POINTS: _("MP"),
    Tournament.TeamScoring.PARTIES: _("PW"),
    Tournament.TeamScoring.POINTS: _("Pts"),
    Tournament.TeamScoring.EFECTIVENESS: _("Ef"),
}

TIE_BREAK_NAMES: dict[str, StrOrPromise] = {
    "party_wins": _("parties won"),
    "point_difference": _("point difference"),
    "head_to_head": _("head-to-head"),
    "buchholz": _("Buchholz"),
}


def standings_order(tournament: Tournament) -> list[str]:
    """What ranks the teams, in words: the team score, then the tie-breaks."""
    chosen = team_order(tournament)[1:]
    names = {metric: TIE_BREAK_NAMES[key] for key, metric in TIE_BREAK_METRICS.items()}
    return [str(SCORE_NAMES[tournament.team_scoring]), *(str(names[m]) for m in chosen)]


def team_lines(tournament: Tournament, after_round: int | None = None,
               rows: list[TeamStandingRow] | None = None) -> list[dict[str, Any]]:
    """The team standings' lines ready to print, from ``scoring.teams.standings`` (three
    queries besides it) or the ``rows`` given (a group's): rank, team, its club or country
    and members (its pairs, or its players), its figures."""
    if rows is None:
        rows = team_standings_rows(tournament, after_round=after_round)
    teams = {team.pk: team for team in Team.objects.filter(tournament=tournament)}
    pairs: dict[int, list[str]] = {}
    if tournament.team_members == Tournament.TeamMembers.PLAYERS:
        for team_id, name in (Player.objects.filter(team__tournament=tournament)
                              .order_by("pk").values_list("team_id", "name")):
            pairs.setdefault(team_id, []).append(name)
    for pair in (Pair.objects.filter(team__tournament=tournament, formed_in_round__isnull=True)
                 .select_related("player1", "player2").order_by("pk")):
        if pair.team_id is not None:
            pairs.setdefault(pair.team_id, []).append(pair.display_name)
    root = url_root("tournaments:team", tournament.slug)
    lines = []
    for row in rows:
        team = teams.get(row.team)
        lines.append({
            "pk": row.team,
            "rank": f"{row.rank}=" if row.shared else str(row.rank),
            "name": row.name,
            "url": f"{root}{row.team}/",
            "where": " · ".join(x for x in (team.club, team.country) if x) if team else "",
            "pairs": pairs.get(row.team, []),
            "withdrawn": row.withdrawn,
            "score": number_text(row.score),
            "played": row.played,
            "record": f"{row.won}–{row.level}–{row.lost}",
            "party_wins": row.party_wins,
            "point_difference": f"{row.point_difference:+d}" if row.point_difference else "0",
            "buchholz": number_text(row.buchholz),
            "row": row,
        })
    return lines


# -- the player's area -------------------------------------------------------------------


@dataclass(frozen=True)
class TeamMatchLine:
    """Where a player of a team plays his next party: the table and board, the other team,
    the half (two halves), and his own team."""

    table: int | None
    board: int | None
    half: int
    halves: bool
    team: str
    opponent_team: str


def team_match_line(row: HistoryRow) -> TeamMatchLine | None:
    """The team match of a player's next party (one query), or None outside team matches."""
    party = row.party
    if party.team_match_id is None:
        return None
    match = TeamMatch.objects.select_related("team_a", "team_b").get(pk=party.team_match_id)
    own = row.own.team_id
    mine, other = ((match.team_a, match.team_b) if own == match.team_a_id
                   else (match.team_b, match.team_a))
    return TeamMatchLine(
        table=party.table.number if party.table else None,
        board=party.board,
        half=party.half,
        halves=party.round.tournament.team_halves,
        team=mine.name if mine else "",
        opponent_team=other.name if other else "",
    )
