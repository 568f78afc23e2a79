"""The API: version 1 under /api/v1/ (token login, OpenAPI schema and docs, each app's endpoints).

Versions are URL namespaces (DRF's ``NamespaceVersioning``): ``request.version`` is ``"v1"``
and the schema at ``/api/v1/schema/`` holds that version's operations only. The paths of the
unversioned API of before answer with a permanent redirect to their v1 place.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.authtoken.views import obtain_auth_token

API_VERSIONS = ("v1",)
"""The versions served, oldest first; the last is the current one."""

MOVED = (
    ("referee/parties/", "parties/"),
    ("referee/deals/", "deals/"),
    ("referee/penalties/", "penalties/"),
)
"""Old path prefixes whose resources v1 merged into another (old, new)."""

v1_patterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("schema/", SpectacularAPIView.as_view(api_version="v1"), name="api-schema"),
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="v1:api-schema"),
        name="api-docs",
    ),
    path("", include("tournaments.transfer.api")),
    path("", include("tournaments.api")),
    path("", include("tournaments.webhook_api")),
    path("", include("referee.api")),
    path("", include("scoring.api")),
]


def moved_to_v1(request: HttpRequest, rest: str) -> HttpResponsePermanentRedirect:
    """308 from an unversioned API path to its v1 place (the method and body are kept)."""
    for old, new in MOVED:
        if rest.startswith(old):
            rest = new + rest[len(old):]
            break
    query = request.META.get("QUERY_STRING", "")
    target = f"/api/v1/{rest}" + (f"?{query}" if query else "")
    return HttpResponsePermanentRedirect(target, status=308)


urlpatterns = [
    path("v1/", include((v1_patterns, "v1"), namespace="v1")),
    re_path(r"^(?!v\d+/)(?P<rest>.*)$", moved_to_v1, name="api-moved"),
]
