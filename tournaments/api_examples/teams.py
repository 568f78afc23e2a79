"""The scenario's team tournaments: one created with its team settings, its teams registered
(a registered pair and a new one; two new pairs), listed, read, changed, withdrawn, a spare
team deleted and a refusal (a pair of another team); another's round of two teams drawn into
one team match of two halves at tables 1 and 2, a line-up set before publishing, the team
matches and team standings read."""

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


NAMES = ("Ирина Каткова", "Кирилл Лебедев", "Лидия Малова", "Михаил Носов",
         "Надежда Орлова", "Олег Павлов", "Полина Рябова", "Роман Сидоров")


def team_rounds(scene: Scene) -> None:
    """A team event's round: two teams registered, drawn, a line-up changed, read."""
    cup = scene.call("org", "post", "/tournaments/", {
        "name": "Командный кубок", "rule_set": "sport", "format": "teams",
        "start_date": "2026-05-20", "time_zone": "Europe/Moscow", "language": "ru",
        "team_halves": True, "team_lineup_changes": True,
    }, expect=201, keep=False)
    tid = cup["id"]
    players = [scene.call("org", "post", "/players/", {
        "tournament": tid, "name": name, "rating": 1700 - 10 * n}, expect=201,
        keep=False)["id"] for n, name in enumerate(NAMES)]
    pairs = [scene.call("org", "post", "/pairs/", {
        "tournament": tid, "player1": players[2 * k], "player2": players[2 * k + 1]},
        expect=201, keep=False)["id"] for k in range(4)]
    for k, name in enumerate(("Спартак", "Динамо")):
        scene.call("org", "post", "/teams/", {
            "tournament": tid, "name": name, "club": name,
            "pairs": [{"pair": pk} for pk in pairs[2 * k: 2 * k + 2]]}, expect=201, keep=False)
    for number in (1, 2):
        scene.call("org", "post", "/tables/", {"tournament": tid, "number": number},
                   expect=201, keep=False)
    rid = scene.call("org", "post", "/rounds/", {"tournament": tid}, expect=201,
                     keep=False)["id"]
    scene.call("org", "post", f"/rounds/{rid}/generate/", {"seed": 3}, keep=False)
    matches = scene.call("org", "get", "/team-matches/", query={"round": rid})
    match = matches["results"][0]
    team = match["team_a"]["id"]
    own = sorted(pair["id"] for pair in scene.call(
        "anonymous", "get", f"/teams/{team}/", keep=False)["pairs"])
    scene.call("org", "post", f"/team-matches/{match['id']}/lineup/",
               {"team": team, "pairs": [own[1], own[0]]})
    scene.call("org", "post", f"/rounds/{rid}/publish/", keep=False)
    scene.call("anonymous", "get", f"/team-matches/{match['id']}/")
    scene.call("anonymous", "get", f"/tournaments/{tid}/team-standings/")


SQUADS = {"Ладья": ("Алла Ветрова", "Борис Громов", "Валентин Дёмин", "Галина Ершова",
                    "Дмитрий Жуков"),
          "Ферзь": ("Евгения Зайцева", "Жанна Ильина", "Зиновий Клюев", "Игорь Лаптев")}


def team_squads(scene: Scene) -> None:
    """A team event of players: two teams registered by their players, their groups drawn
    (one group of teams), the round drawn, the captain's pairing of four players (a refusal:
    a player named twice), read."""
    cup = scene.call("org", "post", "/tournaments/", {
        "name": "Кубок четвёрок", "rule_set": "sport", "format": "teams",
        "start_date": "2026-05-23", "time_zone": "Europe/Moscow", "language": "ru",
        "team_members": "players", "team_squad_players": 5,
    }, expect=201, keep=False)
    tid = cup["id"]
    made = [scene.call("org", "post", "/teams/", {
        "tournament": tid, "name": name, "captain_name": squad[0],
        "players": [{"name": player, "rating": 1600 - 10 * n}
                    for n, player in enumerate(squad)]}, expect=201, keep=n > 0)
        for n, (name, squad) in enumerate(SQUADS.items())]
    for number in (1, 2):
        scene.call("org", "post", "/tables/", {"tournament": tid, "number": number},
                   expect=201, keep=False)
    scene.call("org", "post", "/stages/groups/", {"tournament": tid, "group_count": 1},
               expect=201)
    rid = scene.call("org", "post", "/rounds/", {"tournament": tid}, expect=201,
                     keep=False)["id"]
    scene.call("org", "post", f"/rounds/{rid}/generate/", {}, keep=False)
    match = scene.call("org", "get", "/team-matches/", query={"round": rid},
                       keep=False)["results"][0]
    own = [p["id"] for p in made[0]["players"]]
    scene.call("org", "post", f"/team-matches/{match['id']}/lineup/",
               {"team": made[0]["id"], "players": [own[4], own[4], own[0], own[1]]},
               expect=400, error=True)
    scene.call("org", "post", f"/team-matches/{match['id']}/lineup/",
               {"team": made[0]["id"], "players": [own[4], own[0], own[2], own[1]]})
