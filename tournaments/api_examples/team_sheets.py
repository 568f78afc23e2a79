"""The scenario's team match sheet: two teams of two pairs at two tables, the sheet refused
while board 2 plays, then signed by both captains (PINs) and the referee."""

from __future__ import annotations

from referee.services import start_party
from scoring.models import Pair, Party, Player, Round, Table, Team, TeamMatch, Tournament
from scoring.party.deals import record_deal
from scoring.signoff.pins import set_signing_pin
from scoring.signoff.team_sheets.services import countersign_sheet, sign_as_captain
from tournaments.api_examples.tournament import Scene

NAMES = ("Александра Константинопольская-Щербатова", "Ольга Морозова", "Пётр Первый",
         "Фёдор Второй", "Иван Петров", "Сергей Смирнов", "Нина Пятая", "Вера Шестая")
WENT_OUT = {"a": "a1", "b": "b1"}
"""A domino by the winner's first player, 20 pips in each other hand: 60 points a deal."""


def _play(party: Party, winner: str, scene: Scene) -> None:
    """Deals until ``winner`` reaches the target (60 a deal)."""
    while Party.objects.get(pk=party.pk).status != Party.Status.FINISHED:
        seat = WENT_OUT[winner]
        pips = {other: 0 if other == seat else 20 for other in ("a1", "a2", "b1", "b2")}
        record_deal(party.pk, outcome="domino", actor=scene.users["chief"], went_out=seat,
                    pips=pips)


def team_sheet(scene: Scene) -> None:
    """A team match of the first tournament's new round: its sheet while undecided (400),
    then awaiting signatures, then signed by the captains and the referee."""
    tournament = Tournament.objects.get(pk=scene.ids["tournament"])
    players = [Player.objects.create(tournament=tournament, name=name) for name in NAMES]
    pairs = [Pair.objects.create(tournament=tournament, player1=players[k],
                                 player2=players[k + 1]) for k in range(0, 8, 2)]
    teams = [Team.objects.create(tournament=tournament, name=name, club=club,
                                 captain=pairs[2 * k].player1)
             for k, (name, club) in enumerate((("Белые ночи", "Санкт-Петербург"),
                                               ("Казанские дуплеты", "Казань")))]
    for index, pair in enumerate(pairs):
        Pair.objects.filter(pk=pair.pk).update(team=teams[index // 2])
    number = (Round.objects.filter(tournament=tournament).order_by("-number")
              .values_list("number", flat=True).first() or 0) + 1
    rnd = Round.objects.create(tournament=tournament, number=number,
                               status=Round.Status.PUBLISHED)
    match = TeamMatch.objects.create(round=rnd, team_a=teams[0], team_b=teams[1],
                                     first_table=51)
    parties = []
    for board, (pair_a, pair_b) in enumerate(((pairs[0], pairs[2]), (pairs[1], pairs[3])),
                                             start=1):
        table = Table.objects.create(tournament=tournament, number=50 + board)
        party = Party.objects.create(round=rnd, table=table, pair_a=pair_a, pair_b=pair_b,
                                     team_match=match, board=board)
        start_party(party.pk, actor=scene.users["chief"])
        parties.append(party)
    _play(parties[0], "a", scene)
    scene.call("org", "get", f"/team-match-sheets/{match.pk}/pdf/", expect=400, error=True)
    _play(parties[1], "b", scene)
    scene.call("org", "get", f"/team-match-sheets/{match.pk}/")
    for team, pin in zip(teams, ("1357", "2468"), strict=True):
        assert team.captain is not None
        set_signing_pin(team.captain.pk, pin, actor=scene.users["org"])
        sign_as_captain(match.pk, team_id=team.pk, player_id=team.captain.pk,
                        actor=scene.users["chief"], pin=pin)
    countersign_sheet(match.pk, actor=scene.users["chief"])
    scene.call("org", "get", f"/team-match-sheets/{match.pk}/", keep=True)
    scene.call("org", "get", f"/team-match-sheets/{match.pk}/pdf/")
