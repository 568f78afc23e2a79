"""The API: version 1 under /api/v1/ (token login, OpenAPI schema and docs, each app's endpoints).

Versions are URL namespaces (DRF's ``NamespaceVersioning``): ``request.version`` is ``"v1"``
and the schema at ``/api/v1/schema/`` holds that version's operations only. The paths of the
unversioned API of before answer with a permanent redirect to their v1 place.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.urls import Resolver404, URLPattern, URLResolver, include, path, re_path, resolve
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.exceptions import NotFound
from rest_framework.routers import APIRootView, DefaultRouter

from config.api_token import obtain_token
from referee.api import router as referee_router
from scoring.access.query import KnownQueryMixin
from scoring.signoff.api import router as protocols_router
from scoring.signoff.team_sheets.api import router as team_sheets_router
from tournaments.api import router as tournaments_router
from tournaments.api.careers import ProfileRecordView
from tournaments.checkin.api import router as checkin_router
from tournaments.tokens.api import router as tokens_router
from tournaments.webhooks.api import router as webhooks_router

API_VERSIONS = ("v1",)
"""The versions served, oldest first; the last is the current one."""

MOVED = (
    ("referee/parties/", "parties/"),
    ("referee/deals/", "deals/"),
    ("referee/penalties/", "penalties/"),
)
"""Old path prefixes whose resources v1 merged into another (old, new)."""


class RootView(KnownQueryMixin, APIRootView):
    """``/api/v1/``: every collection's address (a query parameter is refused, as anywhere)."""


class V1Router(DefaultRouter):
    """Routes with path converters: a record's id is a number (``<int:pk>``) unless its viewset
    names another converter (``lookup_value_converter``), so ``/print-jobs/abc/`` is a 404.
    No ``.json`` suffixes (``?format=json`` or ``Accept`` choose the format)."""

    include_format_suffixes = False
    APIRootView = RootView

    def __init__(self) -> None:
        super().__init__(use_regex_path=False)
        self._default_value_pattern = "int"


router = V1Router()
for app_router in (tournaments_router, webhooks_router, referee_router, protocols_router,
                   team_sheets_router, tokens_router, checkin_router):
    router.registry.extend(app_router.registry)
"""One router of every resource of v1: its root lists them all."""


@csrf_exempt  # it changes nothing: an unsafe request gets its 404 (or 308), not a CSRF page
def not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    """A path of the API with no endpoint: 404 with ``{detail}``, as every API error.

    A path that lacks only its final slash is sent there (308, method and body kept).
    """
    if not request.path.endswith("/"):
        try:
            match = resolve(request.path + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not not_found:
            query = request.META.get("QUERY_STRING", "")
            return HttpResponsePermanentRedirect(
                request.path + "/" + (f"?{query}" if query else ""), status=308
            )
    return JsonResponse({"detail": str(NotFound.default_detail)}, status=404)


v1_patterns: list[URLPattern | URLResolver] = [
    path("auth/token/", obtain_token, name="api-token"),
    path("schema/", SpectacularAPIView.as_view(api_version="v1"), name="api-schema"),
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="v1:api-schema"),
        name="api-docs",
    ),
    path("", include("tournaments.transfer.api")),
    path("profiles/<int:pk>/record/", ProfileRecordView.as_view(), name="profile-record"),
    path("", include(router.urls)),
    re_path(r"^(?P<rest>.*)$", not_found),
]


@csrf_exempt  # the redirect changes nothing; the v1 endpoint checks the request
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
    re_path(r"^(?P<rest>.*)$", not_found),
]
