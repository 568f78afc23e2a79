"""An import never reaches a person the importing organizer may not see: the roster import (the
page, the API) and the tournament file's import match only the profiles of tournaments he may
see. Another organizer's hidden player is neither linked (by federation id, or by name + birth
year + club) nor offered for review; his federation id refuses its row, naming it. Staff (and
the organizer of the hidden tournament) link him. The profile search and the review count only
the tournaments the viewer may see."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.core.site import site_url
from scoring.models import Profile, Tournament
from tournaments.registration.services import register_player
from tournaments.setup.services import create_tournament
from tournaments.transfer import archive
from tournaments.transfer.archive import ArchiveError, import_tournament
from tournaments.transfer.roster import import_roster

pytestmark = pytest.mark.django_db

HEADER = "имя,клуб,город,год рождения,номер федерации\n"
REFUSAL = ("The federation id RU-9 belongs to a person in no tournament you can see; ask the "
           "site's staff to link him.")


@dataclass
class World:
    """The secret player (only in the owner's hidden tournament), and an individual tournament
    to import into for each organizer: the stranger, the owner, a staff member."""

    secret: Profile
    users: dict[str, Any]
    cups: dict[str, Tournament]


@pytest.fixture
def world(make_user) -> World:
    owner = make_user("owner", organizer=True)
    closed = create_tournament(name="Закрытый турнир", slug="closed", organizer=owner)
    Tournament.objects.filter(pk=closed.pk).update(public=False)
    secret = register_player(closed, name="Тайный Игрок", club="Тень", city="Мурманск",
                             birth_year=1975, federation_id="RU-9").profile
    users = {"stranger": make_user("stranger", organizer=True), "owner": owner,
             "staff": make_user("staff", organizer=True, is_staff=True)}
    cups = {role: create_tournament(name=f"Кубок {role}", slug=f"cup-{role}", organizer=user,
                                    format="individual")
            for role, user in users.items()}
    return World(secret, users, cups)


def roster(*lines: str) -> bytes:
    return (HEADER + "".join(line + "\n" for line in lines)).encode()


def load(world: World, role: str, content: bytes, **options: Any):
    return import_roster(world.cups[role], "r.csv", content, viewer=world.users[role],
                         **options)


def api_upload(world: World, role: str, content: bytes, **extra: Any):
    client = APIClient()
    client.force_authenticate(world.users[role])
    return client.post(f"/api/v1/tournaments/{world.cups[role].pk}/import/",
                       {"file": SimpleUploadedFile("r.csv", content, "text/csv"), **extra},
                       format="multipart")


def page_preview(world: World, role: str, content: bytes) -> Any:
    client = Client()
    client.force_login(world.users[role])
    return client.post(reverse("tournaments:import", args=[world.cups[role].slug]),
                       {"file": SimpleUploadedFile("r.csv", content, "text/csv"),
                        "action": "preview"})


def test_a_hidden_persons_federation_id_refuses_its_row_without_a_duplicate(world):
    content = roster("Тайный Игрок,,,,RU-9", "Иван Новый,Рыба,,,")
    report = load(world, "stranger", content)
    assert not report.imported and not world.cups["stranger"].players.exists()
    refused = report.rows[0].as_dict()
    assert refused["errors"] == {"federation_id": [REFUSAL]}
    assert refused["profile"] == {"status": "refused", "reason": "federation_id_hidden"}
    # skipping bad rows: the others are imported, the refused one neither linked nor made anew
    skipped = load(world, "stranger", content, skip_bad_rows=True)
    assert skipped.imported and [r.status for r in skipped.rows] == ["skipped", "ok"]
    assert list(world.cups["stranger"].players.values_list("name", flat=True)) == [
        "Иван Новый"]
    assert list(Profile.objects.filter(federation_id="RU-9")) == [world.secret]
    assert world.secret.entries.count() == 1


def test_the_refusal_is_the_same_on_the_api_and_the_page_and_tells_nothing_of_him(world):
    answer = api_upload(world, "stranger", roster("Тайный Игрок,,,,RU-9"))
    assert answer.status_code == 400
    row = answer.json()["rows"][0]
    assert row["errors"] == {"federation_id": [REFUSAL]}
    assert row["profile"] == {"status": "refused", "reason": "federation_id_hidden"}
    assert "Мурманск" not in answer.content.decode()
    page = page_preview(world, "stranger", roster("Тайный Игрок,,,,RU-9"))
    html = page.content.decode()
    assert page.status_code == 400
    assert "federation id:</b> The federation id RU-9 belongs to a person in no tournament" in html
    assert "Мурманск" not in html and "Тень" not in html and "not linked" in html
    assert not world.cups["stranger"].players.exists()


@pytest.mark.parametrize("line", [
    "Тайный Игрок,Тень,,1975,",  # name, club and birth year agree with him alone
    "Тайный Игрок,,,,",  # the name only: a namesake would be offered for review
    "Тайный Игрок,Другой клуб,,1975,",  # another club: a namesake would be offered
])
def test_a_hidden_namesake_is_neither_linked_nor_offered(world, line):
    preview = api_upload(world, "stranger", roster(line), dry_run="true")
    assert preview.status_code == 200, preview.json()
    assert preview.json()["to_review"] == []
    assert preview.json()["rows"][0]["profile"] == {"status": "new"}
    page = page_preview(world, "stranger", roster(line))
    html = page.content.decode()
    assert page.status_code == 200 and 'id="review' not in html
    assert "Мурманск" not in html
    report = load(world, "stranger", roster(line))
    assert report.imported
    assert world.cups["stranger"].players.get().profile != world.secret


@pytest.mark.parametrize("role", ["owner", "staff"])
def test_staff_and_his_own_organizer_link_him(world, role):
    by_details = load(world, role, roster("Тайный Игрок,Тень,,1975,"), dry_run=True)
    assert by_details.rows[0].as_dict()["profile"] == {
        "status": "linked", "profile": world.secret.pk, "reason": "name_year_club"}
    offered = api_upload(world, role, roster("Тайный Игрок,,,,"), dry_run="true").json()
    assert offered["rows"][0]["profile"]["candidates"] == [
        {"id": world.secret.pk, "name": "Тайный Игрок", "club": "Тень", "city": "Мурманск",
         "birth_year": 1975, "federation_id": "RU-9"}]
    report = load(world, role, roster("Т. Игрок,,,,RU-9"))
    assert report.imported, report.as_dict()
    assert world.cups[role].players.get().profile == world.secret


def _file(world: World, **person: Any) -> dict[str, Any]:
    """A tournament file of one player, exported elsewhere, whose profile is ``person``."""
    source = create_tournament(name="Где-то", organizer=world.users["staff"])
    register_player(source, name="Кто-то")
    doc = archive.export_tournament(source)
    doc["site_url"] = "https://elsewhere.example"
    doc["profiles"][0].update({"name": "Тайный Игрок", "club": "", "city": "",
                               "birth_year": None, "federation_id": "", **person})
    doc["players"][0]["name"] = "Тайный Игрок"
    return doc


def test_a_tournament_file_with_a_hidden_persons_federation_id_is_refused(world):
    before = Tournament.objects.count()
    doc = _file(world, federation_id="RU-9")
    with pytest.raises(ArchiveError) as refused:
        import_tournament(doc, slug="copy-stranger", actor=world.users["stranger"])
    assert refused.value.message == f"profiles[0] (Тайный Игрок), federation_id: {REFUSAL}"
    assert Tournament.objects.count() == before + 1  # the source only
    assert list(Profile.objects.filter(federation_id="RU-9")) == [world.secret]
    client = Client()
    client.force_login(world.users["stranger"])
    page = client.post(reverse("tournaments:tournament_import"), {
        "file": SimpleUploadedFile("t.json", json.dumps(doc).encode(), "application/json")})
    assert page.status_code == 400 and "federation_id: The federation id RU-9" in (
        page.content.decode())
    linked = import_tournament(doc, slug="copy-staff", actor=world.users["staff"])
    assert linked.players.get().profile == world.secret


def test_a_tournament_file_never_links_a_hidden_namesake_nor_his_id_here(world):
    namesake = _file(world, club="Тень", birth_year=1975)
    mine = import_tournament(namesake, slug="copy-1", actor=world.users["stranger"])
    assert mine.players.get().profile != world.secret
    # a file claiming to come from here, naming his profile's id
    here = _file(world)
    here["site_url"] = site_url()
    here["profiles"][0]["id"] = world.secret.pk
    here["players"][0]["profile"] = world.secret.pk
    other = import_tournament(here, slug="copy-2", actor=world.users["stranger"])
    assert other.players.get().profile != world.secret
    owners = import_tournament(here, slug="copy-3", actor=world.users["owner"])
    assert owners.players.get().profile == world.secret


def test_the_search_and_the_review_count_only_the_tournaments_the_viewer_sees(world):
    """He plays in the owner's public tournament too: the stranger sees one tournament of
    his, the owner and staff two."""
    public = create_tournament(name="Открытый", slug="open", organizer=world.users["owner"])
    register_player(public, name="Тайный Игрок", profile=world.secret)
    search = reverse("tournaments:profile_search")
    seen = {}
    for role in ("stranger", "owner", "staff"):
        client = Client()
        client.force_login(world.users[role])
        html = client.get(search, {"for": "p", "p_find": "тайный"}).content.decode()
        seen[role] = [count for count in ("tournaments: 1", "tournaments: 2") if count in html]
    assert seen == {"stranger": ["tournaments: 1"], "owner": ["tournaments: 2"],
                    "staff": ["tournaments: 2"]}
    html = page_preview(world, "stranger", roster("Тайный Игрок,,,,")).content.decode()
    assert "Тайный Игрок — Тень, Мурманск, tournaments: 1</label>" in html
