"""The referee's pages: party screen, htmx panel swaps, overview, referees and corrections."""

from __future__ import annotations

import re

import pytest

from scoring.models import Deal, Penalty, RefereeSettings, Ruling, TournamentRole

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def ref_client(client, referee_user):
    client.force_login(referee_user)
    return client


def action(party, name):
    return f"/referee/party/{party.pk}/{name}/"


def test_party_screen_has_the_main_controls_and_a_strict_csp(ref_client, party):
    response = ref_client.get(f"/referee/party/{party.pk}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "script-src 'self'" in response["Content-Security-Policy"]
    for control in ('id="btn-pause"', 'id="btn-deal"', 'data-warning="talking-a"',
                    "Out of turn", "False pass", "Touched tile", "No-show", "Disqualification",
                    "Move-time helper", "Event log"):
        assert control in html, control
    assert "<script>" not in html and " style=" not in html and "onclick" not in html


def test_scheduled_party_offers_start_check_in_and_no_show(ref_client, make_party):
    party = make_party(table_number=3)
    html = ref_client.get(f"/referee/party/{party.pk}/").content.decode()
    assert 'id="btn-start"' in html and 'class="ref-row ref-checkin"' in html
    checkin = html[html.index("ref-checkin"):html.index("</section>", html.index("ref-checkin"))]
    # one button per player: presence is kept per seat (rules.md S27)
    for name in ("Иван Петров", "Сергей Смирнов", "Ольга Морозова", "Мария Волкова"):
        assert name in checkin
    assert checkin.count("data-check-in=") == 4
    assert 'data-ruling="no-show-b"><span class="ref-who"><span class="ref-badge">B</span>' in html
    assert "absent: forfeit" in html and "Pair B absent" not in html
    assert 'id="btn-deal"' not in html


def test_check_in_is_offered_only_before_the_start(ref_client, party):
    html = ref_client.get(f"/referee/party/{party.pk}/").content.decode()
    assert "ref-checkin" not in html and f"/referee/party/{party.pk}/check-in/" not in html
    assert html.index('id="clock-controls"') < html.index('id="deal-entry"')


def test_quick_deal_through_htmx_swaps_the_panel(ref_client, party):
    response = ref_client.post(action(party, "deal"), {
        "outcome": "domino", "winner": "b", "points": "37", "number": 1,
        "version": party.version, "client_id": "abc"}, **HX)
    html = response.content.decode()
    assert response.status_code == 200 and html.startswith('<div id="panel"')
    flash = html[html.index('id="deal-entry"'):html.index('id="warnings"')]
    assert "Deal 1: Domino, Ольга Морозова / Мария Волкова won, 0 : 37" in flash
    assert 'class="ref-flash ok" role="status"' in flash and 'id="undo"' in flash
    assert Deal.objects.get(party=party).points_b == 37


def test_double_tap_on_the_same_form_records_once(ref_client, party):
    body = {"outcome": "fish", "winner": "a", "points": "12", "client_id": "same-form"}
    ref_client.post(action(party, "deal"), body, **HX)
    ref_client.post(action(party, "deal"), body, **HX)
    assert Deal.objects.filter(party=party).count() == 1


def test_detailed_deal_with_pips_per_player(ref_client, party):
    ref_client.post(action(party, "deal"), {"outcome": "domino", "went_out": "b1", "pips_a1": 7,
                                            "pips_a2": 9, "pips_b2": 4})
    deal = Deal.objects.get(party=party)
    assert (deal.winner, deal.points_b) == ("b", 20)


def test_deal_from_picked_tiles(ref_client, party):
    ref_client.post(action(party, "deal"), {"outcome": "fish", "tiles_a1": ["0-0", "0-1"],
                                            "tiles_a2": ["1-1"], "tiles_b1": ["6-6"],
                                            "tiles_b2": ["5-5"]})
    deal = Deal.objects.get(party=party)
    assert (deal.winner, deal.points_a, deal.pips["b1"]) == ("a", 25, 12)


def test_tiles_preview_shows_sums_and_the_winner(ref_client, party):
    html = ref_client.post(f"/referee/party/{party.pk}/tiles-preview/", {
        "outcome": "fish", "tiles_a1": ["0-0", "0-1"], "tiles_b1": ["6-6"]}).content.decode()
    assert "<b>1</b>" in html and "<b>12</b>" in html and "Pair A wins the deal: 13 : 0" in html
    html = ref_client.post(f"/referee/party/{party.pk}/tiles-preview/", {
        "tiles_a1": ["0-1"], "tiles_b1": ["1-0"]}).content.decode()
    assert "twice" in html


def test_move_helper_fragment(ref_client, party):
    html = ref_client.post(f"/referee/party/{party.pk}/move-advice/", {
        "hand": ["6-6", "2-3"], "end_1": "6", "end_2": "1", "seat": "b2"}).content.decode()
    assert "5 s allowed" in html and "False pass by" in html
    assert '<span class="ref-badge">B2</span> <span class="ref-name" title="Мария Волкова">' in html
    html = ref_client.post(f"/referee/party/{party.pk}/move-advice/", {"hand": ["6-6", "2-3"]}
                           ).content.decode()
    assert "20 s allowed" in html  # an empty table: any tile


def test_warning_button_escalates_to_a_fine(ref_client, party):
    ref_client.post(action(party, "warning"), {"category": "signs", "side": "a"}, **HX)
    html = ref_client.post(action(party, "warning"), {"category": "signs", "side": "a",
                                                      "confirmed": "1"}, **HX).content.decode()
    assert "Fine to Иван Петров / Сергей Смирнов: Signs, 25 points" in html
    warnings = html[html.index('id="warnings"'):html.index('id="rulings"')]
    assert 'class="ref-flash ok"' in warnings  # the answer next to the warning buttons
    assert 'data-warning="signs-a"><span class="ref-who"><span class="ref-badge">A</span>' in html
    assert list(Penalty.objects.values_list("kind", flat=True)) == ["warning", "fine"]


def test_error_is_shown_in_the_panel_and_changes_nothing(ref_client, party):
    html = ref_client.post(action(party, "deal"), {"outcome": "domino", "winner": "a",
                                                   "points": "300"}, **HX).content.decode()
    assert 'class="ref-flash error"' in html
    assert not Deal.objects.exists()


def test_error_without_htmx_is_the_page_with_status(ref_client, party):
    response = ref_client.post(action(party, "pause-reason"), {"reason": "dispute"})
    assert response.status_code == 400 and "ref-flash error" in response.content.decode()


def test_stale_page_is_refused_with_409(ref_client, party):
    version = party.version
    ref_client.post(action(party, "warning"), {"category": "talking", "side": "a",
                                               "version": version})
    response = ref_client.post(action(party, "fine"), {"category": "signs", "side": "b",
                                                       "version": version})
    assert response.status_code == 409
    assert "changed by someone else" in response.content.decode()
    assert Penalty.objects.count() == 1


def test_success_without_htmx_redirects_to_the_screen(ref_client, party):
    response = ref_client.post(action(party, "pause"), {"reason": "dispute"})
    assert response.status_code == 302 and response["Location"] == f"/referee/party/{party.pk}/"


def test_rulings_through_the_page(ref_client, party):
    ref_client.post(action(party, "out-of-turn"), {"seat": "b1", "choice": "continue",
                                                   "tile": "4-4"})
    html = ref_client.get(f"/referee/party/{party.pk}/").content.decode()
    assert "Exposed tile" in html and '<span class="ref-badge">B1</span>' in html
    assert 'title="Ольга Морозова">Ольга Морозова</span></span> 4-4' in html
    ref_client.post(action(party, "touched-tile"), {"seat": "a1", "fits": "false",
                                                    "confirmed": "1"})
    ref_client.post(action(party, "false-pass"), {"seat": "b2", "points_a": "0",
                                                  "points_b": "0", "confirmed": "1"})
    assert sorted(Ruling.objects.values_list("kind", flat=True)) == [
        "false_pass", "out_of_turn", "touched_tile"]


def test_disqualification_through_the_page(ref_client, party):
    ref_client.post(action(party, "disqualify"), {"side": "b", "scope": "tournament",
                                                  "reason": "slammed tiles", "confirmed": "1"})
    party.refresh_from_db()
    assert party.end_reason == "disqualification" and party.pair_b.disqualified


def test_status_fragment_for_polling(ref_client, party):
    html = ref_client.get(f"/referee/party/{party.pk}/status/").content.decode()
    assert html.startswith('<section id="scoreboard"') and 'hx-trigger="every 10s"' in html


def test_correct_and_annul_pages(ref_client, party, referee_user):
    ref_client.post(action(party, "deal"), {"outcome": "domino", "winner": "a", "points": "10"})
    deal = Deal.objects.get()
    assert ref_client.get(f"/referee/deal/{deal.pk}/correct/").status_code == 200
    ref_client.post(f"/referee/deal/{deal.pk}/correct/", {
        "outcome": "domino", "winner": "a", "points_a": "15", "points_b": "0",
        "reason": "miscounted"})
    deal.refresh_from_db()
    assert deal.points_a == 15
    ref_client.post(f"/referee/deal/{deal.pk}/annul/", {"reason": "replay"})
    deal.refresh_from_db()
    assert deal.outcome == "annulled"


def test_cancel_penalty_from_the_page(ref_client, party):
    ref_client.post(action(party, "fine"), {"category": "signs", "side": "a", "confirmed": "1"})
    penalty = Penalty.objects.get()
    ref_client.post(f"/referee/penalty/{penalty.pk}/cancel/", {"reason": "mistake"})
    penalty.refresh_from_db()
    assert penalty.cancelled


def test_overview_page_refreshes_itself(ref_client, party, tournament):
    response = ref_client.get(f"/referee/t/{tournament.slug}/")
    html = response.content.decode()
    assert response.status_code == 200 and 'hx-trigger="every 5s"' in html
    assert f'href="/referee/party/{party.pk}/"' in html
    partial = ref_client.get(f"/referee/t/{tournament.slug}/", **HX).content.decode()
    assert partial.startswith('<div id="overview"')


def test_overview_page_sends_anonymous_visitors_to_login(client, tournament):
    response = client.get(f"/referee/t/{tournament.slug}/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_organizer_assigns_a_referee_and_the_udl_preset(client, organizer, tournament,
                                                        make_user):
    make_user("judge")
    client.force_login(organizer)
    page = f"/referee/t/{tournament.slug}/referees/"
    assert client.get(page).status_code == 200
    table = tournament.tables.get(number=2)
    client.post(page, {"username": "judge", "role": "referee", "tables": [table.pk]})
    role = TournamentRole.objects.get(user__username="judge")
    assert list(role.tables.all()) == [table]
    client.post(page, {"penalty_preset": "udl"})
    assert RefereeSettings.objects.get(tournament=tournament).penalty_preset == "udl"
    client.post(page, {"remove": role.pk, "confirmed": "1"})
    assert not TournamentRole.objects.filter(pk=role.pk).exists()


def test_referee_may_not_manage_referees(ref_client, tournament):
    assert ref_client.get(f"/referee/t/{tournament.slug}/referees/").status_code == 403


def test_party_page_links_to_the_referee_screen(ref_client, party):
    html = ref_client.get(party.get_absolute_url()).content.decode()
    assert f'href="/referee/party/{party.pk}/"' in html


def test_russian_referee_screen(ref_client, party):
    ref_client.cookies["django_language"] = "ru"
    response = ref_client.get(f"/referee/party/{party.pk}/", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200 and 'lang="ru"' in response.content.decode()


def test_an_error_is_shown_next_to_the_form_that_caused_it(ref_client, party):
    html = ref_client.post(action(party, "deal"), {"outcome": "domino", "points": "10"},
                           **HX).content.decode()
    deal_entry = html[html.index('id="deal-entry"'):html.index('id="warnings"')]
    assert 'class="ref-flash error" role="alert"' in deal_entry
    assert html.count("ref-flash error") == 1


def test_deals_table_total_equals_the_scoreboard_with_a_fine(ref_client, party):
    ref_client.post(action(party, "deal"), {"outcome": "domino", "winner": "a", "points": "30"})
    ref_client.post(action(party, "fine"), {"category": "signs", "side": "a", "points": "10",
                                            "confirmed": "1"})
    html = ref_client.get(f"/referee/party/{party.pk}/").content.decode()
    totals = re.findall(r'data-total="([ab])">(-?\d+)<', html)
    board = dict(totals)
    last_sigma = re.findall(r"<td class=\"nowrap\" data-running>([^<]*)</td>", html)[-1]
    assert last_sigma == f"{board['a']}:{board['b']}"
    assert 'id="deals-total"' in html and "Fines" in html


def test_no_show_alert_names_the_pair(ref_client, make_party):
    from django.utils import timezone

    from referee.state import alerts, desk
    from scoring.models import PartyDesk

    party = make_party()
    PartyDesk.objects.create(party=party, no_show_raised_at=timezone.now(),
                             present_a=timezone.now())
    text = " ".join(a["message"] for a in alerts(party, "scheduled", desk(party)))
    assert "No-show candidate: Ольга Морозова / Мария Волкова." in text
    assert "pair B" not in text


def test_correct_link_has_a_label(ref_client, party):
    ref_client.post(action(party, "deal"), {"outcome": "domino", "winner": "a", "points": "10"})
    html = ref_client.get(f"/referee/party/{party.pk}/").content.decode()
    deal = Deal.objects.get()
    link = f'class="button ref-fix" href="/referee/deal/{deal.pk}/correct/">Correct deal 1</a>'
    assert link in html
    assert "✎" not in html
