"""Sign-off as at a bridge table: who may sign, once; refusals; the lock; amendments."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from referee.services import cancel_penalty
from scoring.core.errors import ServiceError
from scoring.models import Deal, PartyEvent, Penalty, Protocol, Signature
from scoring.party.deals import annul_deal, correct_deal, record_deal
from scoring.signoff.content import party_players
from scoring.signoff.pins import set_signing_pin
from scoring.signoff.services import (
    countersign,
    record_refusal,
    sign_as_player,
)

pytestmark = pytest.mark.django_db

FISH_B_48 = {"outcome": "fish", "pips": {"a1": 20, "a2": 15, "b1": 5, "b2": 8}}


def players(party):
    return [player for _seat, player in party_players(party)]


def sign_all(party, users):
    for user, player in zip(users, players(party), strict=True):
        sign_as_player(party.pk, player_id=player.pk, actor=user)


@pytest.fixture
def locked(finished_party, player_users, referee_user):
    sign_all(finished_party, player_users)
    countersign(finished_party.pk, actor=referee_user)
    finished_party.refresh_from_db()
    return finished_party


def test_protocol_opens_when_the_party_finishes(finished_party):
    protocol = finished_party.protocols.get()
    assert protocol.status == Protocol.Status.AWAITING and protocol.version == 1
    assert PartyEvent.objects.filter(party=finished_party, kind="protocol_opened").exists()


def test_player_signs_only_his_own_party(finished_party, player_users, make_party, make_user):
    a1 = players(finished_party)[0]
    # a player of this party cannot sign for his partner
    with pytest.raises(PermissionDenied):
        sign_as_player(finished_party.pk, player_id=players(finished_party)[1].pk,
                       actor=player_users[0])
    # a player of another party cannot sign this one, not even as himself
    other = make_party(table_number=2, round_number=finished_party.round.number,
                       pair_a=finished_party.round.tournament.pairs.order_by("id")[2],
                       pair_b=finished_party.round.tournament.pairs.order_by("id")[3])
    outsider = players(other)[0]
    outsider.user = make_user("outsider")
    outsider.save()
    with pytest.raises(ServiceError) as err:
        sign_as_player(finished_party.pk, player_id=outsider.pk, actor=outsider.user)
    assert err.value.field == "player"
    assert not Signature.objects.exists()
    signature = sign_as_player(finished_party.pk, player_id=a1.pk, actor=player_users[0])
    assert signature.method == Signature.Method.LOGIN and signature.player == a1


def test_player_signs_once(finished_party, player_users):
    a1 = players(finished_party)[0]
    sign_as_player(finished_party.pk, player_id=a1.pk, actor=player_users[0])
    with pytest.raises(ServiceError) as err:
        sign_as_player(finished_party.pk, player_id=a1.pk, actor=player_users[0])
    assert err.value.field == "player"
    assert Signature.objects.filter(player=a1).count() == 1


def test_no_signing_before_the_party_finishes(party, referee_user, make_user, protocol_env):
    player = players(party)[0]
    player.user = make_user("early")
    player.save()
    with pytest.raises(ServiceError):
        sign_as_player(party.pk, player_id=player.pk, actor=player.user)


def test_pin_on_the_referee_device(finished_party, referee_user, organizer):
    a1, a2, *_rest = players(finished_party)
    set_signing_pin(a1.pk, "4711", actor=organizer)
    signature = sign_as_player(finished_party.pk, player_id=a1.pk, actor=referee_user, pin="4711")
    assert signature.method == Signature.Method.PIN and signature.user == referee_user
    with pytest.raises(ServiceError) as err:  # no PIN set for a2
        sign_as_player(finished_party.pk, player_id=a2.pk, actor=referee_user, pin="1234")
    assert err.value.field == "pin"


def test_wrong_pins_are_counted_and_lock_the_pin(finished_party, referee_user, organizer):
    a1 = players(finished_party)[0]
    set_signing_pin(a1.pk, "4711", actor=organizer)
    for _attempt in range(settings.SIGNING_PIN_FAILURE_LIMIT):
        with pytest.raises(ServiceError, match=".") as err:
            sign_as_player(finished_party.pk, player_id=a1.pk, actor=referee_user, pin="0000")
        assert err.value.field == "pin"
    with pytest.raises(ServiceError):  # locked now, even with the right PIN
        sign_as_player(finished_party.pk, player_id=a1.pk, actor=referee_user, pin="4711")
    assert not Signature.objects.exists()


def test_pin_needs_the_party_referee_device(finished_party, organizer, make_user):
    a1 = players(finished_party)[0]
    set_signing_pin(a1.pk, "4711", actor=organizer)
    with pytest.raises(PermissionDenied):
        sign_as_player(finished_party.pk, player_id=a1.pk, actor=make_user("stranger"),
                       pin="4711")


def test_only_the_player_or_an_organizer_sets_a_pin(finished_party, player_users, make_user):
    a1, a2, *_rest = players(finished_party)
    set_signing_pin(a1.pk, "123456", actor=player_users[0])
    with pytest.raises(PermissionDenied):
        set_signing_pin(a2.pk, "123456", actor=player_users[0])
    with pytest.raises(ServiceError):
        set_signing_pin(a1.pk, "12ab", actor=player_users[0])


def test_refusal_needs_the_referee_and_a_reason(finished_party, player_users, referee_user):
    b1 = players(finished_party)[2]
    with pytest.raises(PermissionDenied):
        record_refusal(finished_party.pk, player_id=b1.pk, reason="нет", actor=player_users[2])
    with pytest.raises(ServiceError) as err:
        record_refusal(finished_party.pk, player_id=b1.pk, reason="  ", actor=referee_user)
    assert err.value.field == "reason"
    refusal = record_refusal(finished_party.pk, player_id=b1.pk, reason="Не согласен со счётом",
                             actor=referee_user)
    assert refusal.refused and refusal.method == Signature.Method.REFUSAL
    with pytest.raises(ServiceError):  # a refusal counts as his one entry
        sign_as_player(finished_party.pk, player_id=b1.pk, actor=player_users[2])


def test_referee_countersigns_last(finished_party, player_users, referee_user):
    a1, a2, b1, _b2 = players(finished_party)
    for user, player in zip(player_users[:3], (a1, a2, b1), strict=True):
        sign_as_player(finished_party.pk, player_id=player.pk, actor=user)
    with pytest.raises(ServiceError) as err:
        countersign(finished_party.pk, actor=referee_user)
    assert "Мария Волкова" in err.value.message
    with pytest.raises(PermissionDenied):
        countersign(finished_party.pk, actor=player_users[0])


def test_refused_protocol_is_printed_with_the_reason(finished_party, player_users, referee_user,
                                                     tmp_path):
    from tests.protocols.conftest import pdf_text

    *signers, b2 = players(finished_party)
    for user, player in zip(player_users, signers, strict=False):
        sign_as_player(finished_party.pk, player_id=player.pk, actor=user)
    record_refusal(finished_party.pk, player_id=b2.pk, reason="Не согласна", actor=referee_user)
    protocol = countersign(finished_party.pk, actor=referee_user)
    assert "Отказ: Не согласна" in pdf_text(protocol.file.read(), tmp_path)


def test_party_is_locked_after_the_countersignature(locked, referee_user):
    protocol = locked.protocols.get()
    assert protocol.status == Protocol.Status.SIGNED and protocol.file
    assert PartyEvent.objects.filter(party=locked, kind="protocol_countersigned").exists()
    deal = locked.deals.get(number=2)
    fine = Penalty.objects.get(party=locked, kind="fine")
    before = (list(Deal.objects.filter(party=locked).values_list("points_a", "points_b")),
              locked.version, Protocol.objects.count())
    changes = [
        lambda: correct_deal(deal.pk, actor=referee_user, reason="опечатка", **FISH_B_48).record,
        lambda: annul_deal(deal.pk, actor=referee_user, reason="ошибка").record,
        lambda: cancel_penalty(fine.pk, actor=referee_user, reason="ошибка").record,
        lambda: record_deal(locked.pk, actor=referee_user, outcome="domino", winner="a",
                            points={"a": 10, "b": 0}).record,
    ]
    for change in changes:
        with pytest.raises(ServiceError) as err:
            change()
        assert err.value.field == "party"
        assert "chief referee" in err.value.message or "главн" in err.value.message
    locked.refresh_from_db()
    assert (list(Deal.objects.filter(party=locked).values_list("points_a", "points_b")),
            locked.version, Protocol.objects.count()) == before


def test_chief_referee_amends_with_a_reason_and_version_2_must_be_signed(
    locked, chief_user, player_users, referee_user
):
    fine = Penalty.objects.get(party=locked, kind="fine")
    with pytest.raises(ServiceError) as err:
        cancel_penalty(fine.pk, actor=chief_user, reason=" ")
    assert err.value.field == "reason"
    cancel_penalty(fine.pk, actor=chief_user, reason="Штраф дан по ошибке")
    v1, v2 = locked.protocols.order_by("version")
    assert v1.status == Protocol.Status.SUPERSEDED and v1.superseded_by == chief_user
    assert v2.status == Protocol.Status.AWAITING and v2.reason == "Штраф дан по ошибке"
    assert not v2.signatures.exists()
    sign_all(locked, player_users)
    v2 = countersign(locked.pk, actor=referee_user)
    assert v2.status == Protocol.Status.SIGNED and v2.data["result"] == "230 : 80"
    v1.refresh_from_db()
    assert v1.file and v1.sha256 != v2.sha256


def test_a_change_during_sign_off_voids_the_signatures(finished_party, player_users,
                                                       referee_user):
    a1 = players(finished_party)[0]
    sign_as_player(finished_party.pk, player_id=a1.pk, actor=player_users[0])
    deal = finished_party.deals.get(number=2)
    correct_deal(deal.pk, actor=referee_user, reason="опечатка", **FISH_B_48)  # not locked yet
    v1, v2 = finished_party.protocols.order_by("version")
    assert v1.status == Protocol.Status.SUPERSEDED and v2.status == Protocol.Status.AWAITING
    sign_as_player(finished_party.pk, player_id=a1.pk, actor=player_users[0])  # again, on v2
    assert v2.signatures.count() == 1


def test_stale_signatures_are_caught_at_signing(finished_party, player_users, referee_user):
    a1, a2, *_rest = players(finished_party)
    sign_as_player(finished_party.pk, player_id=a1.pk, actor=player_users[0])
    Deal.objects.filter(party=finished_party, number=1).update(note="changed behind the back")
    sign_as_player(finished_party.pk, player_id=a2.pk, actor=player_users[1])
    v1, v2 = finished_party.protocols.order_by("version")
    assert v1.status == Protocol.Status.SUPERSEDED
    assert list(v2.signatures.values_list("player", flat=True)) == [a2.pk]


# -- pages -----------------------------------------------------------------------------------


def test_party_page_shows_sign_off_for_the_player(client, finished_party, player_users):
    client.force_login(player_users[0])
    page = client.get(finished_party.get_absolute_url()).content.decode()
    assert 'id="protocol"' in page and reverse("scoring:protocol_sign",
                                               args=[finished_party.pk]) in page
    response = client.post(reverse("scoring:protocol_sign", args=[finished_party.pk]),
                           {"player": players(finished_party)[0].pk})
    assert response.status_code == 302
    assert Signature.objects.filter(player=players(finished_party)[0]).exists()


def test_referee_page_signs_with_pins_and_countersigns(client, finished_party, referee_user,
                                                       organizer):
    for player in players(finished_party):
        set_signing_pin(player.pk, "2468", actor=organizer)
    client.force_login(referee_user)
    page = client.get(finished_party.get_absolute_url()).content.decode()
    assert 'name="pin"' in page and "protocol/refuse/" in page
    url = reverse("scoring:protocol_sign", args=[finished_party.pk])
    for player in players(finished_party):
        client.post(url, {"player": player.pk, "pin": "2468"})
    assert Signature.objects.filter(method="pin").count() == 4
    countersign_url = reverse("scoring:protocol_countersign", args=[finished_party.pk])
    asked = client.post(countersign_url)  # asked first: nothing is signed yet
    assert asked.status_code == 200 and "the party locked" in asked.content.decode()
    assert finished_party.protocols.get().status != Protocol.Status.SIGNED
    client.post(countersign_url, {"confirmed": "1"})
    assert finished_party.protocols.get().status == Protocol.Status.SIGNED
    download = client.get(reverse("scoring:protocol_download", args=[finished_party.pk]))
    assert download["Content-Type"] == "application/pdf"
    assert b"".join(download.streaming_content if download.streaming else [download.content])[
        :5] == b"%PDF-"


def test_anonymous_cannot_sign(client, finished_party):
    response = client.post(reverse("scoring:protocol_sign", args=[finished_party.pk]),
                           {"player": players(finished_party)[0].pk})
    assert response.status_code == 302 and "login" in response["Location"]
    assert not Signature.objects.exists()


def test_table_device_with_htmx_swaps_the_section_in_place(client, finished_party, referee_user,
                                                           organizer):
    a1 = players(finished_party)[0]
    set_signing_pin(a1.pk, "2468", actor=organizer)
    client.force_login(referee_user)
    url = reverse("scoring:protocol_sign", args=[finished_party.pk])
    wrong = client.post(url, {"player": a1.pk, "pin": "0000"}, HTTP_HX_REQUEST="true")
    body = wrong.content.decode()
    assert wrong.status_code == 200 and "<html" not in body
    assert 'id="protocol"' in body and "Wrong PIN." in body
    right = client.post(url, {"player": a1.pk, "pin": "2468"}, HTTP_HX_REQUEST="true")
    assert "Signed." in right.content.decode()
    assert Signature.objects.filter(player=a1, method="pin").exists()
