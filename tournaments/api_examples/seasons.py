"""The scenario's season: the closed tournament's players linked to profiles, grouped into a
season by the organizer, its list and table read through the API."""

from __future__ import annotations

from scoring.models import Player, Profile, Tournament
from scoring.seasons import refresh_placings
from tournaments.api_examples.event import Scene
from tournaments.season_services import create_season


def season(scene: Scene) -> None:
    """A season of the scenario's tournament (points by place) and its table."""
    tournament = Tournament.objects.select_related("regulations").get(pk=scene.ids["tournament"])
    for player in Player.objects.filter(tournament=tournament).order_by("id"):
        player.profile = Profile.objects.create(name=player.name, club=player.club)
        player.save(update_fields=["profile"])
    made = create_season(actor=scene.users["org"], name="Сезон клуба", slug="club-season",
                         scoring="place_points", place_points=[25, 20, 16, 13, 11],
                         tie_breaks=["wins", "best", "played"], tournaments=[tournament])
    refresh_placings(tournament)
    scene.call("anonymous", "get", "/seasons/")
    scene.call("anonymous", "get", f"/seasons/{made.slug}/")
