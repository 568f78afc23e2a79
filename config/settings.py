"""Django settings, read from the environment; embedded defaults when nothing is set."""

import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean from the environment ("1", "true", "yes", "on" are true)."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-insecure-key-only-for-local-use-never-in-production-0123456789"
ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]
CSRF_FAILURE_VIEW = "config.error_pages.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "tournaments",
    "scoring",
    "referee",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "scoring.timezones.TournamentTimeZoneMiddleware",
    "django.middleware.common.CommonMiddleware",
    "scoring.site.SiteAddressMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.ContentSecurityPolicyMiddleware",
]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'self'"
)
"""One policy for every HTML response: no inline script or style, nothing from elsewhere."""

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.home.nav_roles",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DB_PREPARED_STATEMENTS", True
):
    # Server-side parameter binding lets psycopg prepare the statements a connection runs
    # again and again (from the 5th time): PostgreSQL then stops parsing and planning them,
    # half its CPU per referee action. DB_PREPARED_STATEMENTS=0 turns it off (needed behind a
    # connection pooler in transaction mode that does not keep prepared statements).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=5
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:home"  # by role: tournaments.home.home_for
LOGOUT_REDIRECT_URL = "tournaments:list"

LANGUAGE_CODE = os.environ.get("LANGUAGE_CODE", "en")
LANGUAGES = [("en", _("English")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Moscow")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "var" / "staticfiles"))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "var" / "media"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Celery: eager (in-process) when no broker is configured.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "") or REDIS_URL
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "") or REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://"
CELERY_BEAT_SCHEDULE = {
    "sweep-party-clocks": {"task": "referee.tasks.sweep_party_clocks", "schedule": 5.0},
    "sweep-no-shows": {"task": "referee.tasks.sweep_no_shows", "schedule": 10.0},
    "purge-idempotency-keys": {
        "task": "referee.tasks.purge_idempotency_keys",
        "schedule": 3600.0,
    },
    "purge-print-jobs": {"task": "scoring.tasks.purge_print_jobs", "schedule": 3600.0},
}
# How long a stored response answers a retried request with the same Idempotency-Key.
IDEMPOTENCY_KEY_HOURS = int(os.environ.get("IDEMPOTENCY_KEY_HOURS", "24"))
# How long the referee desk offers to undo an action just made (a deal, a warning, a fine …).
REFEREE_UNDO_SECONDS = int(os.environ.get("REFEREE_UNDO_SECONDS", "60"))

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "config.api_schema.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "config.api_errors.api_exception_handler",
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
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.api_schema.attach_examples",
        "config.api_links.add_links",
    ],
    "SCHEMA_PATH_PREFIX_INSERT": "",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "scoring.models.Tournament.Status",
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
    },
}

# Recorded request and response examples of each API version (manage.py api_examples --write),
# shown in the schema.
API_EXAMPLES_DIR = BASE_DIR / "docs" / "openapi"

# Protocol signing: a key and certificate of the installation (created on first use).
PROTOCOL_SIGNING_DIR = Path(os.environ.get("PROTOCOL_SIGNING_DIR", BASE_DIR / "var" / "signing"))
PROTOCOL_SIGNING_KEY = os.environ.get("PROTOCOL_SIGNING_KEY", "")
PROTOCOL_SIGNING_CERT = os.environ.get("PROTOCOL_SIGNING_CERT", "")
PROTOCOL_SIGNING_KEY_PASSPHRASE = os.environ.get("PROTOCOL_SIGNING_KEY_PASSPHRASE", "")
# The site's public address: the QR code of a protocol leads to its verification page there,
# and players' personal links start with it. Empty: the address each request reached
# (scoring.site.site_url); `make run` sets it from HOST and PORT.
SITE_URL = os.environ.get("SITE_URL", "").rstrip("/")
# How long a round's print PDF is kept for download (and reused for the same input).
PRINT_JOB_HOURS = int(os.environ.get("PRINT_JOB_HOURS", "24"))

# Production hardening (manage.py check --deploy is clean with DEBUG=0 and a real SECRET_KEY).
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Webhooks: private, loopback and link-local receivers are refused unless allowed here.
WEBHOOK_ALLOW_PRIVATE_NETWORKS = env_bool("WEBHOOK_ALLOW_PRIVATE_NETWORKS", False)
WEBHOOK_MAX_ATTEMPTS = int(os.environ.get("WEBHOOK_MAX_ATTEMPTS", "10"))
WEBHOOK_RETRY_BASE_SECONDS, WEBHOOK_RETRY_MAX_SECONDS, WEBHOOK_TIMEOUT_SECONDS = 1.0, 300.0, 5.0
