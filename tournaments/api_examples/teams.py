"""The scenario's team event: two teams of two pairs drawn into one team match of two halves
at tables 1 and 2, a line-up set before publishing, the team matches and team standings read.

The teams themselves are made with the ORM here (the team registration API is another
resource's; switch to it when it lands)."""

from __future__ import annotations

from scoring.models import Pair, Team, Tournament
from tournaments.api_examples.tournament import Scene

NAMES = ("Ирина Каткова", "Кирилл Лебедев", "Лидия Малова", "Михаил Носов",
         "Надежда Орлова", "Олег Павлов", "Полина Рябова", "Роман Сидоров")


def teams(scene: Scene) -> None:
    """A team event's round: drawn, a line-up changed, read."""
    cup = scene.call("org", "post", "/tournaments/", {
        "name": "Командный кубок", "rule_set": "sport", "format": "teams",
        "start_date": "2026-05-20", "time_zone": "Europe/Moscow", "language": "ru",
    }, expect=201, keep=False)
    tid = cup["id"]
    Tournament.objects.filter(pk=tid).update(team_halves=True, team_lineup_changes=True)
    players = [scene.call("org", "post", "/players/", {
        "tournament": tid, "name": name, "rating": 1700 - 10 * n}, expect=201,
        keep=False)["id"] for n, name in enumerate(NAMES)]
    pairs = [scene.call("org", "post", "/pairs/", {
        "tournament": tid, "player1": players[2 * k], "player2": players[2 * k + 1]},
        expect=201, keep=False)["id"] for k in range(4)]
    for k, name in enumerate(("Спартак", "Динамо")):
        team = Team.objects.create(tournament_id=tid, name=name, club=name)
        Pair.objects.filter(pk__in=pairs[2 * k: 2 * k + 2]).update(team=team)
    for number in (1, 2):
        scene.call("org", "post", "/tables/", {"tournament": tid, "number": number},
                   expect=201, keep=False)
    rid = scene.call("org", "post", "/rounds/", {"tournament": tid}, expect=201,
                     keep=False)["id"]
    scene.call("org", "post", f"/rounds/{rid}/generate/", {"seed": 3}, keep=False)
    matches = scene.call("org", "get", "/team-matches/", query={"round": rid})
    match = matches["results"][0]
    team = match["team_a"]["id"]
    own = sorted(Pair.objects.filter(team_id=team).values_list("id", flat=True))
    scene.call("org", "post", f"/team-matches/{match['id']}/lineup/",
               {"team": team, "pairs": [own[1], own[0]]})
    scene.call("org", "post", f"/rounds/{rid}/publish/", keep=False)
    scene.call("anonymous", "get", f"/team-matches/{match['id']}/")
    scene.call("anonymous", "get", f"/tournaments/{tid}/team-standings/")
