"""URLs of import and export, included in the tournaments' URLs (their namespace)."""

from django.urls import path

from tournaments.transfer import views

urlpatterns = [
    path("tournaments/import/", views.tournament_upload, name="tournament_import"),
    path("t/<str:slug>/import/", views.roster_import, name="import"),
    path("t/<str:slug>/import/template.<str:fmt>", views.roster_template,
         name="import_template"),
    path("t/<str:slug>/export/", views.export_page, name="export"),
    path("t/<str:slug>/export/tournament.json", views.tournament_download,
         name="export_tournament"),
    path("t/<str:slug>/export/<str:what>.<str:fmt>", views.export_download,
         name="export_download"),
]
