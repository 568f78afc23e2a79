"""The scenario's rating list: the tournament's players linked to profiles, a Glicko-2 list of
its finished parties read, changed, exported, taken as the players' ratings and a spare list
deleted."""

from __future__ import annotations

from typing import Any

from scoring.models import Player, Profile


def rating_lists(scene: Any) -> None:
    """Profiles for the tournament's players (the profiles API is not part of this step)."""
    tid = scene.ids["tournament"]
    for player in Player.objects.filter(tournament_id=tid).order_by("id"):
        player.profile = Profile.objects.create(name=player.name, club=player.club)
        player.save(update_fields=["profile"])
    made = scene.call("org", "post", "/rating-lists/", {
        "name": "Рейтинг Москвы", "slug": "moscow", "system": "glicko2",
        "subject": "players", "parameters": {"tau": 0.5}, "tournaments": [tid],
    }, expect=201)
    lid = made["id"]
    scene.call("anonymous", "get", "/rating-lists/")
    scene.call("anonymous", "get", f"/rating-lists/{lid}/")
    lines = scene.call("anonymous", "get", f"/rating-lists/{lid}/ratings/")
    query = {"profile": lines["results"][0]["profile"]} if lines["results"] else None
    scene.call("anonymous", "get", f"/rating-lists/{lid}/history/", query=query)
    scene.call("anonymous", "get", f"/rating-lists/{lid}/csv/")
    scene.call("org", "post", f"/tournaments/{tid}/take-ratings/", {"rating_list": lid})
    scene.call("org", "patch", f"/rating-lists/{lid}/", {"name": "Рейтинг Москвы 2026"})
    scene.call("org", "put", f"/rating-lists/{lid}/", {
        "name": "Рейтинг Москвы 2026", "slug": "moscow", "system": "glicko2",
        "subject": "players", "parameters": {}, "public": True, "tournaments": [tid],
    })
    spare = scene.call("org", "post", "/rating-lists/", {
        "name": "Elo", "slug": "elo", "system": "elo"}, expect=201)
    scene.call("org", "delete", f"/rating-lists/{spare['id']}/", expect=204)
