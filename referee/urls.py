"""URLs of the referee's pages."""

from django.urls import path

from referee import home, offline, staff_views, views

app_name = "referee"

urlpatterns = [
    path("tables/", home.my_tables_page, name="my_tables"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("t/<str:slug>/", views.overview, name="overview"),
    path("t/<str:slug>/referees/", staff_views.referees, name="referees"),
    path("party/<int:pk>/", views.party_screen, name="party"),
    path("party/<int:pk>/status/", views.party_status, name="party_status"),
    path("party/<int:pk>/move-advice/", views.move_advice, name="move_advice"),
    path("party/<int:pk>/tiles-preview/", views.tiles_preview, name="tiles_preview"),
    path("party/<int:pk>/ends-count/", views.ends_count, name="ends_count"),
    path("party/<int:pk>/<str:name>/", views.party_action, name="action"),
    path("deal/<int:pk>/correct/", views.deal_correct, name="deal_correct"),
    path("deal/<int:pk>/annul/", views.deal_annul, name="deal_annul"),
    path("penalty/<int:pk>/cancel/", views.penalty_cancel, name="penalty_cancel"),
]
