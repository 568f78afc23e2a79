"""Django settings, read from the environment; embedded defaults when nothing is set."""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from config.env import env_bool, env_int, live_redis
from config.observability import logging_settings

# The API's settings live beside (REST framework, the OpenAPI schema); Django reads them here.
from config.settings_api import API_EXAMPLES_DIR as API_EXAMPLES_DIR
from config.settings_api import API_THROTTLE_ANON_RATE as API_THROTTLE_ANON_RATE
from config.settings_api import API_THROTTLE_USER_RATE as API_THROTTLE_USER_RATE
from config.settings_api import REST_FRAMEWORK as REST_FRAMEWORK
from config.settings_api import SPECTACULAR_SETTINGS as SPECTACULAR_SETTINGS

BASE_DIR = Path(__file__).resolve().parent.parent


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
# Origins (comma-separated; * for any) whose web pages may read /api/ from a browser (config.cors).
CORS_ALLOWED_ORIGINS = [o.strip().rstrip("/") for o in
                        os.environ.get("CORS_ALLOWED_ORIGINS", "").split(",") if o.strip()]

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
    "axes",
    "tournaments",
    "scoring",
    "referee",
]

MIDDLEWARE = [
    "config.middleware.ContentSecurityPolicyMiddleware",  # first: it sees every answer
    "config.observability.RequestIdMiddleware",  # logs name the request and the party
    "config.middleware.ControlCharacterMiddleware",  # no NUL in a path reaches a lookup
    "django.middleware.security.SecurityMiddleware",
    "config.cors.ReadApiCorsMiddleware",  # other origins read /api/ (CORS_ALLOWED_ORIGINS)
    # a spectator's unchanged poll of a public page: 304 from one cache read, before the rest
    "tournaments.public.conditional.PublicNotModifiedMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "scoring.core.timezones.TournamentTimeZoneMiddleware",
    "django.middleware.common.CommonMiddleware",
    "scoring.core.site.SiteAddressMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "scoring.access.permissions.GrantsMiddleware",  # the request's roles, read once per tournament
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
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
                "tournaments.public.home.nav_roles",
                "config.live.offered",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        # A kept connection is checked before a request reuses it: the first request after a
        # database restart reconnects instead of failing.
        conn_health_checks=env_bool("CONN_HEALTH_CHECKS", True),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded database is shared by the requests' threads and the webhook sender's: a
    # transaction takes the write lock when it begins and waits for it (up to 20 s), instead of
    # failing with "database is locked" when it first writes while another thread writes.
    DATABASES["default"].setdefault("OPTIONS", {}).update(transaction_mode="IMMEDIATE", timeout=20)
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
# Logins: django-axes counts failures (in the database, shared by every process) and locks a
# username from an address; its check runs before the password is looked at. Its handler adds
# a limit per address across usernames (password spraying), higher than a username's: a hall
# of players behind one address makes typos too.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
LOGIN_COOLOFF_MINUTES = env_int("LOGIN_COOLOFF_MINUTES", 15)
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 30)  # 0: no such limit
AXES_HANDLER = "scoring.people.axes_handler.AddressLimitHandler"
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_COOLOFF_MINUTES)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # the message's minutes stay true
AXES_DISABLE_ACCESS_LOG = True  # successful logins are not logged (the lockouts are)
AXES_CLIENT_IP_CALLABLE = "scoring.people.lockouts.client_address"
AXES_LOCKOUT_CALLABLE = "tournaments.players.lockout_views.lockout_response"
AXES_HTTP_RESPONSE_CODE = 429
# Behind N reverse proxies the client's address is the N-th from the right of X-Forwarded-For.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
# Signing PINs on the table device; protocol uploads to the verification page per address.
SIGNING_PIN_FAILURE_LIMIT = env_int("SIGNING_PIN_FAILURE_LIMIT", 5)
SIGNING_PIN_COOLOFF_MINUTES = env_int("SIGNING_PIN_COOLOFF_MINUTES", 15)
VERIFY_UPLOADS_PER_HOUR = env_int("VERIFY_UPLOADS_PER_HOUR", 30)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:home"  # by role: tournaments.public.home.home_for
LOGOUT_REDIRECT_URL = "tournaments:list"
# An invitation link (referee.accounts) works once, for this long.
PASSWORD_RESET_TIMEOUT = int(float(os.environ.get("INVITATION_DAYS", "7")) * 86400)
# No mail server by default: mails (invitations) are written to files under var/mail.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(BASE_DIR / "var" / "mail"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "domino@localhost")

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
# Tasks outside the apps' tasks modules: the heartbeat, check-in's sweep.
CELERY_IMPORTS = ["scoring.core.heartbeat", "tournaments.checkin.tasks"]
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
# A broker (or Redis) that is down or hangs must not hold a request: a send gives up within
# about BROKER_TIMEOUT_SECONDS (connect, each socket operation, one quick retry) and is logged
# (scoring.core.background); the beat's sweeps catch up the work it would have started.
BROKER_TIMEOUT_SECONDS = float(os.environ.get("BROKER_TIMEOUT_SECONDS", "1"))
CELERY_BROKER_CONNECTION_TIMEOUT = BROKER_TIMEOUT_SECONDS
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": BROKER_TIMEOUT_SECONDS,
    "socket_timeout": max(2 * BROKER_TIMEOUT_SECONDS, 2.0),  # above BRPOP's 1 s wait
    "health_check_interval": 10,  # a half-open consuming connection is replaced within ~20 s
}
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2,
}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = BROKER_TIMEOUT_SECONDS
CELERY_REDIS_SOCKET_TIMEOUT = CELERY_BROKER_TRANSPORT_OPTIONS["socket_timeout"]
# How far apart at most a worker tries again to reach a lost broker (for ever: config.celery).
BROKER_RECONNECT_SECONDS = float(os.environ.get("BROKER_RECONNECT_SECONDS", "5"))
CELERY_BEAT_SCHEDULE = {
    "sweep-party-clocks": {"task": "referee.tasks.sweep_party_clocks", "schedule": 5.0},
    "sweep-no-shows": {"task": "referee.tasks.sweep_no_shows", "schedule": 10.0},
    "purge-idempotency-keys": {
        "task": "referee.tasks.purge_idempotency_keys",
        "schedule": 3600.0,
    },
    "purge-print-jobs": {"task": "scoring.tasks.purge_print_jobs", "schedule": 3600.0},
    "sweep-missed-sends": {"task": "scoring.tasks.sweep_missed_sends", "schedule": 60.0},
    "stamp-heartbeat": {"task": "scoring.heartbeat.stamp_heartbeat", "schedule": 15.0},
}
# /healthz reports the workers down ("degraded", still 200) when none has stamped the heartbeat
# for this long (the beat sends the stamp every 15 s; any worker runs it).
HEALTH_HEARTBEAT_MAX_AGE_SECONDS = env_int("HEALTH_HEARTBEAT_MAX_AGE_SECONDS", 90)
# The public pages' ETag reads the results version kept this long in the shared cache.
PUBLIC_ETAG_VERSION_SECONDS = float(os.environ.get("PUBLIC_ETAG_VERSION_SECONDS", "1"))
# Rows on a page of a long public table (standings, rating lists); a shorter one is not paged.
PUBLIC_TABLE_PAGE_SIZE = int(os.environ.get("PUBLIC_TABLE_PAGE_SIZE", "150"))
# How long a stored response answers a retried request with the same Idempotency-Key.
IDEMPOTENCY_KEY_HOURS = int(os.environ.get("IDEMPOTENCY_KEY_HOURS", "24"))
# How long a change of a party waits for its row held by another change (PostgreSQL's
# lock_timeout on the party lock) before it answers 503 "try again".
PARTY_LOCK_TIMEOUT_SECONDS = float(os.environ.get("PARTY_LOCK_TIMEOUT_SECONDS", "5"))
# How long the referee desk offers to undo an action just made (a deal, a warning, a fine …).
REFEREE_UNDO_SECONDS = int(os.environ.get("REFEREE_UNDO_SECONDS", "60"))
# How far a desk's corrected clock may be off the server's: a deal's entered_at further in the
# future, or before its party's start, is refused (scoring.party.entry_time).
ENTERED_AT_TOLERANCE_SECONDS = float(os.environ.get("ENTERED_AT_TOLERANCE_SECONDS", "5"))

# Redis down or hanging is a cache miss (config.cache), after at most CACHE_TIMEOUT_SECONDS.
CACHE_TIMEOUT_SECONDS = float(os.environ.get("CACHE_TIMEOUT_SECONDS", "0.5"))
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "socket_connect_timeout": CACHE_TIMEOUT_SECONDS,
                "socket_timeout": CACHE_TIMEOUT_SECONDS,
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Live updates (config.live, scoring.live): server-sent events under ASGI; across web nodes
# through Redis pub/sub when the site has a Redis, in the process's memory without one.
EVENTSTREAM_CHANNELMANAGER_CLASS = "config.live.ChannelManager"
# Whether pages open the stream: "auto" when this process serves them under ASGI (it serves the
# stream too), "1" always (WSGI nodes whose proxy sends /live/ to ASGI nodes), "0" never.
LIVE_UPDATES = os.environ.get("LIVE_UPDATES", "auto").strip().lower()
if _live_redis := live_redis(REDIS_URL, CELERY_BROKER_URL, CACHE_TIMEOUT_SECONDS):
    LIVE_REDIS = _live_redis  # scoring.live_fanout (not the library's EVENTSTREAM_REDIS)

# Protocol signing: a key and certificate of the installation (created on first use).
PROTOCOL_SIGNING_DIR = Path(os.environ.get("PROTOCOL_SIGNING_DIR", BASE_DIR / "var" / "signing"))
PROTOCOL_SIGNING_KEY = os.environ.get("PROTOCOL_SIGNING_KEY", "")
PROTOCOL_SIGNING_CERT = os.environ.get("PROTOCOL_SIGNING_CERT", "")
PROTOCOL_SIGNING_KEY_PASSPHRASE = os.environ.get("PROTOCOL_SIGNING_KEY_PASSPHRASE", "")
# Extra certificates verification trusts besides the current one and those a rotation kept in
# PROTOCOL_SIGNING_DIR/trusted/: PEM files or folders of them, separated by os.pathsep (":").
PROTOCOL_TRUSTED_CERTS = [
    entry for entry in os.environ.get("PROTOCOL_TRUSTED_CERTS", "").split(os.pathsep) if entry
]
# The site's public address: the QR code of a protocol leads to its verification page there,
# and players' personal links start with it. Empty: the address each request reached
# (scoring.core.site.site_url); `make run` sets it from HOST and PORT.
SITE_URL = os.environ.get("SITE_URL", "").rstrip("/")
# How long a round's print PDF is kept for download (and reused for the same input).
PRINT_JOB_HOURS = int(os.environ.get("PRINT_JOB_HOURS", "24"))

# Production hardening (manage.py check --deploy is clean with DEBUG=0 and a real SECRET_KEY).
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz(/live|/ready)?$"]  # probes come over plain HTTP
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

# Every line names the request (X-Request-ID, taken or made, sent back) and the party.
LOGGING = logging_settings(os.environ.get("LOG_LEVEL", "WARNING"))

# Errors (Django and Celery) go to Sentry only when SENTRY_DSN is set.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    from config.observability import init_sentry

    init_sentry(SENTRY_DSN, os.environ.get("SENTRY_ENVIRONMENT", ""),
                os.environ.get("SENTRY_RELEASE", ""))

# Uploads: every kind has its cap, refused with a message naming it (nothing is written).
# Django's: a request body without its files (keep it above 4/3 of ROSTER_UPLOAD_MAX_BYTES: the
# roster preview carries the file in its form, base64), and an upload kept in memory.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 5 * 1024 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = env_int("FILE_UPLOAD_MAX_MEMORY_SIZE", 2 * 1024 * 1024)
ROSTER_UPLOAD_MAX_BYTES = env_int("ROSTER_UPLOAD_MAX_BYTES", 1024 * 1024)
ROSTER_MAX_ROWS = env_int("ROSTER_MAX_ROWS", 2000)
ROSTER_XLSX_MAX_UNPACKED_BYTES = env_int("ROSTER_XLSX_MAX_UNPACKED_BYTES", 8 * 1024 * 1024)
TOURNAMENT_IMPORT_MAX_BYTES = env_int("TOURNAMENT_IMPORT_MAX_BYTES", 100 * 1024 * 1024)
TOURNAMENT_IMPORT_MAX_DEPTH = env_int("TOURNAMENT_IMPORT_MAX_DEPTH", 32)
JSON_MAX_DEPTH = env_int("JSON_MAX_DEPTH", 32)  # an API request's JSON, unparsed past it: 400
VERIFY_UPLOAD_MAX_BYTES = env_int("VERIFY_UPLOAD_MAX_BYTES", 5 * 1024 * 1024)

# Webhooks: private, loopback and link-local receivers are refused unless allowed here.
WEBHOOK_ALLOW_PRIVATE_NETWORKS = env_bool("WEBHOOK_ALLOW_PRIVATE_NETWORKS", False)
WEBHOOK_MAX_ATTEMPTS = int(os.environ.get("WEBHOOK_MAX_ATTEMPTS", "10"))
WEBHOOK_RETRY_BASE_SECONDS = float(os.environ.get("WEBHOOK_RETRY_BASE_SECONDS", "1"))
WEBHOOK_RETRY_MAX_SECONDS = float(os.environ.get("WEBHOOK_RETRY_MAX_SECONDS", "300"))
WEBHOOK_TIMEOUT_SECONDS = float(os.environ.get("WEBHOOK_TIMEOUT_SECONDS", "5"))
# Deliveries wait in the outbox, never sent in the request: with a broker the workers send them,
# without one a thread of each web process (WEBHOOK_SENDER_THREAD; 0: `manage.py send_webhooks
# --watch`); the beat or the thread look every WEBHOOK_SWEEP_SECONDS (docs/webhooks.md).
WEBHOOK_SWEEP_SECONDS = float(os.environ.get("WEBHOOK_SWEEP_SECONDS", "10"))
WEBHOOK_SENDER_THREAD = env_bool("WEBHOOK_SENDER_THREAD", True)
CELERY_BEAT_SCHEDULE["sweep-webhooks"] = {
    "task": "scoring.tasks.sweep_webhooks", "schedule": WEBHOOK_SWEEP_SECONDS,
}

# Check-in (tournaments.checkin): how long a printed check-in QR code stays valid, and how often
# the beat closes the windows past their end (each sends the webhook checkin.closed).
CHECKIN_QR_MAX_AGE_HOURS = env_int("CHECKIN_QR_MAX_AGE_HOURS", 48)
CELERY_BEAT_SCHEDULE["close-checkin-windows"] = {
    "task": "tournaments.checkin.close_windows", "schedule": 30.0,
}

# Online entries (tournaments.entries): how long a mailed link (address or partner
# confirmation, the entry's page) works, and how many sign-ups one address or client makes.
ENTRY_LINK_HOURS = float(os.environ.get("ENTRY_LINK_HOURS", "168"))
ENTRY_SIGNUP_RATE = os.environ.get("ENTRY_SIGNUP_RATE", "5/hour").strip()
CELERY_BEAT_SCHEDULE["sweep-entries"] = {
    "task": "tournaments.entries.sweep_expired_entries", "schedule": 300.0,
}
