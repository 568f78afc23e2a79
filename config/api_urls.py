"""The API under /api/: token login, OpenAPI schema and docs, and each app's endpoints."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.authtoken.views import obtain_auth_token

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("tournaments.transfer.api")),
    path("", include("tournaments.api")),
    path("", include("tournaments.webhook_api")),
    path("", include("referee.api")),
    path("", include("scoring.api")),
]
