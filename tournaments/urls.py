"""URLs of the tournament pages."""

from django.urls import include, path

from tournaments import public as public_views
from tournaments.checkin import scan_views as checkin_scan
from tournaments.checkin import views as checkin_views
from tournaments.entries import organizer_views as entry_manage_views
from tournaments.entries import views as entry_views
from tournaments.players import lockout_views
from tournaments.players import views as player_views
from tournaments.public import bracket as bracket_views
from tournaments.public import clubs as club_views
from tournaments.public import groups as groups_views
from tournaments.public import home
from tournaments.public import standings as standings_views
from tournaments.public import teams as public_teams
from tournaments.public.conditional import conditional_public
from tournaments.ranking import season_views
from tournaments.registration import people_views, profile_fields, profile_views, team_views
from tournaments.registration import views as registration_views
from tournaments.rounds import lineup_views, list_views, party_views
from tournaments.rounds import views as round_views
from tournaments.schedule import views as schedule_views
from tournaments.setup import views
from tournaments.tokens import views as token_views
from tournaments.webhooks import views as webhook_views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("home/", home.home, name="home"),
    path("calendar/", schedule_views.calendar_page, name="calendar"),
    path("calendar.ics", schedule_views.calendar_ics, name="calendar_ics"),
    path("lockouts/", lockout_views.lockout_log, name="lockouts"),
    path("api-tokens/", token_views.token_list, name="api_tokens"),
    path("api-tokens/<int:pk>/revoke/", token_views.token_revoke, name="api_token_revoke"),
    path("profiles/search/", profile_fields.profile_search, name="profile_search"),
    path("profiles/merge/", profile_views.merge_page, name="profile_merge"),
    path("profiles/<int:pk>/unmerge/", profile_views.unmerge_page, name="profile_unmerge"),
    path("t/new/", views.tournament_create, name="create"),
    path("entries/<str:token>/", entry_views.entry_page, name="entry_page"),
    path("entries/<str:token>/confirm/", entry_views.signup_confirm,
         name="entry_signup_confirm"),
    path("entries/<str:token>/partner/", entry_views.partner_confirm,
         name="entry_partner_confirm"),
    path("t/<str:slug>/enter/", entry_views.enter, name="enter"),
    path("t/<str:slug>/entries/", entry_manage_views.entries_manage, name="entries_manage"),
    path("t/<str:slug>/entries/settings/", entry_manage_views.entry_settings,
         name="entry_settings"),
    path("t/<str:slug>/entries/<int:pk>/", entry_manage_views.entry_edit, name="entry_edit"),
    path("t/<str:slug>/entries/<int:pk>/decide/", entry_manage_views.entry_decide,
         name="entry_decide"),
    path("t/<str:slug>/", views.tournament_detail, name="detail"),
    path("t/<str:slug>/edit/", views.tournament_edit, name="edit"),
    path("t/<str:slug>/regulations/", views.regulations_edit, name="regulations"),
    path("t/<str:slug>/players/new/", registration_views.player_edit, name="player_create"),
    path("t/<str:slug>/players/<int:pk>/", registration_views.player_edit, name="player_edit"),
    path("t/<str:slug>/pairs/new/", registration_views.pair_edit, name="pair_create"),
    path("t/<str:slug>/pairs/<int:pk>/", registration_views.pair_edit, name="pair_edit"),
    path("t/<str:slug>/teams/", team_views.team_list, name="teams"),
    path("t/<str:slug>/teams/new/", team_views.team_edit, name="team_create"),
    path("t/<str:slug>/teams/<int:pk>/", team_views.team_edit, name="team_edit"),
    path("t/<str:slug>/tables/new/", registration_views.table_edit, name="table_create"),
    path("t/<str:slug>/tables/<int:pk>/", registration_views.table_edit, name="table_edit"),
    path("t/<str:slug>/standings/", conditional_public("standings")(standings_views.standings),
         name="standings"),
    path("t/<str:slug>/standings/clubs/",
         conditional_public("standings")(club_views.club_standings),
         name="club_standings"),
    path("t/<str:slug>/standings/countries/",
         conditional_public("standings")(club_views.country_standings),
         name="country_standings"),
    path("t/<str:slug>/team-standings/",
         conditional_public("standings")(public_teams.team_standings), name="team_standings"),
    path("t/<str:slug>/team/<int:pk>/", public_teams.team_page, name="team"),
    path("t/<str:slug>/team-matches/<int:pk>/lineup/", lineup_views.lineup_page,
         name="team_lineup"),
    path("t/<str:slug>/bracket/", conditional_public("standings")(bracket_views.bracket),
         name="bracket"),
    path("t/<str:slug>/groups/", conditional_public("standings")(groups_views.groups),
         name="groups"),
    path("t/<str:slug>/bracket.pdf", bracket_views.bracket_pdf_view, name="bracket_pdf"),
    path("t/<str:slug>/draw/", conditional_public("draw")(public_views.draw_map),
         name="current_draw"),
    path("t/<str:slug>/table/<int:number>/", public_views.table_party, name="table"),
    path("t/<str:slug>/results/", public_views.results, name="results"),
    path("t/<str:slug>/pair/<int:pk>/", public_views.pair_page, name="pair"),
    path("t/<str:slug>/player/<int:pk>/", public_views.player_page, name="player"),
    path("players/<int:pk>/", public_views.profile_page, name="profile"),
    path("t/<str:slug>/hall/",
         conditional_public("hall", live_panels=("running",))(public_views.hall), name="hall"),
    path("t/<str:slug>/me/", player_views.tournament_area, name="player_area"),
    path("t/<str:slug>/me/checkin/", checkin_scan.checkin_me, name="checkin_me"),
    path("p/<str:token>/checkin/", checkin_scan.checkin_personal, name="checkin_personal"),
    path("t/<str:slug>/checkin/", checkin_views.checkin_page, name="checkin"),
    path("t/<str:slug>/checkin/<int:pk>/close/", checkin_views.window_close,
         name="checkin_close"),
    path("t/<str:slug>/checkin/<int:pk>/tick/", checkin_views.window_tick, name="checkin_tick"),
    path("t/<str:slug>/checkin/<int:pk>/qr/", checkin_views.window_qr, name="checkin_qr"),
    path("t/<str:slug>/checkin/scan/<str:token>/", checkin_scan.scan, name="checkin_scan"),
    path("t/<str:slug>/timetable.ics", schedule_views.timetable_ics, name="timetable_ics"),
    path("t/<str:slug>/timetable/", schedule_views.timetable_edit, name="timetable"),
    path("t/<str:slug>/timetable/round/<int:number>/", schedule_views.round_start,
         name="timetable_round"),
    path("t/<str:slug>/timetable/<int:pk>/", schedule_views.item_edit, name="timetable_item"),
    path("t/<str:slug>/timetable/<int:pk>/delete/", schedule_views.item_delete,
         name="timetable_item_delete"),
    path("t/<str:slug>/people/", people_views.people, name="people"),
    path("t/<str:slug>/links/", player_views.personal_links, name="personal_links"),
    path("me/", player_views.my_tournaments, name="my_area"),
    path("seasons/", season_views.season_list, name="seasons"),
    path("seasons/new/", season_views.season_create, name="season_create"),
    path("season/<str:slug>/", season_views.season_table, name="season"),
    path("season/<str:slug>/edit/", season_views.season_edit, name="season_edit"),
    path("p/<str:token>/", player_views.personal_area, name="personal_area"),
    path("t/<str:slug>/rounds/", list_views.round_list, name="rounds"),
    path("t/<str:slug>/finals/start/", list_views.finals_start, name="finals_start"),
    path("t/<str:slug>/groups/start/", list_views.groups_start, name="groups_start"),
    path("t/<str:slug>/rounds/new/", round_views.round_create, name="round_create"),
    path("t/<str:slug>/status/<str:change>/", round_views.tournament_status,
         name="tournament_status"),
    path("t/<str:slug>/rounds/<int:number>/", round_views.round_detail, name="round"),
    path("t/<str:slug>/rounds/<int:number>/edit/", round_views.draw_edit, name="draw_edit"),
    path(
        "t/<str:slug>/rounds/<int:number>/<str:action>/",
        round_views.round_action,
        name="round_action",
    ),
    path(
        "t/<str:slug>/<str:kind>/<int:pk>/withdraw/",
        registration_views.entrant_withdraw,
        name="withdraw",
    ),
    path("party/<int:pk>/", party_views.party_detail, name="party"),
    path("party/<int:pk>/start/", party_views.party_start, name="party_start"),
    path("party/<int:pk>/forfeit/", party_views.party_forfeit, name="party_forfeit"),
    path("deal/<int:pk>/<str:action>/", party_views.deal_change, name="deal_change"),
    path("t/<str:slug>/webhooks/", webhook_views.webhook_list, name="webhooks"),
    path("t/<str:slug>/webhooks/<int:pk>/delete/", webhook_views.webhook_delete,
         name="webhook_delete"),
    path("t/<str:slug>/webhooks/<int:pk>/renew-secret/", webhook_views.webhook_renew_secret,
         name="webhook_renew_secret"),
    path("t/<str:slug>/deliveries/<int:pk>/replay/", webhook_views.delivery_replay,
         name="webhook_replay"),
    path("", include("tournaments.transfer.urls")),
    path("", include("tournaments.ranking.urls")),
]
