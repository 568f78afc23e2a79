"""``POST /api/v1/auth/token/``: a user's API token for his username and password, locked like
the login form (django-axes' counters, per username and address, and per address across
usernames) after repeated failures, and throttled like the rest of the API."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from config.api_parsers import DepthLimitedJSONParser
from config.api_throttle import AnonymousRateThrottle, PerUserRateThrottle
from scoring.access.query import KnownQueryMixin
from scoring.people import lockouts


def locked_response(username: str | None, address: str | None) -> Response:
    """429 ``{detail}``: this username is locked from this address, for so many minutes."""
    message, seconds = lockouts.login_refusal(username, address)
    return Response({"detail": message}, status=429, headers={"Retry-After": str(seconds)})


class ObtainToken(KnownQueryMixin, ObtainAuthToken):
    """The token of a user: his username and password (``Authorization: Token <key>``).

    JSON, as every endpoint; a form-encoded login is still taken (docs/api.md says so since
    before v1), though the schema declares JSON only."""

    # The API's JSON parser (its depth limit: DRF's view had its own), and the form.
    parser_classes = (DepthLimitedJSONParser, FormParser, MultiPartParser)
    throttle_classes = (AnonymousRateThrottle, PerUserRateThrottle)  # DRF's view has none

    @extend_schema(
        request={"application/json": AuthTokenSerializer},
        responses={
            200: AuthTokenSerializer,
            429: OpenApiResponse(OpenApiTypes.OBJECT, description="Too many failed logins for "
                                 "this username from this address (LOGIN_FAILURE_LIMIT), or "
                                 "from this address for any usernames "
                                 "(LOGIN_ADDRESS_FAILURE_LIMIT): even the right password is "
                                 "refused for LOGIN_COOLOFF_MINUTES; or too many requests "
                                 "(API_THROTTLE_ANON_RATE). {detail: message with the time "
                                 "left}, Retry-After."),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The user's token; wrong credentials 400, a locked username 429."""
        serializer = self.get_serializer(data=request.data)
        valid = serializer.is_valid()
        username = request.data.get("username") if hasattr(request.data, "get") else None
        address = getattr(request, "axes_ip_address", None) or lockouts.client_address(request)
        if getattr(request, "axes_locked_out", False):
            return locked_response(username, address)
        if not valid:
            serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        lockouts.reset_login_failures(user.get_username(), address)
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


obtain_token = ObtainToken.as_view()
