"""The scenario's check-in: an evening tournament of two pairs; the organizer opens the window
before round 1 and moves its end, a player checks himself in (twice: the first record
answers), the organizer ticks the other pair off and takes it back, closes the window; a
spare window is deleted; a player refused checking in another pair."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model

from scoring.models import Player
from tournaments.api_examples.tournament import PASSWORD, Scene


def _iso(moment: object) -> str:
    """A time as the API writes it."""
    return str(moment.isoformat()).replace("+00:00", "Z")  # type: ignore[attr-defined]


def checkin(scene: Scene) -> None:
    """Check-in windows and check-ins through the API."""
    cup = scene.call("org", "post", "/tournaments/", {
        "name": "Вечерний турнир", "rule_set": "sport", "format": "pairs",
        "start_date": "2026-06-12", "time_zone": "Europe/Moscow", "language": "ru",
    }, expect=201, keep=False)
    tid = cup["id"]
    names = ("Олег Брагин", "Семён Жуков", "Тамара Ильина", "Ульяна Ершова")
    players = [scene.call("org", "post", "/players/", {"tournament": tid, "name": name},
                          expect=201, keep=False)["id"] for name in names]
    pairs = [scene.call("org", "post", "/pairs/", {
        "tournament": tid, "player1": players[2 * k], "player2": players[2 * k + 1]},
        expect=201, keep=False)["id"] for k in range(2)]
    user = get_user_model().objects.create_user("oleg", password=PASSWORD)
    Player.objects.filter(pk=players[0]).update(user=user)
    scene.users["oleg"] = user
    now = scene.rec.clock.now
    window = scene.call("org", "post", "/checkin-windows/", {
        "tournament": tid, "round_number": 1, "opens_at": _iso(now),
        "closes_at": _iso(now + timedelta(minutes=30))}, expect=201)
    wid = window["id"]
    scene.call("org", "get", "/checkin-windows/", query={"tournament": tid})
    scene.call("oleg", "get", f"/checkin-windows/{wid}/")
    scene.call("org", "patch", f"/checkin-windows/{wid}/",
               {"closes_at": _iso(now + timedelta(minutes=45))})
    scene.rec.clock.advance(minutes=5)
    mine = scene.call("oleg", "post", "/checkins/", {"window": wid}, expect=201)
    scene.call("oleg", "post", "/checkins/", {"window": wid}, expect=200, keep=False)
    scene.call("oleg", "post", "/checkins/", {"window": wid, "pair": pairs[1]}, expect=403,
               error=True)
    ticked = scene.call("org", "post", "/checkins/", {"window": wid, "pair": pairs[1]},
                        expect=201, keep=False)
    scene.call("org", "get", "/checkins/", query={"window": wid})
    scene.call("oleg", "get", f"/checkins/{mine['id']}/")
    scene.call("org", "delete", f"/checkins/{ticked['id']}/", expect=204)
    scene.rec.clock.advance(minutes=10)
    scene.call("org", "post", f"/checkin-windows/{wid}/close/")
    spare = scene.call("org", "post", "/checkin-windows/", {
        "tournament": tid, "round_number": 2, "opens_at": _iso(now + timedelta(hours=2)),
        "closes_at": _iso(now + timedelta(hours=2, minutes=20))}, expect=201, keep=False)
    scene.call("org", "post", "/checkin-windows/", {
        "tournament": tid, "round_number": 2, "opens_at": _iso(now + timedelta(hours=2)),
        "closes_at": _iso(now + timedelta(hours=2, minutes=20))}, expect=400, error=True)
    scene.call("org", "delete", f"/checkin-windows/{spare['id']}/", expect=204)
