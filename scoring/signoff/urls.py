"""URLs of protocol pages: sign-off actions, downloads, verification, round prints, PINs, and
the team match sheets."""

from django.urls import path

from scoring.signoff import views
from scoring.signoff.team_sheets import views as team_sheet_views

app_name = "scoring"

urlpatterns = [
    path("party/<int:pk>/protocol/sign/", views.protocol_sign, name="protocol_sign"),
    path("party/<int:pk>/protocol/refuse/", views.protocol_refuse, name="protocol_refuse"),
    path(
        "party/<int:pk>/protocol/countersign/",
        views.protocol_countersign,
        name="protocol_countersign",
    ),
    path("party/<int:pk>/protocol.pdf", views.protocol_download, name="protocol_download"),
    path(
        "protocols/<str:public_id>.pdf",
        views.protocol_version_download,
        name="protocol_version_download",
    ),
    path("verify/", views.verify, name="verify"),
    path("v/<str:public_id>/", views.verify_protocol, name="verify_protocol"),
    path("rounds/<int:round_id>/print/", views.round_print, name="round_print"),
    path("print/<int:pk>/", views.print_job, name="print_job"),
    path("print/<int:pk>/pdf/", views.print_job_download, name="print_job_download"),
    path("players/<int:pk>/signing-pin/", views.signing_pin, name="signing_pin"),
    path("t/<str:slug>/team-matches/<int:pk>/sheet/", team_sheet_views.team_sheet,
         name="team_sheet"),
    path("t/<str:slug>/team-matches/<int:pk>/sheet/sign/", team_sheet_views.team_sheet_sign,
         name="team_sheet_sign"),
    path("t/<str:slug>/team-matches/<int:pk>/sheet/countersign/",
         team_sheet_views.team_sheet_countersign, name="team_sheet_countersign"),
    path("t/<str:slug>/team-matches/<int:pk>/sheet.pdf", team_sheet_views.team_sheet_pdf,
         name="team_sheet_pdf"),
    path("t/<str:slug>/rounds/<int:number>/team-sheets.pdf", team_sheet_views.round_team_sheets,
         name="round_team_sheets"),
]
