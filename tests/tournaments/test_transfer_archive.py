"""The whole tournament to a JSON file and back: a realistic tournament survives the trip with
nothing lost (byte-identical standings exports, identical deals, event log and counts, protocols
that still verify), refusals leave nothing behind, the commands and the organizer's pages."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from referee.models import PartyEvent, Penalty
from referee.services import (
    cancel_penalty,
    check_in,
    give_fine,
    give_warning,
    rule_out_of_turn,
    save_referee_settings,
)
from scoring.models import Deal, Protocol
from scoring.protocol_services import look_up, verify_upload
from scoring.services import correct_deal
from tests.tournaments.play import play_round
from tournaments import rounds
from tournaments.models import Pair, Party, Player, Regulations, Round, Table, Tournament
from tournaments.services import create_tournament, withdraw_pair
from tournaments.transfer import archive, exports, sheets
from tournaments.transfer.archive import ArchiveError, import_tournament

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def demo(protocol_files):
    """The demo (three Swiss rounds, signed protocols) with what the demo lacks: referee
    settings, warnings, fines (one escalated from a warning, one cancelled), an out-of-turn
    reshuffle, a check-in, a signed protocol amended by the chief referee, a withdrawn pair,
    a referee of two tables."""
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    t = Tournament.objects.get(slug="demo-cup")
    chief, referee = User.objects.get(username="chief"), User.objects.get(username="referee")
    save_referee_settings(t, penalty_preset="udl", slow_play_points=30)
    third = t.rounds.get(number=3)
    started = list(Party.objects.filter(round=third, status=Party.Status.IN_PROGRESS)
                   .order_by("table__number"))
    waiting = Party.objects.filter(round=third, status=Party.Status.SCHEDULED).order_by(
        "table__number").first()
    for _again in range(2):  # the repeated warning is a fine, escalated from the first
        give_warning(started[0].pk, side="a", category="talking", seat="a1",
                     reason="Разговоры во время кона", actor=chief)
    give_fine(started[0].pk, side="b", category="signs", seat="b2", points=25,
              reason="Знаки партнёру", actor=chief)
    rule_out_of_turn(started[1].pk, seat="b1", choice="reshuffle", reason="Ход не в очередь",
                     actor=chief)
    cancelled = give_warning(started[2].pk, side="b", category="move_time", seat="b1",
                             actor=referee)
    cancel_penalty(cancelled.pk, reason="Ошибка судьи", actor=chief)
    check_in(waiting.pk, side="a", actor=referee)
    signed = Protocol.objects.filter(party__round__tournament=t, status="signed").order_by(
        "party__round__number", "party__table__number").first()
    deal = signed.party.deals.filter(outcome="domino").exclude(went_out="").order_by(
        "number").first()
    pips = dict(deal.pips)
    seat = next(s for s, v in pips.items() if v)
    pips[seat] += 1
    correct_deal(deal.pk, actor=chief, reason="Ошибка подсчёта", outcome="domino",
                 went_out=deal.went_out, pips=pips)
    withdraw_pair(t.pairs.order_by("id").last().pk)
    role = t.roles.get(user__username="referee2")
    role.tables.set(t.tables.filter(number__in=[2, 4]))
    return t


def wipe(tournament: Tournament) -> None:
    """Delete a tournament and everything in it (as if it had never been on this machine)."""
    Party.objects.filter(round__tournament=tournament).delete()
    Pair.objects.filter(tournament=tournament).delete()
    Round.objects.filter(tournament=tournament).delete()
    Player.objects.filter(tournament=tournament).delete()
    tournament.delete()


def all_exports(tournament: Tournament) -> dict[str, bytes]:
    """Every export of the tournament in both formats, after every round and per player."""
    out = {}
    numbers = [None, *tournament.rounds.values_list("number", flat=True)]
    individual = tournament.format == Tournament.Format.INDIVIDUAL
    for fmt in exports.FORMATS:
        for what in ("results", "deals"):
            out[f"{what}.{fmt}"] = sheets.render(exports.export_sheet(tournament, what), fmt)
        for after in numbers:
            for per_player in (True,) if individual else (False, True):
                sheet = exports.export_sheet(tournament, "standings", after_round=after,
                                             per_player=per_player)
                out[f"standings-{after}-{per_player}.{fmt}"] = sheets.render(sheet, fmt)
    return out


def normalized(doc: dict) -> dict:
    """A tournament document with each id replaced by the record's position in the file."""
    doc = copy.deepcopy(doc)
    for key in ("exported_at",):
        doc.pop(key)
    doc["tournament"].pop("slug")
    doc["tournament"].pop("id")
    index = {s.name: {r["id"]: n for n, r in enumerate(doc[s.name]) if "id" in r}
             for s in archive.SECTIONS}
    for section in archive.SECTIONS:
        fields = archive.carried_fields(section.model)
        for record in doc[section.name]:
            if "id" in record:
                record["id"] = index[section.name][record["id"]]
            for name, field in fields.items():
                target = archive.SECTION_OF.get(field.related_model)
                if field.many_to_many:
                    record[name] = sorted(index[target][pk] for pk in record[name])
                elif target and record.get(name) is not None:
                    record[name] = index[target][record[name]]
                elif isinstance(record.get(name), dict) and "base64" in record[name]:
                    record[name].pop("name")  # the stored file's random name
    doc["tournament"]["start_list"] = [index["pairs"][pk] for pk in doc["tournament"]["start_list"]]
    return doc


def event_log(tournament: Tournament) -> list[tuple]:
    """The event log with each party named by its round and table."""
    return list(
        PartyEvent.objects.filter(party__round__tournament=tournament)
        .order_by("party__round__number", "party__table__number", "seq")
        .values_list("party__round__number", "party__table__number", "seq", "at", "kind",
                     "data", "reason", "actor__username")
    )


def deal_records(tournament: Tournament) -> list[tuple]:
    """Every deal with its party's round and table, as stored."""
    return list(
        Deal.objects.filter(party__round__tournament=tournament)
        .order_by("party__round__number", "party__table__number", "number")
        .values_list("party__round__number", "party__table__number", "number", "outcome",
                     "winner", "points_a", "points_b", "went_out", "pips", "tiles", "note",
                     "recorded_by__username", "recorded_at", "updated_at")
    )


def _stored_files() -> set[Path]:
    """Every file under the media root (signed PDFs)."""
    return {p for p in Path(settings.MEDIA_ROOT).rglob("*") if p.is_file()}


# -- the round trip ---------------------------------------------------------------------------


def test_round_trip_gives_byte_identical_standings_exports(demo):
    counts = archive.section_counts(demo)
    assert all(counts[name] for name in ("referee_settings", "party_desks", "penalties",
                                         "rulings", "protocols", "signatures"))
    assert Protocol.objects.filter(party__round__tournament=demo, status="superseded").exists()
    escalated = Penalty.objects.get(party__round__tournament=demo, escalated_from__isnull=False)
    assert escalated.kind == "fine" and escalated.escalated_from.kind == "warning"
    before = all_exports(demo)
    deals, events = deal_records(demo), event_log(demo)
    data = archive.export_bytes(demo)
    signed = Protocol.objects.filter(party__round__tournament=demo, status="signed").first()
    pdf, public_id = signed.file.read(), signed.public_id
    wipe(demo)
    User.objects.filter(username__in=["referee2", "player07"]).delete()

    imported = import_tournament(data)

    assert imported.slug == "demo-cup"
    assert archive.section_counts(imported) == counts
    after = all_exports(imported)
    assert after.keys() == before.keys()
    for name in before:
        assert after[name] == before[name], name
    assert deal_records(imported) == deals
    fine = Penalty.objects.get(party__round__tournament=imported, escalated_from__isnull=False)
    assert fine.escalated_from.party_id == fine.party_id and fine.escalated_from.kind == "warning"
    assert event_log(imported) == events
    assert normalized(archive.export_tournament(imported)) == normalized(json.loads(data))
    # the protocol verifies: its file by upload, its public id by the QR code's link
    verification = verify_upload(pdf)
    assert verification.authentic and verification.protocol.public_id == public_id
    assert verification.protocol.party.round.tournament == imported
    assert look_up(public_id=public_id).protocol.is_signed
    # missing users come back inactive and without a password, with their roles and players
    referee2 = User.objects.get(username="referee2")
    assert not referee2.is_active and not referee2.has_usable_password()
    assert referee2.last_name == "Referee"
    assert imported.roles.get(user=referee2).tables.count() == 2
    assert Player.objects.get(tournament=imported, user__username="player07").name


def test_import_into_an_installation_holding_the_protocols_is_refused(demo):
    data = archive.export_bytes(demo)
    tournaments, files = Tournament.objects.count(), _stored_files()
    with pytest.raises(ArchiveError, match="imported here before"):
        import_tournament(data)
    assert Tournament.objects.count() == tournaments and _stored_files() == files


def test_a_failed_import_leaves_no_tournament_and_no_files(demo):
    doc = json.loads(archive.export_bytes(demo))
    wipe(demo)
    before = _stored_files()
    doc["signatures"][-1]["protocol"] = 999999  # a reference to nothing, after the PDFs
    with pytest.raises(ArchiveError, match=r"signatures\[\d+\]\.protocol: refers to protocols"):
        import_tournament(doc)
    assert not Tournament.objects.exists()
    assert _stored_files() == before
    doc = json.loads(json.dumps(doc))
    doc["signatures"].pop()
    tampered = next(r for r in doc["protocols"] if r["file"])
    tampered["file"]["base64"] = tampered["file"]["base64"][:-8] + "AAAAAAA="
    with pytest.raises(ArchiveError, match="does not match its SHA-256"):
        import_tournament(doc)
    assert not Tournament.objects.exists() and _stored_files() == before


# -- the same installation, formats and versions ----------------------------------------------


@pytest.fixture
def round_robin(organizer):
    """A round-robin tournament of 5 pairs (a bye each round), two rounds played."""
    t = create_tournament(name="Круговой турнир", slug="krug", organizer=organizer)
    Regulations.objects.filter(tournament=t).update(
        pairing_system=Regulations.PairingSystem.ROUND_ROBIN, rounds_planned=5)
    t.refresh_from_db()
    for n in (1, 2):
        Table.objects.create(tournament=t, number=n)
    for k in range(5):
        a = Player.objects.create(tournament=t, name=f"Игрок {k}А", rating=1000 - k)
        b = Player.objects.create(tournament=t, name=f"Игрок {k}Б", rating=1000 - k)
        Pair.objects.create(tournament=t, player1=a, player2=b, rating=1000 - k)
    for winner in ("a", "b"):
        rnd = rounds.generate_draw(rounds.create_round(t.pk).pk)
        rounds.publish_round(rnd.pk)
        rounds.start_round(rnd.pk)
        play_round(rnd.pk, winner)
        rounds.close_round(rnd.pk)
    return t


@pytest.fixture
def rr_file(round_robin) -> bytes:
    """The round-robin tournament's file, the tournament itself gone from this installation."""
    data = archive.export_bytes(round_robin)
    wipe(round_robin)
    return data


def _draw_names(tournament: Tournament) -> list[tuple]:
    """Draw the next round; its pairings by table and names."""
    rnd = rounds.generate_draw(rounds.create_round(tournament.pk).pk)
    return [(p.table.number if p.table else None, p.pair_a.display_name,
             p.pair_b.display_name if p.pair_b else None)
            for p in rnd.parties.select_related("table", "pair_a__player1", "pair_a__player2",
                                                "pair_b__player1", "pair_b__player2")
            .order_by("table__number", "pair_a__player1__name")]


def test_round_robin_keeps_its_start_list_and_draws_the_same_next_round(round_robin, organizer):
    data, counts, before = (archive.export_bytes(round_robin),
                            archive.section_counts(round_robin), all_exports(round_robin))
    round_robin.refresh_from_db()
    start = [Pair.objects.get(pk=pk).display_name for pk in round_robin.start_list]
    assert len(start) == 5
    next_draw = _draw_names(round_robin)
    wipe(round_robin)
    other = create_tournament(name="Другой турнир", slug="krug", organizer=organizer)
    imported = import_tournament(data)
    assert imported.slug == "krug-2" and other.slug == "krug"
    assert archive.section_counts(imported) == counts
    assert all_exports(imported) == before
    assert set(imported.start_list) == set(imported.pairs.values_list("pk", flat=True))
    assert [Pair.objects.get(pk=pk).display_name for pk in imported.start_list] == start
    assert _draw_names(imported) == next_draw


def test_slug_asked_for(rr_file, organizer):
    data = rr_file
    create_tournament(name="Другой", slug="krug", organizer=organizer)
    with pytest.raises(ArchiveError, match="already exists"):
        import_tournament(data, slug="krug")
    with pytest.raises(ArchiveError, match="Short name"):
        import_tournament(data, slug="no spaces please")
    assert import_tournament(data, slug="krug-federation").name == "Круговой турнир"


def test_individual_tournament_round_trip(organizer):
    t = create_tournament(name="Личный", slug="solo-trip", organizer=organizer,
                          format=Tournament.Format.INDIVIDUAL)
    for k in range(10):
        Player.objects.create(tournament=t, name=f"Игрок {k}", rating=2000 - 10 * k)
    for n in (1, 2, 3):
        Table.objects.create(tournament=t, number=n)
    for _ in range(2):
        rnd = rounds.generate_draw(rounds.create_round(t.pk).pk)
        rounds.publish_round(rnd.pk)
        rounds.start_round(rnd.pk)
        play_round(rnd.pk)
        rounds.close_round(rnd.pk)
    data, before = archive.export_bytes(t), all_exports(t)
    formed = Pair.objects.filter(tournament=t, formed_in_round__isnull=False).count()
    wipe(t)
    copy_ = import_tournament(data)
    assert formed and formed == Pair.objects.filter(
        tournament=copy_, formed_in_round__isnull=False).count()
    assert all_exports(copy_) == before


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(version=2), "has version 2; this installation reads version 1"),
    (lambda d: d.update(format="something-else"), "not a tournament file"),
    (lambda d: d.update(photos=[]), "does not know: photos"),
    (lambda d: d["players"][0].update(nickname="Ваня"), r"players\[0\]: fields this installation"),
    (lambda d: d["rounds"][0].update(status="paused"), r"rounds\[0\]\.status: unknown value"),
    (lambda d: d["tournament"].update(created_at="yesterday"), r"tournament\.created_at"),
    (lambda d: d.update(parties={}), "“parties” of the file is damaged"),
])
def test_files_this_installation_cannot_read_are_refused(rr_file, change, message):
    doc = json.loads(rr_file)
    change(doc)
    count = Tournament.objects.count()
    with pytest.raises(ArchiveError, match=message):
        import_tournament(json.dumps(doc).encode())
    assert Tournament.objects.count() == count
    with pytest.raises(ArchiveError, match="not JSON"):
        import_tournament(b"\x89PNG")


def test_every_model_of_a_tournament_is_carried_or_knowingly_left_out():
    carried = {section.model for section in archive.SECTIONS} | {Tournament}
    for app in ("tournaments", "scoring", "referee"):
        for model in apps.get_app_config(app).get_models():
            assert model in carried or model in archive.LEFT_OUT, model
    for model in carried:  # and every relation of a carried model can be written
        archive.carried_fields(model)


# -- commands and pages -----------------------------------------------------------------------


def test_commands_export_and_import(round_robin, tmp_path, organizer, make_user):
    target = tmp_path / "krug.json"
    call_command("export_tournament", "krug", "--output", str(target), stdout=open(
        tmp_path / "out.txt", "w"))  # noqa: SIM115
    assert json.loads(target.read_bytes())["format"] == "domino-tournament"
    assert "5 pairs" in (tmp_path / "out.txt").read_text()
    wipe(round_robin)
    federation = make_user("federation")
    call_command("import_tournament", str(target), "--slug", "krug-fed", "--organizer",
                 "federation", stdout=open(tmp_path / "out2.txt", "w"))  # noqa: SIM115
    imported = Tournament.objects.get(slug="krug-fed")
    assert imported.roles.filter(user=federation, role="organizer").exists()
    assert "Imported" in (tmp_path / "out2.txt").read_text()
    with pytest.raises(CommandError, match="no tournament"):
        call_command("export_tournament", "nope", "--output", str(target))
    with pytest.raises(CommandError, match="imported here before"):
        call_command("import_tournament", str(target), "--slug", "krug-again")
    with pytest.raises(CommandError, match="no user"):
        call_command("import_tournament", str(target), "--organizer", "nobody")


def test_download_and_upload_pages(client, round_robin, organizer, make_user):
    url = reverse("tournaments:export_tournament", args=[round_robin.slug])
    assert client.get(url).status_code == 302  # to the login
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 403
    assert client.get(reverse("tournaments:tournament_import")).status_code == 403
    client.force_login(organizer)
    response = client.get(url)
    assert response.status_code == 200
    assert 'filename="krug.domino.json"' in response["Content-Disposition"]
    data = response.content
    detail = client.get(round_robin.get_absolute_url()).content.decode()
    assert url in detail and reverse("tournaments:import", args=[round_robin.slug]) in detail
    assert reverse("tournaments:tournament_import") in detail
    wipe(round_robin)
    create_tournament(name="Другой", slug="krug", organizer=organizer)
    importer = make_user("importer", organizer=True)
    client.force_login(importer)
    upload_url = reverse("tournaments:tournament_import")
    assert client.get(upload_url).status_code == 200
    done = client.post(upload_url, {"file": SimpleUploadedFile("krug.domino.json", data)})
    imported = Tournament.objects.get(slug="krug-2")
    assert done.status_code == 302 and done["Location"] == imported.get_absolute_url()
    assert imported.roles.filter(user=importer, role="organizer").exists()
    refused = client.post(upload_url, {"file": SimpleUploadedFile("x.json", b"{}")})
    assert refused.status_code == 400 and "not a tournament file" in refused.content.decode()


@pytest.mark.django_db(transaction=True)
def test_export_outside_a_transaction_reads_one_snapshot(tournament, make_party):
    make_party()
    assert not connection.in_atomic_block
    doc = archive.export_tournament(tournament)
    assert len(doc["players"]) == 16 and len(doc["parties"]) == 1
    assert not connection.in_atomic_block
