"""URL configuration: health, the icon, pages, admin, accounts, language switch, the 400/403/404
pages."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path

from config import health, live
from referee.staff_views import InvitationView


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """The site's icon where browsers and feed readers look for it, whatever a page links."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))


urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("healthz/live", health.live, name="healthz-live"),
    path("healthz/ready", health.ready, name="healthz-ready"),
    path("favicon.ico", favicon, name="favicon"),
    path("live/", live.stream, name="live"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/invitation/<uidb64>/<token>/", InvitationView.as_view(), name="invitation"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("config.api_urls")),
    path("referee/", include("referee.urls")),
    path("", include("scoring.signoff.urls")),
    path("", include("tournaments.urls")),
]

handler400 = "config.error_pages.bad_request"
handler403 = "config.error_pages.permission_denied"
handler404 = "config.error_pages.page_not_found"
