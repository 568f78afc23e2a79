"""The scenario's first half: a tournament, its entrants, referees, webhooks and round flow.

A pairs tournament of sport domino ("Кубок Москвы 2026"): four pairs at two tables, a fifth
pair imported, withdrawn and removed again, a referee and a chief referee, a webhook, and
round 1 drawn, edited, published and started. ``tournaments.api_examples.party`` plays it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from tournaments.api_examples.recorder import Recorder

API = "/api/v1"
PASSWORD = "correct-horse-battery-staple"
"""The password of the scenario's users (a throwaway database's)."""

PLAYERS = [
    ("Иван Петров", "Динамо", "Москва", 1510),
    ("Сергей Смирнов", "Динамо", "Москва", 1480),
    ("Ольга Морозова", "Спартак", "Москва", 1620),
    ("Мария Волкова", "Спартак", "Москва", 1590),
    ("Пётр Первый", "Нева", "Санкт-Петербург", 1440),
    ("Фёдор Второй", "Нева", "Санкт-Петербург", 1450),
    ("Нина Пятая", "Волга", "Казань", 1530),
    ("Вера Шестая", "Волга", "Казань", 1500),
]
ROSTER = (
    "name,club,city,rating,partner\n"
    "Лев Седьмой,Урал,Екатеринбург,1470,Яков Восьмой\n"
    "Яков Восьмой,Урал,Екатеринбург,1460,Лев Седьмой\n"
)
"""The roster file imported: one more pair."""


@dataclass
class Scene:
    """What the scenario made so far: its users, clients and the ids it goes on with."""

    rec: Recorder
    users: dict[str, Any] = field(default_factory=dict)
    ids: dict[str, Any] = field(default_factory=dict)

    def call(self, who: str, method: str, path: str, body: Any = None, **kwargs: Any) -> Any:
        """Call ``/api/v1`` + ``path`` as user ``who`` (``anonymous`` for nobody)."""
        client = self.rec.client(None if who == "anonymous" else self.users[who])
        return self.rec.call(client, method, API + path, body, **kwargs)


def make_users(scene: Scene) -> None:
    """The organizer (allowed to create tournaments), two referees and another organizer."""
    users = get_user_model()
    add = Permission.objects.get(codename="add_tournament")
    for name in ("org", "ref", "chief", "ref2", "other-org"):
        user = users.objects.create_user(name, password=PASSWORD)
        if name.endswith("org"):
            user.user_permissions.add(add)
        scene.users[name] = user


def tournament(scene: Scene) -> None:
    """Log in, create the tournament, read and change it and its regulations."""
    scene.call("anonymous", "post", "/auth/token/", {"username": "org", "password": PASSWORD})
    t = scene.call("org", "post", "/tournaments/", {
        "name": "Кубок Москвы 2026", "rule_set": "sport", "format": "pairs",
        "start_date": "2026-05-16", "end_date": "2026-05-17", "city": "Москва",
        "venue": "Центральный дом шахматиста", "time_zone": "Europe/Moscow", "language": "ru",
    })
    tid = scene.ids["tournament"] = t["id"]
    scene.call("org", "get", "/tournaments/", query={"status": "registration"})
    full = scene.call("org", "get", f"/tournaments/{tid}/")
    changed = {k: v for k, v in full.items() if k not in ("id", "singles")}
    changed["venue"] = "Центральный дом шахматиста, Гоголевский бульвар, 14"
    scene.call("org", "put", f"/tournaments/{tid}/", changed)
    scene.call("org", "patch", f"/tournaments/{tid}/", {"public_entrants": False})
    regulations = scene.call("org", "get", f"/tournaments/{tid}/regulations/")
    scene.call("org", "put", f"/tournaments/{tid}/regulations/",
               {**regulations, "party_minutes": 50})
    scene.call("org", "patch", f"/tournaments/{tid}/regulations/", {"no_show_minutes": 15})


def entrants(scene: Scene) -> None:
    """Players, pairs and tables; an imported pair withdrawn and removed again."""
    tid = scene.ids["tournament"]
    players = []
    for name, club, city, rating in PLAYERS:
        players.append(scene.call("org", "post", "/players/", {
            "tournament": tid, "name": name, "club": club, "city": city, "country": "Россия",
            "rating": rating,
        })["id"])
    scene.ids["players"] = players
    scene.call("org", "get", "/players/", query={"tournament": tid})
    first = scene.call("org", "get", f"/players/{players[0]}/")
    scene.call("org", "put", f"/players/{players[0]}/", {
        **{k: first[k] for k in ("tournament", "name", "club", "city", "country", "rating",
                                 "fixed_table")},
        "rating": 1515,
    })
    scene.call("org", "patch", f"/players/{players[1]}/", {"club": "Динамо-2"})
    pairs = []
    for k in range(4):
        pairs.append(scene.call("org", "post", "/pairs/", {
            "tournament": tid, "player1": players[2 * k], "player2": players[2 * k + 1],
        })["id"])
    scene.ids["pairs"] = pairs
    scene.call("org", "get", "/pairs/", query={"tournament": tid})
    pair = scene.call("org", "get", f"/pairs/{pairs[0]}/")
    scene.call("org", "put", f"/pairs/{pairs[0]}/", {
        **{k: pair[k] for k in ("tournament", "name", "player1", "player2", "rating",
                                "fixed_table")},
        "name": "Динамо",
    })
    scene.call("org", "patch", f"/pairs/{pairs[1]}/", {"name": "Спартак"})
    tables = [scene.call("org", "post", "/tables/", {"tournament": tid, "number": n})["id"]
              for n in (1, 2, 3)]
    scene.ids["tables"] = tables[:2]
    scene.call("org", "get", "/tables/", query={"tournament": tid})
    scene.call("org", "get", f"/tables/{tables[0]}/")
    scene.call("org", "put", f"/tables/{tables[0]}/",
               {"tournament": tid, "number": 1, "label": "У окна"})
    scene.call("org", "patch", f"/tables/{tables[1]}/", {"label": "У сцены"})
    scene.call("org", "delete", f"/tables/{tables[2]}/", expect=204)
    _imported_pair(scene)
    _profiles(scene)


def _profiles(scene: Scene) -> None:
    """The first player's profile found by name, and a second profile of him that plays
    nowhere: only staff merge that one (the merge is recorded by ``profile_merges``)."""
    from scoring.people.profiles import new_profile

    name, club, city, _rating = PLAYERS[0]
    keep = scene.call("anonymous", "get", "/profiles/", query={"search": name.split()[-1]})
    # the same person as the federation's list gave him, with his birth year (made here)
    other = new_profile(name=name, club=club, city=city, birth_year=1984)
    kept = keep["results"][0]["id"]
    scene.ids["duplicate"] = other.pk
    scene.call("org", "post", f"/profiles/{kept}/merge/", {"other": other.pk}, expect=403,
               error=True)
    scene.call("org", "get", f"/profiles/{kept}/")


def profile_merges(scene: Scene) -> None:
    """The second profile entered in the organizer's earlier (hidden) tournament: both are
    his, so he merges them; another organizer may not undo it; he unmerges and merges again."""
    from scoring.models import Player, Profile
    from tournaments.registration.services import register_player
    from tournaments.setup.services import create_tournament

    kept = Player.objects.get(pk=scene.ids["players"][0]).profile_id  # his profile by now
    other = scene.ids["duplicate"]
    winter = create_tournament(name="Зимний кубок 2026", slug="zimniy-kubok-2026",
                               organizer=scene.users["org"], public=False)
    name, club, city, _rating = PLAYERS[0]
    register_player(winter, name=name, club=club, city=city,
                    profile=Profile.objects.get(pk=other))
    scene.call("org", "post", f"/profiles/{kept}/merge/", {"other": other})
    scene.call("other-org", "post", f"/profiles/{other}/unmerge/", expect=403, error=True)
    scene.call("org", "post", f"/profiles/{other}/unmerge/")
    scene.call("org", "post", f"/profiles/{kept}/merge/", {"other": other})


def _imported_pair(scene: Scene) -> None:
    """A pair imported from a roster file, withdrawn, then deleted with its players."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    tid = scene.ids["tournament"]
    upload = SimpleUploadedFile("roster.csv", ROSTER.encode(), content_type="text/csv")
    report = scene.call(
        "org", "post", f"/tournaments/{tid}/import/",
        {"file": ROSTER, "skip_bad_rows": False, "dry_run": False},
        multipart={"file": upload, "skip_bad_rows": "false", "dry_run": "false"}, expect=201,
    )
    assert report["imported"], report
    listed = scene.call("org", "get", "/pairs/", query={"tournament": tid})["results"]
    extra = next(p for p in listed if p["id"] not in scene.ids["pairs"])
    scene.call("org", "post", f"/pairs/{extra['id']}/withdraw/", {"withdrawn": True})
    scene.call("org", "post", f"/players/{extra['player1']}/withdraw/", {"withdrawn": True})
    scene.call("org", "delete", f"/pairs/{extra['id']}/", expect=204)
    for player in (extra["player1"], extra["player2"]):
        scene.call("org", "delete", f"/players/{player}/", expect=204)


def staff(scene: Scene) -> None:
    """The referee of both tables, the chief referee, one more referee removed; settings."""
    tid = scene.ids["tournament"]
    path = f"/referee/tournaments/{tid}/referees/"
    scene.call("org", "post", path,
               {"username": "ref", "role": "referee", "tables": scene.ids["tables"]}, expect=201)
    scene.call("org", "post", path, {"username": "chief", "role": "chief"}, expect=201)
    spare = scene.call("org", "post", path, {"username": "ref2", "role": "referee"}, expect=201)
    scene.call("org", "get", path)
    scene.call("org", "delete", f"/referee/roles/{spare['id']}/", expect=204)
    settings = scene.call("org", "get", f"/referee/tournaments/{tid}/referee-settings/")
    scene.call("org", "put", f"/referee/tournaments/{tid}/referee-settings/", settings)


def webhooks(scene: Scene, receiver_url: str) -> None:
    """A webhook of every event; another one registered and deleted."""
    from scoring.models import WEBHOOK_EVENTS

    tid = scene.ids["tournament"]
    events = [name for name, _label in WEBHOOK_EVENTS]
    hook = scene.call("org", "post", "/webhooks/",
                      {"tournament": tid, "url": receiver_url, "events": events}, expect=201)
    scene.ids["webhook"] = hook["id"]
    scene.call("org", "get", "/webhooks/")
    scene.call("org", "get", f"/webhooks/{hook['id']}/")
    scene.call("org", "patch", f"/webhooks/{hook['id']}/", {"events": events})
    spare = scene.call("org", "post", "/webhooks/",
                       {"tournament": tid, "url": receiver_url, "events": ["round.closed"]},
                       expect=201)
    scene.call("org", "delete", f"/webhooks/{spare['id']}/", expect=204)


def read_only_tokens(scene: Scene) -> None:
    """The organizer's read-only token for a results site: issued, listed, read, revoked."""
    issued = scene.call("org", "post", "/auth/read-only-tokens/", {"name": "Club website"},
                        expect=201)
    scene.call("org", "get", "/auth/read-only-tokens/")
    scene.call("org", "get", f"/auth/read-only-tokens/{issued['id']}/")
    scene.call("org", "delete", f"/auth/read-only-tokens/{issued['id']}/", expect=204)


def round_one(scene: Scene) -> None:
    """Round 1: created, scheduled, drawn, swapped, edited by hand, printed, published."""
    tid = scene.ids["tournament"]
    rnd = scene.call("org", "post", "/rounds/", {"tournament": tid}, expect=201)
    rid = scene.ids["round"] = rnd["id"]
    start = scene.rec.clock.now.isoformat().replace("+00:00", "Z")
    scene.call("org", "patch", f"/rounds/{rid}/", {"starts_at": start})
    scene.call("org", "post", f"/rounds/{rid}/generate/", {"seed": 20260516})
    scene.call("org", "post", f"/rounds/{rid}/swap/", {"first": 1, "second": 2})
    draw = scene.call("org", "get", f"/rounds/{rid}/draw/")
    edited = [{"table_number": p["table_number"], "seats": p["seats"]} for p in draw["parties"]]
    edited[0]["table_number"], edited[1]["table_number"] = (
        edited[1]["table_number"], edited[0]["table_number"])
    scene.call("org", "put", f"/rounds/{rid}/draw/", {"parties": edited, "byes": []})
    job = scene.call("org", "post", "/print-jobs/", {"round": rid, "kind": "blank"}, expect=202)
    scene.call("org", "get", f"/print-jobs/{job['id']}/")
    scene.call("org", "get", f"/print-jobs/{job['id']}/pdf/")
    scene.call("org", "post", f"/rounds/{rid}/publish/")
    scene.call("org", "get", "/rounds/", query={"tournament": tid})
    scene.call("org", "get", f"/rounds/{rid}/")
    parties = scene.call("org", "get", "/parties/", query={"round": rid})["results"]
    by_table = {p["table_number"]: p for p in parties}
    scene.ids["party"], scene.ids["absent"] = by_table[1]["id"], by_table[2]["id"]
    scene.ids["party_seats"] = {
        player["seat"]: player["id"]
        for side in by_table[1]["pairs"].values() if side for player in side["players"]
    }
