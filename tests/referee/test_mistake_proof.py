"""Mistake-proof actions at the referee desk (issue #12, item 2).

Irreversible actions from the party screen ask first, naming the consequence with the names at
the table; the API does not ask. The warning button of a kind already warned says it will
fine, with the points. An action just made can be undone for a short time where the rules
allow, and the log says who undid it. Pause stops the clock at once; its reason comes after.
"""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from rest_framework.test import APIClient

from referee import services
from referee.consequence_maps import PanelConsequences
from referee.consequences import Consequences
from scoring.core.errors import ServiceError
from scoring.models import Deal, Party, PartyEvent, Penalty, Ruling
from scoring.totals.compute import party_totals
from tests.referee.test_rule_sets_desk import make_desk

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def named(party):
    """The started party, its pairs named: A "Рыбаки" (Иван Петров, Сергей Смирнов) and
    B "Кузнецы" (Ольга Морозова, Мария Волкова)."""
    for pair, name in ((party.pair_a, "Рыбаки"), (party.pair_b, "Кузнецы")):
        pair.name = name
        pair.save()
    party.refresh_from_db()
    return party


@pytest.fixture
def ref_client(client, referee_user):
    client.force_login(referee_user)
    return client


def action(party, name):
    return f"/referee/party/{party.pk}/{name}/"


def screen(party):
    return f"/referee/party/{party.pk}/"


def snapshot(party):
    """Everything an action could change."""
    party = Party.objects.get(pk=party.pk)
    return (
        party.version, party.status, party.time_expired_at, party.paused_at,
        Deal.objects.filter(party=party).count(), Penalty.objects.filter(party=party).count(),
        Ruling.objects.filter(party=party).count(), PartyEvent.objects.filter(party=party).count(),
    )


def text(html):
    """The page's text without tags, entities decoded (the consequence is read as words)."""
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


# -- every confirmation: unconfirmed changes nothing and names the consequence; confirmed acts --

CONFIRMATIONS = [
    pytest.param(
        "time-up", {},
        "Time is up for Рыбаки – Кузнецы: deal 1, in play, is the last one. "
        "The clock still shows",
        lambda p: p.time_expired_at is not None, id="time-up"),
    pytest.param(
        "no-show", {"side": "b"},
        "Absent: pair Кузнецы. Pair Рыбаки wins this party by forfeit, 200 : 0.",
        lambda p: (p.status, p.end_reason, p.winner) == ("finished", "forfeit", "a"),
        id="no-show"),
    pytest.param(
        "disqualify", {"side": "b", "seat": "b2", "scope": "party", "reason": "Грубость"},
        "Disqualify Мария Волкова from this party: pair Рыбаки wins this party by forfeit, "
        "200 : 0.",
        lambda p: p.end_reason == "disqualification", id="disqualify-party"),
    pytest.param(
        "disqualify", {"side": "a", "scope": "tournament", "reason": "Грубость"},
        "Disqualify pair Рыбаки from the whole tournament: pair Кузнецы wins this party by "
        "forfeit, 200 : 0; pair Рыбаки plays no further round.",
        lambda p: p.end_reason == "disqualification" and p.pair_a.disqualified,
        id="disqualify-tournament"),
    pytest.param(
        "out-of-turn", {"seat": "a2", "choice": "reshuffle"},
        "Out of turn by Сергей Смирнов: deal 1 is annulled and dealt again; pair Рыбаки is "
        "fined 25 points.",
        lambda p: p.deals.get().outcome == "annulled" and p.penalties.get().points == 25,
        id="reshuffle"),
    pytest.param(
        "touched-tile", {"seat": "a1", "fits": "false"},
        "The tile Иван Петров touched does not fit: pair Рыбаки is fined 25 points.",
        lambda p: p.penalties.get().kind == "fine", id="touched-misfit"),
    pytest.param(
        "false-pass", {"seat": "b1", "points_a": "0", "points_b": "0"},
        "False pass by Ольга Морозова: deal 1 ends here; pair Кузнецы is fined 25 points.",
        lambda p: p.deals.get().outcome == "referee" and p.penalties.get().side == "b",
        id="false-pass"),
    pytest.param(
        "fine", {"side": "b", "category": "signs", "points": "10"},
        "Fine: pair Кузнецы is fined 10 points.",
        lambda p: p.penalties.get().points == 10, id="fine"),
]


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize(("name", "body", "consequence", "done"), CONFIRMATIONS)
def test_irreversible_action_asks_first_and_acts_when_confirmed(
    ref_client, named, regs, htmx, name, body, consequence, done
):
    regs(no_show_minutes=0)
    extra = HX if htmx else {}
    before = snapshot(named)
    body = {**body, "version": named.version, "client_id": f"{name}-1"}
    response = ref_client.post(action(named, name), body, **extra)
    html = response.content.decode()
    assert response.status_code == 200 and response["X-Confirmation-Required"] == "1"
    assert 'id="confirm-step"' in html and consequence in text(html)
    assert html.startswith('<div id="panel"') == htmx  # htmx: the panel; else the whole page
    assert snapshot(named) == before  # nothing happened
    # The step repeats the form, with the confirmation: the same fields go again.
    step = html[html.index('id="confirm-step"'):]
    for key, value in body.items():
        assert f'name="{key}" value="{value}"' in step
    assert 'name="confirmed" value="1"' in step

    response = ref_client.post(action(named, name), {**body, "confirmed": "1"}, **extra)
    assert response.status_code in (200, 302)
    assert "confirm-step" not in response.content.decode()
    assert done(Party.objects.get(pk=named.pk))


def test_a_double_tap_cannot_skip_the_question(ref_client, named):
    body = {"side": "b", "category": "signs", "client_id": "fine-1", "version": named.version}
    before = snapshot(named)
    for _tap in range(2):
        response = ref_client.post(action(named, "fine"), body, **HX)
        assert 'id="confirm-step"' in response.content.decode()
    assert snapshot(named) == before
    for _tap in range(2):  # confirmed twice (the same form): one fine
        ref_client.post(action(named, "fine"), {**body, "confirmed": "1"}, **HX)
    assert Penalty.objects.filter(party=named).count() == 1


def test_a_retried_warning_is_not_asked_about_again(ref_client, named):
    """A double tap on a plain warning: the retry returns it; it does not become a fine."""
    body = {"category": "talking", "side": "a", "client_id": "warn-1", "version": named.version}
    ref_client.post(action(named, "warning"), body, **HX)
    response = ref_client.post(action(named, "warning"), body, **HX)
    assert "confirm-step" not in response.content.decode()
    assert list(Penalty.objects.values_list("kind", flat=True)) == ["warning"]


def test_a_stale_form_is_refused_before_any_question(ref_client, named):
    version = named.version
    services.give_warning(named.pk, side="a", category="talking")
    response = ref_client.post(action(named, "fine"), {
        "side": "b", "category": "signs", "version": version}, **HX)
    assert response.status_code == 409 and "confirm-step" not in response.content.decode()


def test_the_api_does_not_ask(named, referee_user):
    api = APIClient()
    api.force_authenticate(referee_user)
    response = api.post(f"/api/v1/parties/{named.pk}/disqualify/",
                        {"side": "b", "scope": "party", "reason": "Грубость"}, format="json")
    assert response.status_code == 201
    assert Party.objects.get(pk=named.pk).end_reason == "disqualification"


def test_finish_asks_first(ref_client, named):
    before = snapshot(named)
    html = ref_client.post(action(named, "finish"), {}, **HX).content.decode()
    assert "Finish the party Рыбаки – Кузнецы now." in text(html)
    assert snapshot(named) == before


def test_game_time_up_asks_first_naming_the_players(client, make_user):
    udl = make_desk(make_user, "udl")
    client.force_login(udl.referee)
    party = udl.party
    before = snapshot(party)
    html = client.post(action(party, "game-time-up"), {}, **HX).content.decode()
    assert ("Game 1 of Иван Петров – Ольга Морозова: time is up, deal 1, in play, is the last "
            "one of the game.") in text(html)
    assert snapshot(party) == before
    client.post(action(party, "game-time-up"), {"confirmed": "1"}, **HX)
    assert udl.party.game_expired_at is not None


def test_a_second_udl_slow_play_asks_naming_who_pays_whom(client, make_user):
    udl = make_desk(make_user, "udl")
    client.force_login(udl.referee)
    party = udl.party
    body = {"seat": "a1", "violation": "slow_play"}
    response = client.post(action(party, "udl-violation"), body, **HX)  # a warning: no question
    assert "confirm-step" not in response.content.decode()
    html = response.content.decode()
    assert ("Slow play, again: Иван Петров is fined 20 points, which go to Ольга Морозова."
            in unescape(html))  # the button's question, ready for the next tap
    before = snapshot(party)
    html = client.post(action(party, "udl-violation"), body, **HX).content.decode()
    assert 'id="confirm-step"' in html
    assert snapshot(party) == before
    client.post(action(party, "udl-violation"), {**body, "confirmed": "1"}, **HX)
    assert list(Penalty.objects.filter(party=party).values_list("kind", "points")) == [
        ("warning", 0), ("fine", 20)]


def test_confirmation_in_russian(ref_client, named):
    ref_client.cookies["django_language"] = "ru"
    services.give_warning(named.pk, side="a", category="talking")
    html = ref_client.post(action(named, "warning"), {"side": "a", "category": "talking"},
                           HTTP_ACCEPT_LANGUAGE="ru", **HX).content.decode()
    assert "Второе предупреждение (Разговоры): пара Рыбаки штрафуется на 25 очков." in text(html)
    assert "Подтвердите" in html


# -- the escalation before the tap ---------------------------------------------------------------


def test_the_warning_button_says_it_will_fine_with_the_points(ref_client, named):
    html = ref_client.get(screen(named)).content.decode()
    assert "data-fine-next" not in html
    ref_client.post(action(named, "warning"), {"category": "talking", "side": "a"})
    html = ref_client.get(screen(named)).content.decode()
    button = re.search(r'<form[^>]*data-confirm="([^"]*)"[^>]*>(?:(?!</form>).)*'
                       r'data-warning="talking-a".*?</form>', html, re.S)
    assert button is not None
    assert unescape(button.group(1)) == (
        "Second warning (Talking): pair Рыбаки is fined 25 points.")
    assert 'data-fine-next="25"' in button.group(0)
    assert "→ fine 25" in text(button.group(0)).replace("\xa0", " ")
    for other in ("talking-b", "signs-a"):  # other sides and kinds stay warnings
        cell = re.search(rf'<form[^>]*>(?:(?!</form>).)*data-warning="{other}".*?</form>', html,
                         re.S).group(0)
        assert "data-confirm" not in cell and "data-fine-next" not in cell


def test_the_preview_follows_the_regulations_count(ref_client, named, regs):
    regs(warnings_before_fine=2, fine_points=30)
    ref_client.post(action(named, "warning"), {"category": "signs", "side": "b"})
    assert "data-fine-next" not in ref_client.get(screen(named)).content.decode()
    ref_client.post(action(named, "warning"), {"category": "signs", "side": "b"})
    html = text(ref_client.get(screen(named)).content.decode()).replace("\xa0", " ")
    assert "→ fine 30" in html


def test_next_warning_is_the_rule_give_warning_applies(named, regs):
    regs(warnings_before_fine=1)
    for expected in ("warning", "fine", "fine"):
        preview = services.next_warning(named, category="talking", offender="a")
        given = services.give_warning(named.pk, side="a", category="talking").record
        assert preview.kind == given.kind == expected
        assert preview.points == given.points


def test_per_player_warnings_preview_names_the_player(client, make_user):
    draw = make_desk(make_user, "draw", players=3)
    client.force_login(draw.referee)
    party = draw.party
    client.post(action(party, "warning"), {"category": "talking", "side": "a", "seat": "a2"})
    html = client.get(screen(party)).content.decode()
    assert "Second warning (Talking): José García is fined 25 points." in unescape(html)
    assert 'data-warning="talking-a2"' in html
    texts = Consequences(party).of("warning", {"category": "talking", "side": "a", "seat": "a1"})
    assert texts == ""  # a1 has no warning yet


# -- undo ----------------------------------------------------------------------------------------


def test_undo_a_deal_within_the_window(ref_client, named, referee_user):
    response = ref_client.post(action(named, "deal"), {
        "outcome": "domino", "winner": "a", "points": "30", "version": named.version}, **HX)
    html = response.content.decode()
    assert 'id="btn-undo"' in html and "Deal 1" in html
    deal = Deal.objects.get(party=named)
    version = Party.objects.get(pk=named.pk).version
    response = ref_client.post(action(named, "undo"), {
        "record": "deal", "id": deal.pk, "version": version}, **HX)
    html = response.content.decode()
    assert response.status_code == 200 and "Undone by ref: deal 1 annulled" in html
    assert 'id="btn-undo"' not in html  # an undo is not undone
    deal.refresh_from_db()
    assert deal.outcome == "annulled"
    event = PartyEvent.objects.filter(party=named).order_by("-seq").first()
    assert (event.kind, event.actor) == ("action_undone", referee_user)
    assert event.data == {"record": "deal", "id": deal.pk, "by": "ref", "deal": 1}
    annulled = PartyEvent.objects.get(party=named, kind="deal_annulled")
    assert annulled.reason == "Undone by ref"  # the change itself, with its reason


def test_undo_without_htmx_survives_the_redirect_once(ref_client, named):
    response = ref_client.post(action(named, "warning"), {"category": "talking", "side": "b"})
    assert response.status_code == 302
    html = ref_client.get(screen(named)).content.decode()
    penalty = Penalty.objects.get()
    assert 'id="btn-undo"' in html and f'name="id" value="{penalty.pk}"' in html
    assert 'id="btn-undo"' not in ref_client.get(screen(named)).content.decode()
    ref_client.post(action(named, "undo"), {"record": "penalty", "id": penalty.pk})
    penalty.refresh_from_db()
    assert penalty.cancelled
    assert "Undone by ref" in ref_client.get(screen(named)).content.decode()


def test_undo_a_warning_that_became_a_fine_restores_the_score(named, referee_user):
    services.give_warning(named.pk, side="a", category="talking", actor=referee_user)
    fine = services.give_warning(named.pk, side="a", category="talking", actor=referee_user).record
    assert fine.kind == "fine"
    services.undo_action(named.pk, record="penalty", record_id=fine.pk, actor=referee_user)
    fine.refresh_from_db()
    assert fine.cancelled
    assert party_totals(Party.objects.get(pk=named.pk)).points["a"] == 0


def test_undo_a_ruling_without_lasting_consequence(ref_client, named, referee_user):
    ruling = services.rule_out_of_turn(named.pk, seat="b1", choice="continue", tile="4-4",
                                       actor=referee_user).record
    assert "Exposed tile" in ref_client.get(screen(named)).content.decode()
    services.undo_action(named.pk, record="ruling", record_id=ruling.pk, actor=referee_user)
    html = ref_client.get(screen(named)).content.decode()
    assert "Exposed tile" not in html and "undone" in html
    misfit = services.rule_touched_tile(named.pk, seat="a1", fits=False, actor=referee_user).record
    services.undo_action(named.pk, record="ruling", record_id=misfit.pk, actor=referee_user)
    assert Penalty.objects.get(pk=misfit.penalty_id).cancelled
    kinds = list(PartyEvent.objects.filter(party=named, kind="action_undone")
                 .values_list("data__kind", flat=True))
    assert kinds == ["out_of_turn", "touched_tile"]


def test_what_the_rules_do_not_let_undo_is_refused(named, referee_user):
    reshuffle = services.rule_out_of_turn(named.pk, seat="a1", choice="reshuffle",
                                          actor=referee_user).record
    assert services.undo_offer(reshuffle, referee_user) is None
    with pytest.raises(ServiceError, match="cannot be undone"):
        services.undo_action(named.pk, record="ruling", record_id=reshuffle.pk,
                             actor=referee_user)


def test_undo_after_the_window_is_refused(ref_client, named, referee_user):
    penalty = services.give_warning(
        named.pk, side="a", category="talking", actor=referee_user
    ).record
    Penalty.objects.filter(pk=penalty.pk).update(
        created_at=penalty.created_at - timedelta(seconds=61))
    penalty.refresh_from_db()
    assert services.undo_offer(penalty, referee_user) is None
    before = snapshot(named)
    response = ref_client.post(action(named, "undo"), {"record": "penalty", "id": penalty.pk},
                               **HX)
    assert response.status_code == 400 and "The time to undo it is over" in (
        response.content.decode())
    assert snapshot(named) == before


def test_the_window_is_a_setting(named, referee_user, settings):
    settings.REFEREE_UNDO_SECONDS = 0
    penalty = services.give_warning(
        named.pk, side="a", category="talking", actor=referee_user
    ).record
    assert services.undo_offer(penalty, referee_user) is None


def test_only_the_referee_who_made_it_undoes_it(named, referee_user, second_referee):
    penalty = services.give_warning(
        named.pk, side="a", category="talking", actor=referee_user
    ).record
    api = APIClient()
    api.force_authenticate(second_referee)
    response = api.post(f"/api/v1/parties/{named.pk}/undo/",
                        {"record": "penalty", "id": penalty.pk}, format="json")
    assert response.status_code == 400 and "Only the referee who made it" in str(response.json())
    api.force_authenticate(referee_user)
    response = api.post(f"/api/v1/parties/{named.pk}/undo/",
                        {"record": "penalty", "id": penalty.pk}, format="json")
    assert response.status_code == 200 and response.json()["record"]["cancelled"]


def test_undo_is_refused_when_the_party_changed_since(ref_client, named, referee_user):
    penalty = services.give_warning(
        named.pk, side="a", category="talking", actor=referee_user
    ).record
    version = Party.objects.get(pk=named.pk).version
    services.give_warning(named.pk, side="b", category="signs", actor=referee_user)
    response = ref_client.post(action(named, "undo"), {
        "record": "penalty", "id": penalty.pk, "version": version}, **HX)
    assert response.status_code == 409
    penalty.refresh_from_db()
    assert not penalty.cancelled


# -- pause first, the reason after; time up apart -------------------------------------------------


def test_pause_stops_the_clock_at_once_and_takes_the_reason_after(ref_client, named):
    html = ref_client.get(screen(named)).content.decode()
    pause_form = re.search(r"<form[^>]*/pause/.*?</form>", html, re.S).group(0)
    assert not re.search(r'<input(?![^>]*type="hidden")', pause_form)  # one tap: no field
    response = ref_client.post(action(named, "pause"), {"version": named.version})
    assert response.status_code == 302 and Party.objects.get(pk=named.pk).paused_at is not None
    html = ref_client.get(screen(named)).content.decode()
    assert 'id="pause-reason-form"' in html and 'id="btn-resume"' in html
    ref_client.post(action(named, "pause-reason"), {"reason": "Спор за столом"}, **HX)
    event = PartyEvent.objects.filter(party=named).order_by("-seq").first()
    assert (event.kind, event.reason) == ("pause_reason", "Спор за столом")
    html = ref_client.get(screen(named)).content.decode()
    assert 'value="Спор за столом"' in html and "Change the reason" in html
    ref_client.post(action(named, "resume"), {})
    assert 'id="pause-reason-form"' not in ref_client.get(screen(named)).content.decode()


def test_time_is_up_stands_apart_from_pause(ref_client, named):
    html = ref_client.get(screen(named)).content.decode()
    apart = re.search(r'<div class="ref-row ref-apart" id="time-up-controls">.*?</div>',
                      html, re.S).group(0)
    assert 'id="btn-time-up"' in apart and 'id="btn-pause"' not in apart
    assert html.index('id="btn-pause"') < html.index("btn-time-up")
    assert "ref-checkin" not in html  # the check-in is over once the clock runs
    form = re.search(r'<form[^>]*/time-up/"[^>]*>', html).group(0)
    assert "Time is up for Рыбаки – Кузнецы" in unescape(form)


def test_the_fine_forms_dialog_gets_a_sentence_per_plural_form(named):
    """Typed points: the dialog fills the sentence of the number's plural form (JS side)."""
    import json

    from django.utils import translation

    with translation.override("ru"):
        texts, keys = PanelConsequences(named).fine_map(by_seat=False)
    entry = json.loads(texts)["b"]
    assert keys == "side"
    assert entry["default"] == "Штраф: пара Кузнецы штрафуется на 25 очков."
    assert entry["1"] == "Штраф: пара Кузнецы штрафуется на {points} очко."
    assert entry["2"] == "Штраф: пара Кузнецы штрафуется на {points} очка."
    assert entry["5"] == "Штраф: пара Кузнецы штрафуется на {points} очков."


def test_the_disqualification_forms_texts_by_its_choices(named):
    import json

    texts, keys = PanelConsequences(named).disqualify_map(by_seat=False)
    texts = json.loads(texts)
    assert keys == "side,seat,scope"
    assert texts["b|b1|party"] == (
        "Disqualify Ольга Морозова from this party: pair Рыбаки wins this party by forfeit, "
        "200 : 0.")
    assert texts["a||tournament"].startswith("Disqualify pair Рыбаки from the whole tournament")
    assert "a|b1|party" not in texts  # a seat of the other side: the server refuses it
