"""The scenario's season: the closed tournament's players linked to profiles, grouped into a
season by the organizer through the API, its list and table read, the season changed, and a
spare season deleted."""

from __future__ import annotations

from scoring.models import Player, Profile, Tournament
from scoring.ranking.seasons import refresh_placings
from tournaments.api_examples.tournament import Scene


def season(scene: Scene) -> None:
    """A season of the scenario's tournament (points by place), its table, its changes."""
    tournament = Tournament.objects.select_related("regulations").get(pk=scene.ids["tournament"])
    for player in Player.objects.filter(tournament=tournament).order_by("id"):
        player.profile = Profile.objects.create(name=player.name, club=player.club)
        player.save(update_fields=["profile"])
    rule = {"name": "Сезон клуба", "slug": "club-season", "scoring": "place_points",
            "best_n": None, "place_points": [25, 20, 16, 13, 11],
            "tie_breaks": ["wins", "best", "played"], "public": True,
            "tournaments": [tournament.pk]}
    made = scene.call("org", "post", "/seasons/", rule, expect=201)
    refresh_placings(tournament)
    scene.call("anonymous", "get", "/seasons/")
    scene.call("anonymous", "get", f"/seasons/{made['slug']}/")
    scene.call("org", "patch", f"/seasons/{made['slug']}/", {"name": "Сезон клуба 2026"})
    scene.call("org", "put", f"/seasons/{made['slug']}/",
               {**rule, "name": "Сезон клуба 2026", "best_n": 3})
    spare = scene.call("org", "post", "/seasons/", {
        "name": "Летний сезон", "slug": "summer", "scoring": "best_n", "best_n": 2},
        expect=201)
    scene.call("org", "delete", f"/seasons/{spare['slug']}/", expect=204)
