"""The ``team`` column of a roster import: checking the teams a file names and joining them."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import BOARDS, Pair, Player, Team, Tournament
from scoring.teams.seating import PLAYERS_PER_MATCH
from tournaments.registration.team_players import register_squad, update_squad
from tournaments.registration.teams import register_team, update_team
from tournaments.transfer.roster_rows import RosterRow, _PairPlan, clean_name, name_key


def _join_teams(tournament: Tournament, made: list[tuple[_PairPlan, Pair]],
                errors: dict[int, dict[str, list[str]]]) -> int:
    """Register the teams the pairs name (or add the pairs to a registered one); a refusal
    goes to the ``team`` column of each of the team's pairs. The number of teams."""
    groups: dict[str, list[tuple[_PairPlan, Pair]]] = defaultdict(list)
    for plan, pair in made:
        if plan.team:
            groups[name_key(plan.team)].append((plan, pair))
    registered = {name_key(team.name): team for team in Team.objects.filter(tournament=tournament)}
    for key, members in groups.items():
        team = registered.get(key)
        pairs = [pair for _plan, pair in members]
        try:
            if team is None:
                clubs = {clean_name(r.values["club"]) for plan, _pair in members
                         for r in plan.rows}
                register_team(tournament, name=members[0][0].team, pairs=pairs,
                              club=clubs.pop() if len(clubs) == 1 else "")
            else:
                update_team(team.pk, pairs=[*team.pairs.order_by("id"), *pairs])
        except ServiceError as err:
            for plan, _pair in members:
                errors[plan.owner.number].setdefault("team", []).append(str(err.message))
    return len(groups)


def _join_squads(tournament: Tournament, rows: list[RosterRow], created: dict[int, Player],
                 errors: dict[int, dict[str, list[str]]]) -> int:
    """A team tournament of players: register the teams the rows name with their players (or
    add the players to a registered one); a refusal goes to the ``team`` column of each of
    the team's rows. The number of teams."""
    groups: dict[str, list[RosterRow]] = defaultdict(list)
    for row in rows:
        if clean_name(row.values.get("team", "")) and row.number in created:
            groups[name_key(row.values["team"])].append(row)
    registered = {name_key(team.name): team for team in Team.objects.filter(tournament=tournament)}
    for key, members in groups.items():
        team = registered.get(key)
        players = [created[row.number] for row in members]
        try:
            if team is None:
                clubs = {clean_name(row.values["club"]) for row in members}
                register_squad(tournament, name=clean_name(members[0].values["team"]),
                               players=players, club=clubs.pop() if len(clubs) == 1 else "")
            else:
                update_squad(team.pk, players=[*team.players.order_by("id"), *players])
        except ServiceError as err:
            for row in members:
                errors[row.number].setdefault("team", []).append(str(err.message))
    return len(groups)


def _check_squads(tournament: Tournament, rows: list[RosterRow]) -> None:
    """A team tournament of players: the rows naming a team are players without a partner,
    from four (a new team) up to the squad size with the players it has."""
    groups: dict[str, list[RosterRow]] = defaultdict(list)
    for row in rows:
        if not clean_name(row.values.get("team", "")):
            continue
        if clean_name(row.values.get("partner", "")):
            row.add_error("partner", _("In this tournament a team is made of players the "
                                       "captain pairs for each match: leave the partner empty."))
        groups[name_key(row.values["team"])].append(row)
    registered = {name_key(team.name): team for team in Team.objects.filter(tournament=tournament)}
    most = tournament.team_squad_players
    for key, members in groups.items():
        team = registered.get(key)
        count = len(members) + (team.players.count() if team is not None else 0)
        name = team.name if team is not None else clean_name(members[0].values["team"])
        if count > most:
            message = _("The team %(team)s would have %(count)s players; at most %(most)s in "
                        "this tournament.") % {"team": name, "count": count, "most": most}
        elif team is None and count < PLAYERS_PER_MATCH:
            message = _("The team %(team)s has %(count)s players in the file; a team needs at "
                        "least %(least)s.") % {"team": name, "count": count,
                                               "least": PLAYERS_PER_MATCH}
        else:
            continue
        for row in members:
            row.add_error("team", message)


def _check_teams(tournament: Tournament, rows: list[RosterRow],
                 plans: list[_PairPlan]) -> list[_PairPlan]:
    """The ``team`` column: a team tournament's only, of a pair (both its rows agree), and a
    team of two pairs at least (a new one) up to the squad size; the plans with their teams.
    A team tournament of players: :func:`_check_squads`."""
    if (tournament.format == Tournament.Format.TEAMS
            and tournament.team_members == Tournament.TeamMembers.PLAYERS):
        _check_squads(tournament, rows)
        return plans
    paired = {r.number for plan in plans for r in plan.rows}
    for row in rows:
        if not clean_name(row.values.get("team", "")):
            continue
        if tournament.format != Tournament.Format.TEAMS:
            row.add_error("team", _("Only a team tournament has teams: leave the team empty."))
        elif row.number not in paired:
            row.add_error("team", _("A team is made of pairs: give the player a partner."))
    if tournament.format != Tournament.Format.TEAMS:
        return plans
    out = []
    for plan in plans:
        names = [clean_name(r.values.get("team", "")) for r in plan.rows]
        given = [n for n in names if n]
        if len({name_key(n) for n in given}) > 1:
            plan.owner.add_error("team", _("Row %(row)s gives this pair another team: %(name)s.")
                                 % {"row": plan.first.number, "name": given[0]})
        out.append(replace(plan, team=given[0] if given else ""))
    groups: dict[str, list[_PairPlan]] = defaultdict(list)
    for plan in out:
        if plan.team:
            groups[name_key(plan.team)].append(plan)
    registered = {name_key(team.name): team for team in Team.objects.filter(tournament=tournament)}
    most = tournament.team_squad_pairs
    for key, members in groups.items():
        team = registered.get(key)
        count = len(members) + (team.pairs.count() if team is not None else 0)
        name = team.name if team is not None else members[0].team
        if count > most:
            message = _("The team %(team)s would have %(count)s pairs; at most %(most)s in "
                        "this tournament.") % {"team": name, "count": count, "most": most}
        elif team is None and count < BOARDS:
            message = _("The team %(team)s has %(count)s pair in the file; a team needs at "
                        "least %(least)s.") % {"team": name, "count": count, "least": BOARDS}
        else:
            continue
        for plan in members:
            plan.owner.add_error("team", message)
    return out
