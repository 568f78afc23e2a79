"""The API's settings (REST framework, the OpenAPI schema), read by Django via config.settings."""

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

# The API's request throttles (config.api_throttle): requests without a user per client
# address, a user's per user; "<number>/<second|minute|hour|day>", empty for none. Over it: 429
# with Retry-After. The counts live in the cache (per process without REDIS_URL).
API_THROTTLE_ANON_RATE = os.environ.get("API_THROTTLE_ANON_RATE", "120/minute").strip()
# A user's rate leaves room for one account driving a hall of 50 tables (about one action a
# second each) and a queue replayed after an outage.
API_THROTTLE_USER_RATE = os.environ.get("API_THROTTLE_USER_RATE", "6000/minute").strip()

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "config.api_auth.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "config.api_schema.AutoSchema",
    # Request bodies are JSON (nested at most JSON_MAX_DEPTH levels); an upload endpoint names
    # its own multipart parser (the roster import). A form-encoded body is 415, and the schema
    # declares application/json only.
    "DEFAULT_PARSER_CLASSES": ["config.api_parsers.DepthLimitedJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "config.api_errors.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "config.api_throttle.AnonymousRateThrottle",
        "config.api_throttle.PerUserRateThrottle",
    ],
    "DEFAULT_VERSIONING_CLASS": "rest_framework.versioning.NamespaceVersioning",
    "ALLOWED_VERSIONS": ["v1"],
    "DEFAULT_VERSION": "v1",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Domino tournaments API",
    "DESCRIPTION": "Tournaments, draws, parties, deals, penalties, protocols and standings. "
    "Conventions (sides and seats, errors, pagination, idempotency, time zones) and the "
    "changelog: docs/api.md.",
    "VERSION": "1.0.0",
    "SCHEMA_PATH_PREFIX": r"/api/v[0-9]+",
    # Request and response bodies are separate components: a request model never asks for
    # what the server sets (``id``, ``version``, links), a response model has it.
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.api_schema.attach_examples",
        "config.api_links.add_links",
    ],
    "SCHEMA_PATH_PREFIX_INSERT": "",
    # What the routes' path converters take (config.api_urls): a slug is letters, digits, - and _.
    "PATH_CONVERTER_OVERRIDES": {"slug": {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"}},
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "scoring.models.Tournament.Status",
        "FormatEnum": "scoring.models.Tournament.Format",
        "StageFormatEnum": "scoring.models.Stage.Format",
        "RoundStatusEnum": "scoring.models.Round.Status",
        "PartyStatusEnum": "scoring.models.Party.Status",
        "PartySideEnum": "scoring.models.Party.Side",
        "PrintKindEnum": "scoring.models.PrintJob.Kind",
        "SeatEnum": "referee.serializers.SEAT_CHOICES",
        "DealEntryOutcomeEnum": "referee.serializers.DEAL_ENTRY_OUTCOMES",
        "TilesPreviewOutcomeEnum": "referee.serializers.PREVIEW_OUTCOMES",
        "DealOutcomeEnum": "scoring.models.Deal.Outcome",
        "WarningCategoryEnum": "referee.serializers.WARNING_CATEGORY_CHOICES",
        "PenaltyCategoryEnum": "scoring.models.Penalty.Category",
        "PenaltyKindEnum": "scoring.models.Penalty.Kind",
        "RulingKindEnum": "scoring.models.Ruling.Kind",
        "ProtocolStatusEnum": "scoring.models.Protocol.Status",
        "ProtocolProblemEnum": "scoring.models.Protocol.Problem",
        "ProtocolPartEnum": "scoring.signoff.snapshot.PART_KEYS",
        "TimetableItemKindEnum": "scoring.models.TimetableItem.Kind",
    },
}

# Recorded request and response examples of each API version (manage.py api_examples --write),
# shown in the schema.
API_EXAMPLES_DIR = BASE_DIR / "docs" / "openapi"
