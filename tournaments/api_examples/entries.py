"""The scenario's online entries: a tournament opens entries for one pair (its settings read
and changed), a player enters with his partner, a second pair waits, a refusal (entering
someone else), the organizer lists, changes and accepts, the waiting player withdraws."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from tournaments.api_examples.tournament import PASSWORD, Scene
from tournaments.entries.services import confirm_partner
from tournaments.entries.tokens import make_token


def entries(scene: Scene) -> None:
    """Online entries through the API."""
    cup = scene.call("org", "post", "/tournaments/", {
        "name": "Весенний кубок", "rule_set": "sport", "format": "pairs",
        "start_date": "2026-06-20", "time_zone": "Europe/Moscow", "language": "ru",
    }, expect=201, keep=False)
    tid = cup["id"]
    settings_path = f"/tournaments/{tid}/entry-settings/"
    scene.call("org", "put", settings_path, {
        "open": True, "opens_at": None, "closes_at": "2026-06-19T20:00:00+03:00",
        "mode": "pairs", "capacity": 1, "rating_min": None, "rating_max": None,
        "season": None, "confirm_hours": 48, "disabled_mails": []})
    scene.call("org", "patch", settings_path, {"disabled_mails": ["draw_published"]})
    scene.call("anonymous", "get", settings_path)
    users = get_user_model()
    for name, email in (("anna", "anna@example.org"), ("boris", "boris@example.org")):
        scene.users[name] = users.objects.create_user(name, email=email, password=PASSWORD,
                                                      first_name=name.capitalize())
    anna = scene.call("anna", "post", "/entries/", {
        "tournament": tid, "name": "Анна Белова", "club": "Дубль-шесть",
        "partner_name": "Вера Котова", "partner_email": "vera@example.org"}, expect=201)
    boris = scene.call("boris", "post", "/entries/", {
        "tournament": tid, "name": "Борис Гуров", "partner_name": "Глеб Щукин",
        "partner_email": "gleb@example.org"}, expect=201, keep=False)
    scene.call("boris", "post", "/entries/", {
        "tournament": tid, "email": "anna@example.org", "partner_name": "Глеб Щукин",
        "partner_email": "gleb@example.org"}, expect=400, error=True)
    confirm_partner(make_token("partner", anna["id"]))  # Vera's mailed link
    scene.call("org", "get", "/entries/", query={"tournament": tid})
    scene.call("anna", "get", f"/entries/{anna['id']}/")
    scene.call("org", "patch", f"/entries/{anna['id']}/", {  # namesakes of the teams' players
        "note": "Взнос оплачен", "profile": "new", "partner_profile": "new"})
    scene.call("org", "post", f"/entries/{boris['id']}/decide/", {"decision": "accept"},
               expect=400, error=True)
    scene.call("org", "post", f"/entries/{anna['id']}/decide/", {"decision": "accept"})
    scene.call("boris", "post", f"/entries/{boris['id']}/decide/", {"decision": "withdraw"},
               keep=False)
