"""The verification page and its API show what was signed, never the live records: a forged
import (the genuine signed PDFs with edited names and points) is an unverified copy that says
why and never shows the forged names; an honest one stays authentic; records changed after
signing are named, and kept data that is not what the file signed is not shown."""

from __future__ import annotations

import copy

import pytest
from rest_framework.test import APIClient

from scoring.models import Player, Protocol, Tournament
from scoring.party.deals import correct_deal
from scoring.protocols import payload_fingerprint
from scoring.signoff.snapshot import differing_parts
from tests.protocols.conftest import sign_off
from tests.protocols.test_self_verification_db import api_verification, page
from tests.tournaments.test_transfer_archive import wipe
from tournaments.transfer.archive import export_tournament, import_tournament

pytestmark = pytest.mark.django_db

SIGNED_NAMES = ("Кубок Москвы", "Иван Петров / Сергей Смирнов")
FORGED_NAMES = ("Forged Cup", "Mallory 1", "Mallory 2")


def forge(doc: dict, protocol: Protocol, *, kept_data: bool) -> dict:
    """The tournament file with its name, the first pair's players and every deal's points
    edited; with ``kept_data`` the protocol's kept data and recorded fingerprint too (as a
    careful forger would), the signed PDF left genuine."""
    doc = copy.deepcopy(doc)
    doc["tournament"]["name"] = "Forged Cup"
    pair = next(p for p in doc["pairs"] if p["id"] == protocol.party.pair_a_id)
    for number, key in enumerate(("player1", "player2"), start=1):
        player = next(p for p in doc["players"] if p["id"] == pair[key])
        player["name"] = f"Mallory {number}"
    for deal in doc["deals"]:
        if deal["party"] == protocol.party_id:
            deal["points_a"], deal["points_b"] = deal["points_b"], deal["points_a"]
            if deal.get("scores"):
                deal["scores"] = {"a": deal["scores"].get("b", 0), "b": deal["scores"].get("a", 0)}
    if kept_data:
        record = next(r for r in doc["protocols"] if r["public_id"] == protocol.public_id)
        data = record["data"]
        data["tournament"] = "Forged Cup"
        data["sides"][0]["name"] = "Mallory 1 / Mallory 2"
        data["winner"] = "Mallory 1 / Mallory 2"
        record["fingerprint"] = payload_fingerprint(data)
    return doc


def imported_version(tournament: Tournament, public_id: str) -> Protocol:
    return Protocol.objects.get(party__round__tournament=tournament, public_id=public_id)


@pytest.mark.parametrize("kept_data", [False, True], ids=["records", "records and kept data"])
def test_a_forged_import_is_an_unverified_copy_that_never_shows_the_forged_names(
        client, signed, organizer, kept_data):
    original, _pdf = signed
    doc = forge(export_tournament(original.party.round.tournament), original,
                kept_data=kept_data)
    wipe(original.party.round.tournament)  # the same installation: it trusts the certificate

    forged = imported_version(import_tournament(doc, actor=organizer), original.public_id)

    text = page(client, forged)
    assert "Unverified copy" in text
    assert "Authentic protocol" not in text and "This is the current version." not in text
    assert not [name for name in FORGED_NAMES if name in text]
    found = api_verification(organizer, forged)
    assert (found["state"], found["authentic"]) == ("unverified", False)
    assert "Mallory" not in str(found) and "Forged" not in str(found)
    if kept_data:  # the kept data is not what the file signed: nothing of it is shown
        assert forged.unverified == found["problem"] == "data"
        assert "does not match the data fingerprint of the signed file" in text
        assert found["signed"] is None and SIGNED_NAMES[0] not in text
    else:  # the records are not what was signed: says which, shows what was signed
        assert forged.unverified == found["problem"] == "records"
        assert forged.unverified_parts == found["differences"] == [
            "tournament", "players", "points", "result", "penalties", "signatures"]
        assert ("The imported records differ from what was signed. They differ in: tournament "
                "name, pairs and players, deals and points, result, warnings, fines and "
                "rulings, signatures and referee.") in text
        assert found["reason"].startswith("The imported records differ from what was signed.")
        assert all(name in text for name in SIGNED_NAMES)
        assert found["signed"]["tournament"] == SIGNED_NAMES[0]
        assert found["signed"]["sides"][0]["name"] == SIGNED_NAMES[1]
        assert found["signed"]["result"] == "205 : 80"
        russian = page(client, forged, HTTP_ACCEPT_LANGUAGE="ru")
        assert "Непроверенная копия" in russian
        assert "Импортированные записи отличаются от подписанного" in russian
        assert "название турнира" in russian
    listed = APIClient()
    listed.force_authenticate(organizer)
    shown = listed.get(f"/api/v1/protocols/{forged.public_id}/").json()
    assert shown["unverified"] == forged.unverified


def test_an_honest_import_stays_authentic_and_shows_the_signed_names(
        client, signed, organizer, finished_party, chief_user, player_users, referee_user):
    first, _pdf = signed
    deal = finished_party.deals.get(number=2)
    correct_deal(deal.pk, actor=chief_user, reason="Ошибка подсчёта", outcome="fish",
                 pips={"a1": 20, "a2": 15, "b1": 5, "b2": 8})
    finished_party.refresh_from_db()
    second = sign_off(finished_party, player_users, referee_user)
    doc = export_tournament(finished_party.round.tournament)
    record = next(r for r in doc["protocols"] if r["public_id"] == first.public_id)
    record.update(unverified="records", unverified_parts=["tournament"])  # not for the file
    wipe(finished_party.round.tournament)

    imported = import_tournament(doc, actor=organizer)

    old, new = (imported_version(imported, p.public_id) for p in (first, second))
    assert (old.unverified, old.unverified_parts) == (new.unverified, new.unverified_parts) == (
        "", [])
    text = page(client, new)
    assert "Authentic protocol" in text and "This is the current version." in text
    assert all(name in text for name in SIGNED_NAMES) and "records-changed" not in text
    found = api_verification(organizer, new)
    assert (found["state"], found["differences"], found["note"]) == ("authentic", [], "")
    assert found["signed"]["tournament"] == SIGNED_NAMES[0]
    assert found["signed"]["version"] == 2
    assert "Authentic, but superseded" in page(client, old)


def test_records_changed_after_signing_are_named_and_the_signed_names_shown(
        client, signed, organizer):
    protocol, _pdf = signed
    Tournament.objects.filter(pk=protocol.party.round.tournament_id).update(name="Renamed Cup")
    Player.objects.filter(pk=protocol.party.pair_a.player1_id).update(name="Someone Else")

    text = page(client, protocol)

    assert "Authentic protocol" in text
    assert ("The records were changed after signing: tournament name, pairs and players, "
            "result, signatures and referee. Shown here is what was signed.") in text
    assert all(name in text for name in SIGNED_NAMES)
    assert "Renamed Cup" not in text and "Someone Else" not in text
    found = api_verification(organizer, protocol)
    assert (found["state"], found["problem"]) == ("authentic", "")
    assert found["differences"] == ["tournament", "players", "result", "signatures"]
    assert found["note"].startswith("The records were changed after signing")
    assert found["signed"]["tournament"] == SIGNED_NAMES[0]
    assert "Записи изменены после подписания" in page(client, protocol,
                                                      HTTP_ACCEPT_LANGUAGE="ru")


def test_kept_data_edited_here_is_not_shown_as_signed(client, signed, organizer):
    protocol, _pdf = signed
    data = copy.deepcopy(protocol.data)
    data["tournament"] = "Forged Cup"
    Protocol.objects.filter(pk=protocol.pk).update(data=data,
                                                   fingerprint=payload_fingerprint(data))
    protocol.refresh_from_db()

    text = page(client, protocol)

    assert "Unverified copy" in text and "Authentic protocol" not in text
    assert "does not match the data fingerprint of the signed file" in text
    assert "Forged Cup" not in text
    found = api_verification(organizer, protocol)
    assert (found["state"], found["problem"], found["signed"]) == ("unverified", "data", None)


def test_the_records_are_compared_by_what_they_say_not_by_the_softwares_wording(signed):
    protocol, _pdf = signed
    signed_data = protocol.data
    reworded = copy.deepcopy(signed_data)
    reworded["deals"][0]["outcome"] = "Domino (worded by another version)"
    reworded["penalties"][0]["kind"] = "Warning, worded anew"
    reworded["signatures"][0]["role"] = "Signed by"
    reworded["labels"] = {}
    reworded.pop("first_move", None)  # an older snapshot without a field left empty
    assert differing_parts(signed_data, reworded) == []
    rescored = copy.deepcopy(signed_data)
    rescored["deals"][0]["points_a"] += 100
    assert differing_parts(signed_data, rescored) == ["points"]
