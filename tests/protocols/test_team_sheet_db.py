"""The team match sheet: both boards, the team score, the captains' and the referee's signatures,
a PAdES-signed PDF with every long Cyrillic name whole (issue #36)."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from scoring.core.errors import ServiceError
from scoring.models import Pair, Party, Player, TeamSheet
from scoring.protocols import missing_glyphs, verify_pdf
from scoring.signoff.content import party_players
from scoring.signoff.identity import certificate_path
from scoring.signoff.pins import set_signing_pin
from scoring.signoff.services import countersign, sign_as_player
from scoring.signoff.team_sheets.services import (
    countersign_sheet,
    sheet_download,
    sheet_state,
    sign_as_captain,
)
from tests.protocols.conftest import pdf_text, pdfsig
from tests.protocols.team_sheets import LONG_NAMES, TEAM_A, TEAM_B, decide, make_team_match
from tests.tournaments.play import play

pytestmark = pytest.mark.django_db

def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.fixture
def match(tournament, referee_user, protocol_env):
    """Team A (captain: Александра) against team B (no captain) at tables 1 and 2."""
    return make_team_match(tournament, referee_user)


def _parties(tm):
    return list(Party.objects.filter(team_match=tm).order_by("board"))


@pytest.fixture
def decided(match, referee_user):
    """A level match, 1 : 1 in match points (see ``decide``)."""
    return decide(match, referee_user)


def _captain_b(tm):
    return Player.objects.get(pk=Pair.objects.filter(team=tm.team_b).order_by("id")[0].player1_id)


def _sign_both(tm, referee_user, organizer):
    captain_a = tm.team_a.captain
    captain_b = _captain_b(tm)
    set_signing_pin(captain_a.pk, "4711", actor=organizer)
    set_signing_pin(captain_b.pk, "2468", actor=organizer)
    sign_as_captain(tm.pk, team_id=tm.team_a_id, player_id=captain_a.pk, actor=referee_user,
                    pin="4711")
    sign_as_captain(tm.pk, team_id=tm.team_b_id, player_id=captain_b.pk, actor=referee_user,
                    pin="2468")


@pytest.fixture
def signed_sheet(decided, referee_user, organizer):
    """The decided match's sheet signed by both captains (PINs) and countersigned."""
    _sign_both(decided, referee_user, organizer)
    sheet = countersign_sheet(decided.pk, actor=referee_user)
    with sheet.file.open("rb") as handle:
        return sheet, handle.read()


def test_signed_sheet_shows_every_long_cyrillic_name_whole_and_the_figures(signed_sheet,
                                                                          tmp_path):
    sheet, pdf = signed_sheet
    flat = _squash(pdf_text(pdf, tmp_path, layout=False))
    for name in [*LONG_NAMES, TEAM_A, TEAM_B]:
        assert not missing_glyphs(name)
        assert name in flat, name
    assert "Протокол командного матча" in flat and "Кубок Москвы" in flat
    assert "Капитан команды A" in flat and "Капитан команды B" in flat
    assert "Клуб Нева" in flat and "Страна Татарстан" in flat
    layout = pdf_text(pdf, tmp_path)
    # board 1: team A 240, team B 60 (fine −25); board 2: team A's pair 120 against 240
    board1 = re.search(r"^\s*1\s+1\s+A\s+.*?(\d+)\s+(\S+)\s*$", layout, re.M)
    assert board1 and board1.groups() == ("240", "0")
    assert re.search(r"B\s+.*?\b35\s+−25\s*$", layout, re.M)  # 60 − 25 for team B at board 1
    assert re.search(r"\(очки матча\) 1\s*:\s*1 ", flat)  # match points, a level match
    assert "Ничья" in flat
    assert "протокол не подписан" in flat  # neither party protocol was signed
    assert sheet.fingerprint in flat


def test_sheet_validates_as_a_signed_pdf_and_tampering_is_detected(signed_sheet, tmp_path):
    sheet, pdf = signed_sheet
    assert sheet.status == TeamSheet.Status.SIGNED
    from scoring.protocols import sha256_hex

    assert sheet.sha256 == sha256_hex(pdf)
    result = verify_pdf(pdf, certificate_path())
    assert result.ok and result.intact and result.valid and result.trusted
    out = pdfsig(pdf, tmp_path)
    assert "Signature is Valid" in out and "Total document signed" in out
    at = pdf.index(b"/Keywords") + 2
    tampered = pdf[:at] + bytes([pdf[at] ^ 0x01]) + pdf[at + 1:]
    assert not verify_pdf(tampered, certificate_path()).ok
    assert not verify_pdf(pdf + b"\n% appended\n", certificate_path()).ok


def test_the_sheet_says_which_party_protocols_are_signed(decided, referee_user, organizer,
                                                        make_user, tmp_path):
    board1 = _parties(decided)[0]
    users = []
    for seat, player in party_players(board1):
        user = make_user(f"p-{seat}")
        Player.objects.filter(pk=player.pk).update(user=user)
        users.append(user)
    board1.refresh_from_db()
    for user, (_seat, player) in zip(users, party_players(board1), strict=True):
        sign_as_player(board1.pk, player_id=player.pk, actor=user)
    protocol = countersign(board1.pk, actor=referee_user)
    _sign_both(decided, referee_user, organizer)
    sheet = countersign_sheet(decided.pk, actor=referee_user)
    with sheet.file.open("rb") as handle:
        flat = _squash(pdf_text(handle.read(), tmp_path, layout=False))
    assert f"протокол подписан, код {protocol.short_code}, версия 1" in flat
    assert "протокол не подписан" in flat  # board 2


def test_captain_signing_refuses_a_wrong_pin_and_a_non_captain(decided, referee_user,
                                                               organizer):
    captain_a = decided.team_a.captain
    set_signing_pin(captain_a.pk, "4711", actor=organizer)
    with pytest.raises(ServiceError) as err:
        sign_as_captain(decided.pk, team_id=decided.team_a_id, player_id=captain_a.pk,
                        actor=referee_user, pin="0000")
    assert err.value.field == "pin"
    partner = Player.objects.get(pk=Pair.objects.filter(team=decided.team_a)
                                 .order_by("id")[0].player2_id)
    set_signing_pin(partner.pk, "1357", actor=organizer)
    with pytest.raises(ServiceError) as err:  # team A has a captain: his partner may not sign
        sign_as_captain(decided.pk, team_id=decided.team_a_id, player_id=partner.pk,
                        actor=referee_user, pin="1357")
    assert err.value.field == "player" and "Константинопольская" in err.value.message
    outsider = _captain_b(decided)  # a player of team B cannot sign for team A
    with pytest.raises(ServiceError):
        sign_as_captain(decided.pk, team_id=decided.team_a_id, player_id=outsider.pk,
                        actor=referee_user, pin="1357")
    state = sheet_state(decided)
    assert not state.signatures


def test_pin_needs_the_referee_device_and_captain_signs_once(decided, referee_user, organizer,
                                                            make_user):
    captain_a = decided.team_a.captain
    set_signing_pin(captain_a.pk, "4711", actor=organizer)
    with pytest.raises(PermissionDenied):
        sign_as_captain(decided.pk, team_id=decided.team_a_id, player_id=captain_a.pk,
                        actor=make_user("stranger"), pin="4711")
    sign_as_captain(decided.pk, team_id=decided.team_a_id, player_id=captain_a.pk,
                    actor=referee_user, pin="4711")
    with pytest.raises(ServiceError) as err:
        sign_as_captain(decided.pk, team_id=decided.team_a_id, player_id=captain_a.pk,
                        actor=referee_user, pin="4711")
    assert err.value.field == "team"


def test_a_team_without_captain_signs_by_any_of_its_players_in_the_match(decided, make_user):
    player = Player.objects.get(pk=Pair.objects.filter(team=decided.team_b).order_by("id")[1]
                                .player2_id)
    user = make_user("own-login")
    Player.objects.filter(pk=player.pk).update(user=user)
    signature = sign_as_captain(decided.pk, team_id=decided.team_b_id, player_id=player.pk,
                                actor=user)
    assert signature.player_id == player.pk and signature.method == "login"


def test_countersign_waits_for_both_captains(decided, referee_user, organizer):
    captain_a = decided.team_a.captain
    set_signing_pin(captain_a.pk, "4711", actor=organizer)
    sign_as_captain(decided.pk, team_id=decided.team_a_id, player_id=captain_a.pk,
                    actor=referee_user, pin="4711")
    with pytest.raises(ServiceError) as err:
        countersign_sheet(decided.pk, actor=referee_user)
    assert TEAM_B in err.value.message


def test_sheet_refused_before_the_match_is_decided(match, referee_user, organizer, client):
    play(_parties(match)[0], "a", 1)  # board 2 still playing
    state = sheet_state(match)
    with pytest.raises(ServiceError) as err:
        sheet_download(state)
    assert err.value.field == "team_match" and "2" in err.value.message
    captain_a = match.team_a.captain
    set_signing_pin(captain_a.pk, "4711", actor=organizer)
    with pytest.raises(ServiceError):
        sign_as_captain(match.pk, team_id=match.team_a_id, player_id=captain_a.pk,
                        actor=referee_user, pin="4711")
    url = reverse("scoring:team_sheet_pdf", args=[match.round.tournament.slug, match.pk])
    response = client.get(url)
    assert response.status_code == 409
    assert "still playing" in response.content.decode() or "ещё играют" in \
        response.content.decode()


def test_draft_before_signatures_is_not_signed(decided, tmp_path):
    pdf, name = sheet_download(sheet_state(decided))
    assert name.endswith("-draft.pdf")
    flat = _squash(pdf_text(pdf, tmp_path, layout=False))
    assert "черновик" in flat and LONG_NAMES[0] in flat
    assert not verify_pdf(pdf, certificate_path()).ok


def test_api_gives_the_state_and_the_pdf(signed_sheet, referee_user):
    from rest_framework.test import APIClient

    sheet, pdf = signed_sheet
    client = APIClient()
    client.force_authenticate(referee_user)
    tm = sheet.team_match
    state = client.get(f"/api/v1/team-match-sheets/{tm.pk}/").json()
    assert state["status"] == "signed" and state["sha256"] == sheet.sha256
    assert [s["role"] for s in state["signatures"]] == ["captain", "captain", "referee"]
    answer = client.get(state["pdf_url"])
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    assert answer.content == pdf
    assert client.get(f"/api/v1/team-match-sheets/{tm.pk}/", {"x": 1}).status_code == 400


def test_api_refuses_the_pdf_before_the_match_is_decided(match, referee_user):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(referee_user)
    answer = client.get(f"/api/v1/team-match-sheets/{match.pk}/pdf/")
    assert answer.status_code == 400 and "team_match" in answer.json()
    assert client.get(f"/api/v1/team-match-sheets/{match.pk}/").json()["status"] == "undecided"


def test_round_print_of_signed_sheets_is_one_signed_pdf(signed_sheet, referee_user, client,
                                                       tmp_path):
    sheet, _pdf = signed_sheet
    tm = sheet.team_match
    client.force_login(referee_user)
    url = reverse("scoring:round_team_sheets", args=[tm.round.tournament.slug, tm.round.number])
    answer = client.get(url)
    assert answer.status_code == 200
    assert verify_pdf(answer.content, certificate_path()).ok
    assert LONG_NAMES[0] in _squash(pdf_text(answer.content, tmp_path, layout=False))


def test_sheet_page_for_the_referee_device(decided, referee_user, organizer, client):
    captain_a = decided.team_a.captain
    set_signing_pin(captain_a.pk, "4711", actor=organizer)
    client.force_login(referee_user)
    url = reverse("scoring:team_sheet", args=[decided.round.tournament.slug, decided.pk])
    page = client.get(url).content.decode()
    assert TEAM_A in page and "Sign with PIN" in page or "Подписать PIN-кодом" in page
    answer = client.post(reverse("scoring:team_sheet_sign",
                                 args=[decided.round.tournament.slug, decided.pk]),
                         {"team": decided.team_a_id, "player": captain_a.pk, "pin": "4711"},
                         follow=True)
    assert answer.status_code == 200
    assert sheet_state(decided).signature_of(decided.team_a) is not None


def test_uploaded_signed_sheet_is_authentic_and_a_changed_one_is_not(signed_sheet, client):
    sheet, pdf = signed_sheet
    from django.core.files.uploadedfile import SimpleUploadedFile

    def upload(data: bytes) -> str:
        return client.post(reverse("scoring:verify"), {
            "pdf": SimpleUploadedFile("sheet.pdf", data, "application/pdf")}).content.decode()

    page = upload(pdf)
    assert 'id="team-sheet"' in page and TEAM_A in page
    assert 'class="card verdict ok"' in page
    at = pdf.index(b"/Keywords") + 2
    changed = upload(pdf[:at] + bytes([pdf[at] ^ 0x01]) + pdf[at + 1:])
    assert 'id="team-sheet"' not in changed and 'class="card verdict bad"' in changed


def test_party_page_links_its_team_match_sheet(decided, client):
    board1 = _parties(decided)[0]
    page = client.get(reverse("tournaments:party", args=[board1.pk])).content.decode()
    assert reverse("scoring:team_sheet", args=[decided.round.tournament.slug, decided.pk]) in page


def test_a_change_to_a_party_after_a_captain_signed_asks_for_his_signature_again(
        decided, referee_user, organizer):
    from scoring.models import Deal
    from scoring.party.deals import correct_deal

    captain_a = decided.team_a.captain
    set_signing_pin(captain_a.pk, "4711", actor=organizer)
    sign_as_captain(decided.pk, team_id=decided.team_a_id, player_id=captain_a.pk,
                    actor=referee_user, pin="4711")
    deal = Deal.objects.filter(party=_parties(decided)[1]).order_by("number").first()
    correct_deal(deal.pk, actor=referee_user, reason="Ошибка в подсчёте", outcome="domino",
                 went_out="a1", pips={"a1": 0, "a2": 10, "b1": 10, "b2": 10})
    captain_b = _captain_b(decided)
    set_signing_pin(captain_b.pk, "2468", actor=organizer)
    sign_as_captain(decided.pk, team_id=decided.team_b_id, player_id=captain_b.pk,
                    actor=referee_user, pin="2468")
    state = sheet_state(decided)
    assert state.sheet.version == 2  # what captain A confirmed is no longer the sheet
    assert [s.team_id for s in state.signatures] == [decided.team_b_id]
    with pytest.raises(ServiceError):
        countersign_sheet(decided.pk, actor=referee_user)


def test_round_page_of_a_team_event_prints_its_signed_sheets(decided, referee_user, client):
    client.force_login(referee_user)
    rnd = decided.round
    page = client.get(reverse("tournaments:round", args=[rnd.tournament.slug, rnd.number]))
    url = reverse("scoring:round_team_sheets", args=[rnd.tournament.slug, rnd.number])
    assert url in page.content.decode()
    refused = client.get(url, follow=True)  # none signed yet: back to the round, with why
    assert "Печатать нечего" in refused.content.decode() or "Nothing to print" in \
        refused.content.decode()


def test_the_first_partys_log_tells_the_sheet_was_signed(signed_sheet):
    from django.utils import translation

    from scoring.models import PartyEvent
    from scoring.models.event_text import describe_event

    sheet, _pdf = signed_sheet
    events = PartyEvent.objects.filter(party=_parties(sheet.team_match)[0],
                                       kind__startswith="team_sheet").order_by("seq")
    with translation.override("ru"):
        texts = [describe_event(event.kind, event.data) for event in events]
    assert texts[0] == (f"Протокол командного матча подписан за команду «{TEAM_A}»: "
                        f"{LONG_NAMES[0]}")
    assert texts[-1] == "Протокол командного матча, версия 1, заверен судьёй"


def test_a_signed_sheet_travels_in_the_tournament_file_once(signed_sheet):
    """The tournament file carries the signed sheet and its signatures; importing the same
    file again where its sheet is already held is refused, naming the tournament."""
    from scoring.core.errors import ServiceError
    from scoring.models import TeamSheet, TeamSheetSignature
    from tests.tournaments.test_transfer_archive import wipe
    from tournaments.transfer import archive
    from tournaments.transfer.archive import import_tournament

    sheet, pdf = signed_sheet
    tournament = sheet.team_match.round.tournament
    signatures = TeamSheetSignature.objects.filter(sheet=sheet).count()
    data = archive.export_bytes(tournament)
    with pytest.raises(ServiceError, match="imported here before"):
        import_tournament(data, slug="sheet-copy")
    assert not TeamSheet.objects.filter(team_match__round__tournament__slug="sheet-copy")
    wipe(tournament)
    imported = import_tournament(data)
    copy = TeamSheet.objects.get(team_match__round__tournament=imported)
    assert (copy.public_id, copy.sha256, copy.status) == (sheet.public_id, sheet.sha256,
                                                         sheet.status)
    assert TeamSheetSignature.objects.filter(sheet=copy).count() == signatures == 3
    with copy.file.open("rb") as handle:
        assert handle.read() == pdf
