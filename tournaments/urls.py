"""URLs of the tournament pages."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("t/new/", views.tournament_create, name="create"),
    path("t/<str:slug>/", views.tournament_detail, name="detail"),
    path("t/<str:slug>/edit/", views.tournament_edit, name="edit"),
    path("t/<str:slug>/regulations/", views.regulations_edit, name="regulations"),
    path("t/<str:slug>/players/new/", views.player_edit, name="player_create"),
    path("t/<str:slug>/players/<int:pk>/", views.player_edit, name="player_edit"),
    path("t/<str:slug>/pairs/new/", views.pair_edit, name="pair_create"),
    path("t/<str:slug>/pairs/<int:pk>/", views.pair_edit, name="pair_edit"),
    path("t/<str:slug>/tables/new/", views.table_edit, name="table_create"),
    path("t/<str:slug>/tables/<int:pk>/", views.table_edit, name="table_edit"),
    path("t/<str:slug>/rounds/<int:number>/", views.round_detail, name="round"),
    path("party/<int:pk>/", views.party_detail, name="party"),
    path("party/<int:pk>/start/", views.party_start, name="party_start"),
    path("party/<int:pk>/forfeit/", views.party_forfeit, name="party_forfeit"),
    path("deal/<int:pk>/<str:action>/", views.deal_change, name="deal_change"),
]
