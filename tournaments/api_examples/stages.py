"""The scenario's finals: a tournament of four pairs in two groups (made by hand), their
round (both parties forfeited by a no-show), then the finals drawn from the groups' cross-over
with a match for third place; the stages, the bracket and its matches read."""

from __future__ import annotations

from tournaments.api_examples.tournament import Scene

NAMES = ("Антон Белов", "Борис Волков", "Вера Гусева", "Глеб Дронов",
         "Дарья Ершова", "Егор Жуков", "Жанна Зимина", "Захар Ильин")


def finals(scene: Scene) -> None:
    """Groups, their round robin, the finals' qualifiers and bracket."""
    cup = scene.call("org", "post", "/tournaments/", {
        "name": "Финал четырёх", "rule_set": "sport", "format": "pairs",
        "start_date": "2026-05-18", "time_zone": "Europe/Moscow", "language": "ru",
    }, expect=201)
    tid = cup["id"]
    players = [scene.call("org", "post", "/players/", {
        "tournament": tid, "name": name, "rating": 1600 - 10 * n}, expect=201)["id"]
        for n, name in enumerate(NAMES)]
    pairs = [scene.call("org", "post", "/pairs/", {
        "tournament": tid, "player1": players[2 * k], "player2": players[2 * k + 1]},
        expect=201)["id"] for k in range(4)]
    for number in (1, 2):
        scene.call("org", "post", "/tables/", {"tournament": tid, "number": number},
                   expect=201)
    scene.call("org", "post", f"/referee/tournaments/{tid}/referees/",
               {"username": "ref", "role": "referee"}, expect=201)
    groups = scene.call("org", "post", "/stages/groups/", {
        "tournament": tid, "groups": [[pairs[0], pairs[3]], [pairs[1], pairs[2]]]}, expect=201)
    scene.call("org", "get", "/stages/", query={"tournament": tid})
    rid = scene.call("org", "post", "/rounds/", {"tournament": tid}, expect=201)["id"]
    scene.call("org", "post", f"/rounds/{rid}/generate/", {"seed": 7}, keep=False)
    scene.call("org", "post", f"/rounds/{rid}/publish/", keep=False)
    scene.call("org", "post", f"/rounds/{rid}/start/", keep=False)
    parties = scene.call("ref", "get", "/parties/", query={"round": rid}, keep=False)
    for party in parties["results"]:
        scene.call("ref", "post", f"/parties/{party['id']}/check-in/", {"side": "a"},
                   keep=False)
    scene.rec.clock.advance(minutes=16)
    for party in parties["results"]:
        scene.call("ref", "post", f"/parties/{party['id']}/no-show/",
                   {"side": "b", "reason": "Пара не явилась к столу"}, expect=201, keep=False)
    scene.call("org", "post", f"/rounds/{rid}/close/", keep=False)
    scene.call("org", "get", f"/stages/{groups['id']}/group-standings/")
    scene.call("org", "get", "/stages/qualifiers/", query={"tournament": tid, "size": 4})
    bracket = scene.call("org", "post", "/stages/finals/", {
        "tournament": tid, "bracket_size": 4, "third_place": True}, expect=201)
    kid = bracket["stage"]["id"]
    scene.call("anonymous", "get", f"/stages/{kid}/")
    scene.call("anonymous", "get", f"/stages/{kid}/bracket/")
    matches = scene.call("anonymous", "get", "/matches/", query={"stage": kid})
    scene.call("anonymous", "get", f"/matches/{matches['results'][0]['id']}/")
