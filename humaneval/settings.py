"""The one settings module. Every deployment difference comes from the environment.

Embedded default (nothing to start): a SQLite file database and Celery in eager mode.
``DATABASE_URL`` switches to PostgreSQL; ``CELERY_BROKER_URL`` to a real broker (Redis)
with real worker processes.
"""

import os
import sys
from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from humaneval.startup import production_mark, secret_key_weakness

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
# Whether the process was started with DJANGO_DEBUG, before the checkout's `.env` adds it.
_DEBUG_FROM_ENVIRONMENT = "DJANGO_DEBUG" in os.environ
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

# A production process: gunicorn through humaneval.wsgi, `make serve` (web, Celery worker
# and beat under supervisord), `make deploy`, the systemd units. Each sets this; there
# DEBUG defaults to off and the secret key must be strong, whatever DEBUG is.
PRODUCTION_PROCESS = production_mark(os.environ.get("HUMANEVAL_PRODUCTION_PROCESS"))
if PRODUCTION_PROCESS and not _DEBUG_FROM_ENVIRONMENT and env.bool("DJANGO_DEBUG", False):
    # `.env` is a development convenience: it must not turn DEBUG pages on in a server.
    del os.environ["DJANGO_DEBUG"]
    sys.stderr.write(
        "humaneval: DJANGO_DEBUG=true in .env is ignored by a production process; set it in "
        "the process's own environment to serve DEBUG pages.\n"
    )
# On for manage.py and `make run` (http://127.0.0.1:8000), off in a production process.
DEBUG = env.bool("DJANGO_DEBUG", default=not PRODUCTION_PROCESS)
#: The development key: public (it is in this file), for manage.py and `make run` only.
DEVELOPMENT_SECRET_KEY = "insecure-dev-key-change-me-in-production-0123456789abcdef"
#: Keys this repository has published (the development key, and test keys its history
#: holds; tests now make theirs per run): a server refuses them, and them changed a little.
PUBLIC_SECRET_KEYS = (
    DEVELOPMENT_SECRET_KEY,
    "k3Yq8w-7Zp2s_Rr9vT1uXe4bN6mC0hJ5gLdAaFfQoWiEyUzKtPjVnHcBxSlMI-prod",
    "RgTqI-E-FU6dszQs4bLqKwrnhYviLkVtSbFOfT5_yB3qgKOMhDnNQbbH0SME2nkDnqU",
)
# Read as it is: django-environ would take a key that starts with "$" (about one in 50 of
# Django's get_random_secret_key()) for the name of another variable.
_GIVEN_SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if (PRODUCTION_PROCESS or not DEBUG) and (
    weakness := secret_key_weakness(_GIVEN_SECRET_KEY, public_keys=PUBLIC_SECRET_KEYS)
):
    raise ImproperlyConfigured(
        f"DJANGO_SECRET_KEY {weakness}. A server (DEBUG off, or a production process: "
        "gunicorn, make serve, make deploy, Celery under systemd) needs a real DJANGO_SECRET_KEY "
        "of 50 or more random characters, e.g. from "
        "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'."
    )
SECRET_KEY = _GIVEN_SECRET_KEY or DEVELOPMENT_SECRET_KEY
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

# HTTPS: with DJANGO_DEBUG=false every setting below defaults to the safe value
# (`manage.py check --deploy` is clean); each can be overridden from the environment.
# With DEBUG on (`make run` on http://127.0.0.1:8000) nothing changes: no redirect, no HSTS.
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=not DEBUG)
# Paths answered over plain HTTP too (regexes without the leading slash), e.g. a health check.
SECURE_REDIRECT_EXEMPT = env.list("DJANGO_SECURE_REDIRECT_EXEMPT", default=[])
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=True)
SESSION_COOKIE_SECURE = env.bool("DJANGO_SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("DJANGO_CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# Behind a proxy that terminates TLS (nginx, a load balancer), set DJANGO_BEHIND_PROXY=true:
# Django then trusts its X-Forwarded-Proto (is the request HTTPS?) and X-Forwarded-For (the
# client's address, for login throttling; HUMANEVAL_PROXY_COUNT proxies append to it). The
# proxy must set both headers itself; never enable this when clients reach gunicorn directly.
BEHIND_PROXY = env.bool("DJANGO_BEHIND_PROXY", default=False)
PROXY_COUNT = env.int("HUMANEVAL_PROXY_COUNT", default=1)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    # Django's form templates, found through TEMPLATES so that templates/django/forms/
    # can override them (FORM_RENDERER below).
    "django.forms",
    "template_partials",
    "django_htmx",
    "rest_framework",
    "rest_framework.authtoken",
    "axes",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "annotations",
    "ranking",
    "reports",
]

MIDDLEWARE = [
    # A WSGI server never serves with the development defaults (checked once, at start).
    "humaneval.startup.ServerGuard",
    "django.middleware.security.SecurityMiddleware",
    # HTML pages without bidirectional-override characters (a name cannot reorder a page).
    "common.middleware.DropBidiControlsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A cookie holding a NUL is dropped before the session middleware reads it.
    "common.middleware.RefusedCookiesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Authenticated responses (pages, exports, API) are never stored by any cache.
    "common.middleware.PrivateNoStoreMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Bodies over their limit (413), NUL in a path, query or form field (400): before any
    # view or CSRF check reads the body; inside the CSP and framing middleware, so that
    # its error pages carry their headers.
    "common.middleware.RequestBoundsMiddleware",
    # Without a broker, starts the web process's embedded beat once, then steps aside.
    "common.middleware.EmbeddedBeatMiddleware",
    # Last, as django-axes asks: turns a locked-out sign-in into a 429.
    "axes.middleware.AxesMiddleware",
]

# Sign-in throttling (django-axes): the AXES_FAILURE_LIMIT-th wrong password in a row from one
# client address is a 429 until AXES_COOLOFF_TIME has passed without another attempt. A
# right password does not reset the count: the count is per address, so one account's
# sign-in would otherwise wipe the failures an attacker piled up against another
# (AXES_RESET_ON_SUCCESS; failures expire with the cool-off instead). Counts live in the database (axes'
# database handler): shared by every gunicorn worker and host, kept across restarts, and
# listed in the admin (Axes > Access attempts; `manage.py axes_reset` unlocks everyone).
AUTHENTICATION_BACKENDS = [
    "common.auth.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_ENABLED = env.bool("HUMANEVAL_LOGIN_THROTTLE", default=True)
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = env.int("HUMANEVAL_LOGIN_FAILURE_LIMIT", default=30)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("HUMANEVAL_LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = ["ip_address"]
AXES_RESET_ON_SUCCESS = False
AXES_CLIENT_IP_CALLABLE = "common.auth.client_ip_address"
AXES_LOCKOUT_CALLABLE = "common.auth.login_lockout_response"
AXES_ENABLE_ADMIN = True

# The cache (shared by gunicorn workers when it is Redis): CACHE_URL=redis://host:6379/1;
# a per-process memory cache otherwise.
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}

ROOT_URLCONF = "humaneval.urls"
WSGI_APPLICATION = "humaneval.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

# Forms render through TEMPLATES, so templates/django/forms/ overrides Django's own form
# templates: ours print a field's help_text escaped (Django's mark every help_text safe, and
# some carry campaign data, e.g. the slice field lists item attribute values). A help_text a
# developer marked safe (the password rules' list) still renders as HTML.
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Persistent connections (a new one per request cost more than a worker's whole fetch),
# checked before reuse so a restarted database costs one failed query, not an error.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DJANGO_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# The worker's hot queries (common.queries) run as server-side prepared statements on
# PostgreSQL: parsed and planned once per connection. Turn off behind a pooler that
# hands one client's transactions to several server sessions (PgBouncer's transaction
# mode), where a statement prepared on one session is unknown to the next.
HUMANEVAL_PG_SERVER_PREPARE = env.bool("HUMANEVAL_PG_SERVER_PREPARE", default=True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several threads (runserver, eager Celery) share the file: wait for locks, do not fail.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's standard validators: every form that sets a password (sign-up from an
# invitation, password change and reset, the admin) refuses a short, common, all-digit
# password or one like the account's username or email.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a check: revokes the user's API token whenever the password changes.
    {"NAME": "annotations.services.tokens.PasswordChangeRevokesToken"},
]
# Password-reset mails (annotations.views.accounts): at most this many requests per
# address and per client address in PASSWORD_RESET_WINDOW seconds, counted in the cache
# (set CACHE_URL to Redis so that every gunicorn worker shares the counts).
PASSWORD_RESET_MAX_PER_ADDRESS = env.int("HUMANEVAL_PASSWORD_RESET_PER_ADDRESS", default=3)
PASSWORD_RESET_MAX_PER_CLIENT = env.int("HUMANEVAL_PASSWORD_RESET_PER_CLIENT", default=10)
PASSWORD_RESET_WINDOW = env.int("HUMANEVAL_PASSWORD_RESET_WINDOW_SECONDS", default=3600)
# New workers' consents (each takes a task place for the assignment timeout): at most this
# many per client address in WORKER_SIGNUPS_WINDOW seconds, so that one connection cannot
# sign up made-up participants until every place is held (0: no limit; a lab whose
# participants share one address may raise it). Counted in the cache, as above.
WORKER_SIGNUPS_PER_CLIENT = env.int("HUMANEVAL_WORKER_SIGNUPS_PER_CLIENT", default=30)
WORKER_SIGNUPS_WINDOW = env.int("HUMANEVAL_WORKER_SIGNUPS_WINDOW_SECONDS", default=600)

LANGUAGE_CODE = "en"
# The worker interface's languages (gettext catalogs in locale/, compiled by `make
# install`); a worker's comes from the campaign, the link (?lang=) or the browser
# (annotations.core.languages). The designer interface is English.
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("fr", "Français"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.path("DJANGO_STATIC_ROOT", default=BASE_DIR / "staticfiles")
# Files served at the site's root by WhiteNoise (the favicon browsers ask for at /favicon.ico).
WHITENOISE_ROOT = BASE_DIR / "public"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "common.staticfiles.CachedURLManifestStorage"
        )
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Email (invitations, password resets): printed on the console unless configured, e.g.
# EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend EMAIL_HOST=smtp.example.org.
EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="humaneval <noreply@localhost>")
# An invitation link works once, for this many days.
INVITATION_MAX_AGE_DAYS = env.int("HUMANEVAL_INVITATION_DAYS", default=7)
# Invitation mails an hour: per inviter, and per invited address (across campaigns).
INVITATIONS_PER_HOUR = env.int("HUMANEVAL_INVITATIONS_PER_HOUR", default=20)
INVITATIONS_PER_ADDRESS = env.int("HUMANEVAL_INVITATIONS_PER_ADDRESS", default=3)

# Celery: eager (in-process) unless a broker is configured.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not CELERY_BROKER_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or None
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task whose worker process dies (SIGKILL, out of memory) goes back to the queue
# instead of being acknowledged as done; ranking runs count their attempts.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Ranking runs always end: soft/hard time limits per run, a heartbeat the sweep checks.
RANKING_SOFT_TIME_LIMIT = env.int("HUMANEVAL_RANKING_SOFT_TIME_LIMIT", default=3600)
RANKING_TIME_LIMIT = RANKING_SOFT_TIME_LIMIT + 120
RANKING_STALE_AFTER = env.int("HUMANEVAL_RANKING_STALE_AFTER", default=600)
RANKING_PENDING_TIMEOUT = env.int("HUMANEVAL_RANKING_PENDING_TIMEOUT", default=6 * 3600)
# A chunk of a ranking run beats its heartbeat about once a second while it computes: one
# silent for RANKING_LOST_AFTER seconds lost its worker (SIGKILL, out of memory, the
# database dropped it) and the sweep (every minute) hands it to Celery again. A chunk
# still queued RANKING_QUEUED_AFTER seconds after it was sent (its message was held
# by a worker that died) is sent again, later each time (n x the delay for the n-th); a
# duplicate message never takes over a chunk that is computing.
RANKING_LOST_AFTER = env.int("HUMANEVAL_RANKING_LOST_AFTER", default=120)
RANKING_QUEUED_AFTER = env.int("HUMANEVAL_RANKING_QUEUED_AFTER", default=180)
RANKING_MAX_ATTEMPTS = 3
# The Celery worker processes a chunked ranking run is fanned out to (all machines): its
# chunks go out in about 3 tasks per worker (ranking.stats.chunk_groups), each computing
# its chunks side by side. Only the number of messages depends on it, never the numbers.
# Read as at least 1 where runs are planned (ranking.services.compute).
RANKING_WORKERS = env.int("HUMANEVAL_RANKING_WORKERS", default=os.cpu_count() or 1)
RANKING_BEAT_EVERY = 1.0  # a computing chunk writes its heartbeat at most this often
RANKING_MAX_RUNS = 100_000
RANKING_MAX_ACTIVE_RUNS_PER_USER = env.int("HUMANEVAL_RANKING_MAX_ACTIVE_RUNS", default=3)
RANKING_BATCH_RUNS = 2_000
RANKING_MAX_RUN_VALUES = 5_000_000  # runs x systems kept in memory (16 bytes each)
RANKING_MIN_COMPARISONS = 30  # per system, before clusters and stability are shown
# The correlation report's page bootstraps its intervals with this many resamples (the CLI
# and the API take more when asked): the page answers while a person waits.
REPORTS_PAGE_RESAMPLES = env.int("HUMANEVAL_REPORTS_PAGE_RESAMPLES", default=200)
# Redis redelivers a message unacknowledged this long (a worker lost with its host);
# longer than the hard time limit, so that a running task is rarely delivered twice (a
# copy of a chunk's message is skipped while the chunk beats). Lost chunks do not wait
# for it: the sweep hands them out after RANKING_LOST_AFTER / _QUEUED_AFTER.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int(
        "HUMANEVAL_CELERY_VISIBILITY_TIMEOUT", default=RANKING_TIME_LIMIT + 600
    )
}
# The queue tasks go to when none is named (one broker shared by several installations,
# or a test's own worker and beat).
CELERY_TASK_DEFAULT_QUEUE = env.str("HUMANEVAL_CELERY_QUEUE", default="celery")
# celery beat (or, without a broker, the embedded beat: EMBEDDED_BEAT) runs the sweeps of
# lost ranking chunks and import jobs this often (seconds).
SWEEP_EVERY = env.float("HUMANEVAL_SWEEP_EVERY", default=60.0)
CELERY_BEAT_SCHEDULE = {
    "ranking-sweep-runs": {"task": "ranking.sweep_runs", "schedule": SWEEP_EVERY},
    "annotations-sweep-import-jobs": {
        "task": "annotations.sweep_import_jobs",
        "schedule": SWEEP_EVERY,
    },
    # Adaptive campaigns: a batch of tasks for each criterion whose tasks run low.
    "ranking-adaptive-step": {"task": "ranking.adaptive_step", "schedule": 60.0},
}
# Background jobs (common.jobs: ranking runs, import and build jobs): without a broker they
# run in a background thread of the web process so that their page can show progress
# (tests switch this off to run them synchronously). Each kind's sweep and heartbeat
# settings are named <KIND>_STALE_AFTER, _PENDING_TIMEOUT, _LOST_AFTER, _QUEUED_AFTER,
# _MAX_ATTEMPTS and _BEAT_EVERY (RANKING_..., IMPORT_JOB_...).
JOBS_IN_THREAD = env.bool("HUMANEVAL_JOBS_IN_THREAD", default=not CELERY_BROKER_URL)
# ... and without a broker there is no celery beat: the web process runs CELERY_BEAT_SCHEDULE
# itself, in one thread (common.jobs.beat_start), when jobs run in threads and this is on.
EMBEDDED_BEAT = env.bool("HUMANEVAL_EMBEDDED_BEAT", default=True)
# Uploads: ONE limit for every upload path (outputs, ratings, mapped and WMT imports, metric
# scores; web pages and API), HUMANEVAL_UPLOAD_MAX_MB for all files of a request together,
# enforced while the body streams (common.uploads.LimitedUploadHandler stops reading past
# it; common.middleware refuses a larger Content-Length before reading): a 413 that says
# the limit. Other bodies (JSON, form fields) are limited to DATA_UPLOAD_MAX_MEMORY_SIZE
# (2.5 MB), a 413 too. Uploads above IMPORT_INLINE_MAX_BYTES (all files together) import
# as a background job (ImportJob, a Celery task) whose page shows its progress, smaller
# ones during the request. Without a broker, jobs run in a thread of the web process, as
# ranking runs do. Uploads above 2.5 MB are spooled to a temporary file, at most 200 files
# per request.
IMPORT_UPLOAD_MAX_BYTES = env.int("HUMANEVAL_UPLOAD_MAX_MB", default=50) * 1024 * 1024
IMPORT_INLINE_MAX_BYTES = env.int("HUMANEVAL_IMPORT_INLINE_MAX_KB", default=1024) * 1024
# The currency the plan's pay and costs and the payments' bonuses are in: the platform's
# (a Prolific study pays in GBP by default, MTurk in USD). Shown beside every amount.
PAYMENT_CURRENCY = env.str("HUMANEVAL_PAYMENT_CURRENCY", default="GBP")
# "Build tasks" on the pages runs as a background job (the import jobs' mechanism, with
# its progress page) when building would make more than this many tasks.
BUILD_INLINE_MAX_TASKS = env.int("HUMANEVAL_BUILD_INLINE_MAX_TASKS", default=2000)
# Import jobs whose worker was lost are handed out again or failed by a sweep (beat,
# manage.py sweep_import_jobs): failed when running for longer than IMPORT_JOB_STALE_AFTER
# or never picked up within IMPORT_JOB_PENDING_TIMEOUT.
IMPORT_JOB_STALE_AFTER = env.int("HUMANEVAL_IMPORT_JOB_STALE_AFTER", default=3600)
IMPORT_JOB_PENDING_TIMEOUT = env.int("HUMANEVAL_IMPORT_JOB_PENDING_TIMEOUT", default=6 * 3600)
# On PostgreSQL a running job beats a heartbeat every IMPORT_JOB_BEAT_EVERY seconds (from a
# thread of its own); one silent for IMPORT_JOB_LOST_AFTER seconds lost its process and the
# sweep hands it out again (nothing of it was written), IMPORT_JOB_MAX_ATTEMPTS starts at
# most. A job still queued IMPORT_JOB_QUEUED_AFTER seconds after it was sent is sent again
# (its message was held by a worker that died); a duplicate message imports nothing twice.
IMPORT_JOB_BEAT_EVERY = env.float("HUMANEVAL_IMPORT_JOB_BEAT_EVERY", default=5.0)
IMPORT_JOB_LOST_AFTER = env.int("HUMANEVAL_IMPORT_JOB_LOST_AFTER", default=60)
IMPORT_JOB_QUEUED_AFTER = env.int("HUMANEVAL_IMPORT_JOB_QUEUED_AFTER", default=180)
IMPORT_JOB_MAX_ATTEMPTS = 3
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_NUMBER_FILES = 200
FILE_UPLOAD_HANDLERS = [
    "common.uploads.LimitedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # DRF's parsers, bounded: body size, JSON depth, NUL (common.parsers).
    "DEFAULT_PARSER_CLASSES": [
        "common.parsers.JSONParser",
        "common.parsers.FormParser",
        "common.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    # The one error shape on every operation (common.api.ApiSchema).
    "DEFAULT_SCHEMA_CLASS": "common.api.ApiSchema",
    "EXCEPTION_HANDLER": "common.api.exception_handler",
    # ?format= naming no renderer is a 400 naming the parameter, not a bare 404.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "common.negotiation.FormatNegotiation",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "humaneval API",
    "DESCRIPTION": "Human evaluation of NLG: campaigns, tasks, judgements and rankings.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI served from the vendored sidecar package: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Worker-facing signed cookie for anonymous link workers.
WORKER_COOKIE_MAX_AGE = 60 * 60 * 24 * 30

# Framing and Content-Security-Policy. Worker pages (/w/...) may be shown in an iframe by
# these origins only (MTurk's ExternalQuestion: the live site and the sandbox); every
# other page refuses framing (X-Frame-Options DENY and frame-ancestors 'none').
WORKER_FRAME_ANCESTORS = env.list(
    "HUMANEVAL_FRAME_ANCESTORS",
    default=["https://www.mturk.com", "https://workersandbox.mturk.com"],
)
X_FRAME_OPTIONS = "DENY"
# No inline script anywhere (scripts are static files); inline style attributes only
# (progress bars), never <style> elements; forms post to this site or to MTurk's
# externalSubmit (the completion form of MTurk workers).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-elem": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'", "https://www.mturk.com", "https://workersandbox.mturk.com"],
        "frame-ancestors": ["'none'"],
    }
}

# Where the released E2E data lives (tests and benchmarks skip when it is absent).
E2E_DATA_DIR = env.path("HUMANEVAL_E2E_DIR", default=BASE_DIR.parent / "shared" / "e2e")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}
