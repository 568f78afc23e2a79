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

from referee.services import (
    cancel_penalty,
    check_in,
    give_fine,
    give_warning,
    rule_out_of_turn,
    save_referee_settings,
)
from scoring.models import (
    GAME_SETTINGS,
    Deal,
    Pair,
    Party,
    PartyEvent,
    Penalty,
    Player,
    Protocol,
    Regulations,
    Round,
    Table,
    Tournament,
    TournamentRole,
)
from scoring.party.deals import correct_deal, record_deal
from scoring.signoff.services import countersign, record_refusal
from scoring.signoff.verification import look_up, verify_upload
from tests.tournaments.play import play_round
from tournaments.registration.services import register_player, withdraw_pair
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds
from tournaments.setup.services import create_tournament
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
    save_referee_settings(t, penalty_preset="udl")
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
                             actor=referee).record
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
    # each player's profile as the person it names (a player without one gets his own on import)
    people = {p["id"]: p for p in doc.pop("profiles", [])}
    for player in doc["players"]:
        person = people.get(player.pop("profile", None)) or {**player, "birth_year": None,
                                                              "federation_id": ""}
        player["person"] = tuple(person[k] for k in ("name", "club", "city", "birth_year",
                                                     "federation_id"))
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
    others = set(Tournament.objects.values_list("pk", flat=True))  # the other demo games
    doc["signatures"][-1]["protocol"] = 999999  # a reference to nothing, after the PDFs
    with pytest.raises(ArchiveError, match=r"signatures\[\d+\]\.protocol: refers to protocols"):
        import_tournament(doc)
    assert set(Tournament.objects.values_list("pk", flat=True)) == others
    assert _stored_files() == before
    doc = json.loads(json.dumps(doc))
    doc["signatures"].pop()
    tampered = next(r for r in doc["protocols"] if r["file"])
    tampered["file"]["base64"] = tampered["file"]["base64"][:-8] + "AAAAAAA="
    with pytest.raises(ArchiveError, match="does not match its SHA-256"):
        import_tournament(doc)
    assert set(Tournament.objects.values_list("pk", flat=True)) == others
    assert _stored_files() == before


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
        rnd = draw_services.generate_draw(rounds.create_round(t.pk).pk)
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
    rnd = draw_services.generate_draw(rounds.create_round(tournament.pk).pk)
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
        rnd = draw_services.generate_draw(rounds.create_round(t.pk).pk)
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
    (lambda d: d.update(version=3), "has version 3; this installation reads versions up to 2"),
    (lambda d: d.update(profiles={}), "“profiles” of the file is damaged"),
    (lambda d: d["players"][0].update(profile=999999), r"players\[0\]\.profile: refers to"),
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


# -- the games of RULES.md sections 2 and 3 ---------------------------------------------------


def _hand(party: Party, side: str, points: int = 150) -> None:
    """A UDL hand ``side`` wins at once: he goes out with ``points`` pips left to the other,
    scoring 5 during play (so the game is his at 150)."""
    other = "b" if side == "a" else "a"
    record_deal(party.pk, outcome="domino", went_out=f"{side}1", pips={f"{other}1": points},
                plays=[[side, 5]])


def _play_udl(party_id: int, winner: str, referee) -> None:
    """A UDL match ``winner`` takes three games to one, the loser fined in the last game."""
    loser = "b" if winner == "a" else "a"
    party = Party.objects.get(pk=party_id)
    _hand(party, winner, 60)  # 65 in play and end count: game 1 goes on
    _hand(party, loser)
    _hand(party, winner)
    _hand(party, winner)
    give_warning(party_id, side=loser, category="move_time", seat=f"{loser}1", actor=referee)
    give_fine(party_id, side=loser, category="move_time", seat=f"{loser}1", points=20,
              actor=referee)
    while Party.objects.get(pk=party_id).status != Party.Status.FINISHED:
        _hand(party, winner)


def _play_kozel(party_id: int, goat: str) -> None:
    """A Kozel party in which ``goat`` (a seat) reaches 101: memorized points first, then
    deals of 40 for him, 30 and 20 for two others while a1 (or b1) goes out."""
    seats = ["a1", "b1", "a2", "b2"]
    out = next(seat for seat in seats if seat != goat)
    others = [seat for seat in seats if seat not in (goat, out)]
    record_deal(party_id, outcome="domino", went_out=out,
                pips={goat: 5, others[0]: 3, others[1]: 12})
    record_deal(party_id, outcome="fish", pips={out: 2, goat: 8, others[0]: 9, others[1]: 1})
    while Party.objects.get(pk=party_id).status != Party.Status.FINISHED:
        record_deal(party_id, outcome="domino", went_out=out,
                    pips={goat: 40, others[0]: 30, others[1]: 20})


def _rounds(tournament: Tournament, count: int, play) -> None:
    """Draw, publish, start, play and close ``count`` rounds."""
    for number in range(count):
        rnd = draw_services.generate_draw(rounds.create_round(tournament.pk).pk)
        rounds.publish_round(rnd.pk)
        rounds.start_round(rnd.pk)
        for k, party in enumerate(rnd.parties.filter(status=Party.Status.IN_PROGRESS)
                                  .order_by("table__number")):
            play(party, number + k)
        rounds.close_round(rnd.pk)


def game_records(tournament: Tournament) -> dict[str, list[tuple]]:
    """The new fields of the games (Party, Deal, Penalty, Regulations) by round and table."""
    where = ("party__round__number", "party__table__number")
    return {
        "regulations": [tuple(getattr(found, name) for name in (*GAME_SETTINGS, "target",
                                                                 "fine_mode"))
                        for found in Regulations.objects.filter(tournament=tournament)],
        "parties": list(Party.objects.filter(round__tournament=tournament)
                        .order_by("round__number", "table__number")
                        .values_list("round__number", "table__number", "winner", "loser",
                                     "game", "game_started_seconds", "game_expired_at",
                                     "end_reason")),
        "deals": list(Deal.objects.filter(party__round__tournament=tournament)
                      .order_by(*where, "number")
                      .values_list(*where, "number", "outcome", "winner", "scores", "carry",
                                   "game", "plays", "play_points", "led", "points_a",
                                   "points_b")),
        "penalties": list(Penalty.objects.filter(party__round__tournament=tournament)
                          .order_by(*where, "created_at")
                          .values_list(*where, "kind", "side", "points", "mode", "game")),
    }


def _round_trip(tournament: Tournament) -> Tournament:
    """Export, wipe and import ``tournament``, checking everything comes back the same."""
    before, records = all_exports(tournament), game_records(tournament)
    protocols = {p.public_id: p.data for p in Protocol.objects.filter(
        party__round__tournament=tournament).exclude(data=None)}
    data = archive.export_bytes(tournament)
    wipe(tournament)
    imported = import_tournament(data)
    assert game_records(imported) == records
    after = all_exports(imported)
    assert after.keys() == before.keys()
    for name in before:
        assert after[name] == before[name], name
    assert {p.public_id: p.data for p in Protocol.objects.filter(
        party__round__tournament=imported).exclude(data=None)} == protocols
    signed = Protocol.objects.filter(party__round__tournament=imported).exclude(sha256="")
    assert signed and {p.unverified for p in signed} == {""}  # the records are what was signed
    assert normalized(archive.export_tournament(imported)) == normalized(json.loads(data))
    return imported


def test_udl_tournament_round_trip_keeps_games_plays_and_fines(organizer, protocol_files):
    t = create_tournament(name="UDL Open", slug="udl-trip", organizer=organizer, rule_set="udl",
                          language="en")
    for n in (1, 2):
        Table.objects.create(tournament=t, number=n)
    for k, name in enumerate(["Ann Lee", "Bob Ray", "Cid Moe", "Dan Fox"]):
        register_player(t, name=name, rating=2000 - k, side=True)
    chief = User.objects.create_user("udl-chief")
    TournamentRole.objects.create(tournament=t, user=chief, role="chief")
    _rounds(t, 2, lambda party, k: _play_udl(party.pk, "ab"[k % 2], chief))
    party = Party.objects.filter(round__tournament=t).order_by("round__number",
                                                               "table__number").first()
    for seat, player in party.seat_players().items():
        record_refusal(party.pk, player_id=player.pk, reason=f"{seat} busy", actor=chief)
    countersign(party.pk, actor=chief)
    records = game_records(t)
    assert {row[4] for row in records["parties"]} == {4}  # every match went to game 4
    assert any(row[-1] == 4 for row in records["penalties"])  # the fine of game 4
    assert all(row[8] for row in records["deals"])  # every hand's scoring plays

    imported = _round_trip(t)

    deals = exports.export_sheet(imported, "deals").rows
    assert deals[0][4:] == [1, 1, "Domino", deals[0][2], "A1", 65, 0, "A 5", 65, 0]
    results = exports.export_sheet(imported, "results")
    assert results.header[4:8] == ["Points A", "Points B", "Games won A", "Games won B"]
    assert {tuple(row[6:8]) for row in results.rows} == {(3, 1), (1, 3)}


def test_kozel_tournament_round_trip_keeps_accounts_and_the_goat(organizer, protocol_files):
    t = create_tournament(name="Козёл", slug="kozel-trip", organizer=organizer,
                          rule_set="kozel", format=Tournament.Format.INDIVIDUAL, language="en")
    for n in (1, 2):
        Table.objects.create(tournament=t, number=n)
    for k in range(8):
        Player.objects.create(tournament=t, name=f"Игрок {k}", rating=2000 - 10 * k)
    chief = User.objects.create_user("kozel-chief")
    TournamentRole.objects.create(tournament=t, user=chief, role="chief")
    _rounds(t, 2, lambda party, k: _play_kozel(party.pk, ["b1", "a2", "b2", "a1"][k % 4]))
    party = Party.objects.filter(round__tournament=t).order_by("round__number",
                                                               "table__number").first()
    for seat, player in party.seat_players().items():
        record_refusal(party.pk, player_id=player.pk, reason=f"{seat} busy", actor=chief)
    countersign(party.pk, actor=chief)
    records = game_records(t)
    assert {row[3] for row in records["parties"]} == {"b1", "a2", "b2"}  # the Goats
    assert all(row[5] and set(row[5]) == {"a1", "b1", "a2", "b2"} for row in records["deals"])

    imported = _round_trip(t)

    header = exports.export_sheet(imported, "deals").header
    assert header[4:] == ["Deal", "How it ended", "Winner", "Went out",
                          *[f"{what} {seat}" for seat in ("A1", "B1", "A2", "B2")
                            for what in ("Points", "Account", "Memorized")]]
    results = exports.export_sheet(imported, "results")
    assert "Goat" in results.header
    goats = [row[results.header.index("Goat")] for row in results.rows]
    assert all(goats) and len(goats) == 4
