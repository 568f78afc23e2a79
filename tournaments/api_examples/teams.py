"""The scenario's team tournament: created with its team settings, two pairs registered, then
teams registered (a registered pair and a new one; two new pairs), listed, read, changed,
withdrawn, and a spare team deleted; a refusal (a pair of another team)."""

from __future__ import annotations

from tournaments.api_examples.tournament import Scene


def teams(scene: Scene) -> None:
    """A team tournament's teams through the API."""
    cup = scene.call("org", "post", "/tournaments/", {
        "name": "Кубок клубов", "rule_set": "sport", "format": "teams",
        "start_date": "2026-06-06", "time_zone": "Europe/Moscow", "language": "ru",
        "team_squad_pairs": 3, "team_halves": True, "team_scoring": "match_points",
        "team_tie_breaks": ["party_wins", "head_to_head"],
    }, expect=201, keep=False)
    tid = cup["id"]
    names = ("Илья Кузнецов", "Кирилл Лебедев", "Лидия Морозова", "Максим Новиков")
    players = [scene.call("org", "post", "/players/", {
        "tournament": tid, "name": name, "club": "Дубль-шесть", "rating": 1500 - 20 * n},
        expect=201, keep=False)["id"] for n, name in enumerate(names)]
    pairs = [scene.call("org", "post", "/pairs/", {
        "tournament": tid, "player1": players[2 * k], "player2": players[2 * k + 1]},
        expect=201, keep=False)["id"] for k in range(2)]
    team = scene.call("org", "post", "/teams/", {
        "tournament": tid, "name": "Дубль-шесть", "club": "Дубль-шесть", "country": "Россия",
        "pairs": [{"pair": pairs[0]},
                  {"players": [{"name": "Анна Белова", "rating": 1480},
                               {"name": "Вера Котова", "rating": 1420}], "name": "Дамы"}],
        "captain_name": "Вера Котова"}, expect=201)
    spare = scene.call("org", "post", "/teams/", {
        "tournament": tid, "name": "Рыба", "club": "Рыба",
        "pairs": [{"players": [{"name": "Олег Щукин"}, {"name": "Иван Окунев"}]},
                  {"players": [{"name": "Пётр Сомов"}, {"name": "Павел Карпов"}]}]},
        expect=201, keep=False)
    scene.call("org", "post", "/teams/", {
        "tournament": tid, "name": "Азов", "pairs": [{"pair": pairs[0]}, {"pair": pairs[1]}]},
        expect=400, error=True)
    scene.call("anonymous", "get", "/teams/", query={"tournament": tid})
    scene.call("anonymous", "get", f"/teams/{team['id']}/")
    scene.call("org", "patch", f"/teams/{team['id']}/", {"country": "Беларусь"})
    scene.call("org", "put", f"/teams/{team['id']}/", {
        "name": "Дубль-шесть", "club": "Дубль-шесть", "country": "Беларусь",
        "pairs": [{"pair": pairs[0]}, {"pair": team["pairs"][1]["id"]}, {"pair": pairs[1]}],
        "captain": players[0]})
    scene.call("org", "post", f"/teams/{team['id']}/withdraw/", {"withdrawn": True})
    scene.call("org", "delete", f"/teams/{spare['id']}/", expect=204)
