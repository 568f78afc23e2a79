"""The scenario's calendar and timetable: the public calendar filtered by city, the
organizer's timetable items (the hall's opening, a break, the prize-giving) added, changed and
one deleted, and the tournament's timetable read."""

from __future__ import annotations

from datetime import timedelta

from tournaments.api_examples.tournament import Scene


def calendar_and_timetable(scene: Scene) -> None:
    """The calendar, then the timetable's items of the scenario's tournament."""
    tid = scene.ids["tournament"]
    scene.call("anonymous", "get", "/calendar/", query={"city": "Москва", "format": "pairs"})
    day = scene.rec.clock.now.replace(hour=7, minute=0, second=0, microsecond=0)

    def moment(hours: float) -> str:
        return (day + timedelta(hours=hours)).isoformat().replace("+00:00", "Z")

    scene.call("org", "post", "/timetable-items/", {
        "tournament": tid, "kind": "opening", "starts_at": moment(0)}, expect=201)
    lunch = scene.call("org", "post", "/timetable-items/", {
        "tournament": tid, "kind": "break", "title": "Обед", "starts_at": moment(4),
        "ends_at": moment(5)}, expect=201)
    scene.call("org", "patch", f"/timetable-items/{lunch['id']}/", {"ends_at": moment(4.75)})
    scene.call("org", "put", f"/timetable-items/{lunch['id']}/", {
        "kind": "break", "title": "Обед", "starts_at": moment(4.25), "ends_at": moment(5)})
    prizes = scene.call("org", "post", "/timetable-items/", {
        "tournament": tid, "kind": "prizes", "title": "Награждение победителей",
        "starts_at": moment(10)}, expect=201)
    scene.call("anonymous", "get", "/timetable-items/", query={"tournament": tid})
    scene.call("anonymous", "get", f"/timetable-items/{prizes['id']}/")
    scene.call("anonymous", "get", f"/tournaments/{tid}/timetable/")
    spare = scene.call("org", "post", "/timetable-items/", {
        "tournament": tid, "kind": "other", "title": "Фотосессия", "starts_at": moment(9)},
        expect=201)
    scene.call("org", "delete", f"/timetable-items/{spare['id']}/", expect=204)
