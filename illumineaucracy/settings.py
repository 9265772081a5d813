"""Django settings for Illumineaucracy.

Every value comes from the environment (django-environ), so the same file serves a laptop, CI
and production. With nothing set you get a self-contained development setup: SQLite under
var/, a Celery broker made of plain files under var/celery/, mail printed to the console.
The variables a production deployment must set are listed in docs/operations.md ("Settings").
"""

import datetime as dt
import os
import secrets
from pathlib import Path

import environ
from django.contrib.messages import constants as messages
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent
# Runtime data of the zero-configuration setup (SQLite file, file broker); ignored by git.
VAR_DIR = BASE_DIR / "var"

env = environ.Env()

# Off unless asked for: forgetting to set DEBUG in production must not expose tracebacks.
# ./run sets DEBUG=true for local development.
DEBUG = env.bool("DEBUG", default=False)

# A fixed key is fine on a developer's machine, and only there. Without DEBUG and without a
# key, a random key for this process only: tools such as `manage.py engine` must run with
# no configuration at all (ENGINE.md), while a server started that way signs nothing that
# outlives it. `check --deploy` reports the missing key as an error (campaigns/checks.py).
SECRET_KEY_FROM_ENV = bool(env.str("SECRET_KEY", default=""))
if SECRET_KEY_FROM_ENV:
    SECRET_KEY = env.str("SECRET_KEY")
elif DEBUG:
    SECRET_KEY = "django-insecure-local-development-only"
else:
    SECRET_KEY = secrets.token_urlsafe(50)

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
# Where people reach the site: links in mail (sent by the Celery worker, with no request to
# take a host from) are built from it. Scheme and host, no trailing slash.
# Without SITE_URL, the address ./run serves (it exports PORT to the server and the worker).
SITE_URL = env.str("SITE_URL", default=f"http://127.0.0.1:{env.int('PORT', default=8000)}").rstrip(
    "/"
)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles so that runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "crispy_forms",
    "crispy_bootstrap5",
    "django_celery_beat",
    # Counts failed log-ins and locks a username + address out (see "Log-in throttling").
    "axes",
    "campaigns",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Right after SecurityMiddleware, as WhiteNoise asks: static files skip the rest.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language from the language cookie (the footer's switch) or Accept-Language;
    # PreferencesMiddleware below puts the profile's first.
    "django.middleware.locale.LocaleMiddleware",
    # Before anything reads the POST (the CSRF check, axes): a body in another charset than
    # UTF-8, or one that does not decode, and a NUL in the path get the 400 page.
    "campaigns.web.bad_requests.BadRequestMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The logged-in user's profile: their language and time zone for this request.
    "campaigns.accounts.web.preferences.PreferencesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Django's own Content-Security-Policy header, from SECURE_CSP below.
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # Last, as axes asks: it turns a locked-out log-in into the lock-out page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "illumineaucracy.urls"
WSGI_APPLICATION = "illumineaucracy.wsgi.application"

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
                "django.template.context_processors.i18n",
                # The viewer's time zone for times, and their unread press for the navbar.
                "campaigns.accounts.web.preferences.preferences",
            ],
        },
    },
]

# Django's form renderer, with selects written without a template per option (the order
# forms of a big board offer thousands of options): campaigns/web/form_renderer.py.
FORM_RENDERER = "campaigns.web.form_renderer.FormRenderer"

# --- Database -------------------------------------------------------------------------------
if env.str("DATABASE_URL", default=""):
    DATABASES = {"default": env.db("DATABASE_URL")}
    # A new PostgreSQL connection per request cost more than the request's own SQL. Keep each
    # process's connection for CONN_MAX_AGE seconds, and check it with a cheap query before
    # reusing it, so a database restart costs one failed check, not one failed request.
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=600)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    VAR_DIR.mkdir(exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
            "OPTIONS": {
                # The web server and the Celery worker write to this file at the same time.
                # WAL lets readers carry on during a write; IMMEDIATE takes the write lock
                # when a transaction starts, so two writers queue (up to the timeout)
                # instead of one failing with "database is locked" halfway through.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# axes first: it refuses a locked-out username + address before the password is checked.
# ProfileModelBackend reads a session's user with their profile (one query, not two);
# ModelBackend stays for the sessions opened before it came.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "illumineaucracy.profile_backend.ProfileModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- Log-in throttling ----------------------------------------------------------------------
# LOGIN_FAILURE_LIMIT wrong passwords for one username from one address lock that pair out
# for LOGIN_LOCKOUT_MINUTES (other users, and the same user elsewhere, carry on). The same
# two numbers limit password-reset requests per address (illumineaucracy/accounts.py).
LOGIN_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
LOGIN_LOCKOUT_MINUTES = env.int("LOGIN_LOCKOUT_MINUTES", default=15)
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = dt.timedelta(minutes=LOGIN_LOCKOUT_MINUTES)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "illumineaucracy.accounts.client_ip"
AXES_LOCKOUT_CALLABLE = "illumineaucracy.accounts.lockout_response"
# The password-reset throttle counts in the cache. A folder of files by default, so every
# process on this machine shares the counts; CACHE_URL (e.g. redis://...) for several hosts.
CACHES = {"default": env.cache_url("CACHE_URL", default=f"filecache://{VAR_DIR / 'cache'}")}
# Issue 28: whole pages per viewer (campaigns/web/page_cache.py). In Redis where CACHE_URL
# says so (shared by every worker); else each process's own memory: a folder of files would
# cost a page's worth of disk writes per miss. PAGE_CACHE=false switches it off.
PAGE_CACHE = env.bool("PAGE_CACHE", default=True)
CACHES["pages"] = (
    env.cache_url("CACHE_URL")
    if "CACHE_URL" in os.environ
    else {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "pages",
        "OPTIONS": {"MAX_ENTRIES": 5000},
    }
)
# What the cached pages were made by: RELEASE if set (e.g. the commit), else a digest of the
# code, templates and catalogues read once per process (page_cache.py).
RELEASE = env.str("RELEASE", default="")

# --- Time and language ----------------------------------------------------------------------
# Store and compute in UTC; each campaign converts its deadline from its own time zone (R30).
# Each user may choose a time zone and a language in their profile (accounts/web/preferences.py);
# without one the browser's zone (deadline.js) and language (Accept-Language) are used.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed file names so browsers may cache them forever (run collectstatic).
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"
# Bootstrap calls the error colour "danger"; the message tag becomes the alert class.
MESSAGE_TAGS = {messages.ERROR: "danger"}

# --- Mail -----------------------------------------------------------------------------------
# One variable carries backend, host and credentials, e.g. smtp+tls://user:pass@host:587
# (URL-encode special characters in the password).
EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Illumineaucracy <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Security (production) ------------------------------------------------------------------
# On whenever DEBUG is off, so that `check --deploy` passes with only the documented
# variables set. Each can be switched off, e.g. SECURE_SSL_REDIRECT=false for a plain-HTTP test.
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
# Start low: a mistake with HSTS locks browsers out for this many seconds. Raise it (to a year,
# 31536000) once HTTPS is known to work.
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 60)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
# Browsers' preload lists take a site only with a max-age of a year or more; sent with less,
# `preload` is a promise the site does not keep. So preload is on by default only with a
# year, and asking for it with less refuses to start rather than silently dropping it.
ONE_YEAR = 31536000
SECURE_HSTS_PRELOAD = env.bool(
    "SECURE_HSTS_PRELOAD", default=not DEBUG and SECURE_HSTS_SECONDS >= ONE_YEAR
)
if SECURE_HSTS_PRELOAD and SECURE_HSTS_SECONDS < ONE_YEAR:
    raise ImproperlyConfigured(
        f"SECURE_HSTS_PRELOAD needs SECURE_HSTS_SECONDS of at least {ONE_YEAR} (a year), "
        f"not {SECURE_HSTS_SECONDS}: raise it, or set SECURE_HSTS_PRELOAD=false"
    )
# Below a year preloading is impossible, so `check --deploy`'s advice to turn it on is noise.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_SECONDS >= ONE_YEAR else ["security.W021"]
# Content-Security-Policy: everything from this site only; no inline script or style and no
# eval (templates load campaigns/static/campaigns/*.js), no plugins, no framing.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    # Bootstrap's CSS draws its icons (navbar toggler, close button, select arrow) as
    # data: SVG images.
    "img-src": [CSP.SELF, "data:"],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
# Behind a proxy that ends TLS, Django sees plain HTTP; trust the proxy's header, or
# SECURE_SSL_REDIRECT would redirect forever.
if env.bool("SECURE_PROXY_SSL_HEADER", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- Celery ---------------------------------------------------------------------------------
# Read by illumineaucracy/celery.py through the CELERY_ namespace.
CELERY_TIMEZONE = "UTC"
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
# The queue this site's tasks go to and its workers take them from: several sites (or a
# benchmark) can share one Redis without taking each other's tasks.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="celery")
if CELERY_BROKER_URL:
    # Redis hands an unacknowledged message to another worker after this long. It must be
    # longer than any turn job runs, or a slow job would be started a second time.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 60 * 60}
else:
    # No broker server to install: messages are files under var/celery/, shared by every
    # process on this machine. Good for development and a single small host.
    # The host is ignored; naming one spares every process kombu's "No hostname" warning.
    CELERY_BROKER_URL = "filesystem://localhost/"
    CELERY_DIR = VAR_DIR / "celery"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # Producers and consumers share one folder: that is what makes it a queue.
        "data_folder_in": str(CELERY_DIR / "queue"),
        "data_folder_out": str(CELERY_DIR / "queue"),
        "control_folder": str(CELERY_DIR / "control"),
        # A worker takes a message by renaming it into this folder; on the same file system
        # the rename is atomic, so two workers never take the same message. The folder keeps
        # a copy of each message handled and may be emptied at any time.
        "store_processed": True,
        "processed_folder": str(CELERY_DIR / "processed"),
    }
    for folder in ("queue", "control", "processed"):
        (CELERY_DIR / folder).mkdir(parents=True, exist_ok=True)
# The turn job is idempotent (R31): running it twice does nothing the second time. So we ask
# for at-least-once delivery: acknowledge a message only after the task finished, hand it to
# another worker if ours dies, and take one message at a time so none waits behind a long job.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# When the broker connection drops, a running turn job finishes and commits; its lost
# acknowledgement only means the message comes back later and finds the turn done (Celery 6
# will cancel such jobs by default instead; pinned here, and tests/services/test_faults_beat.py
# restarts the broker mid-job).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Beat keeps its schedule in the database (editable in the admin) instead of a file in the
# working directory; the entries below are copied there when beat starts.
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_BEAT_SCHEDULE = {
    # A tick, not a timer per campaign: each tick processes every turn whose deadline passed,
    # so a missed tick (worker down) is caught up by the next one.
    "process-due-turns": {
        "task": "campaigns.tasks.process_due_turns",
        "schedule": 5 * 60,
    },
    # Reminders before the deadline; sent once per deadline whatever the number of ticks.
    "send-reminders": {
        "task": "campaigns.tasks.send_reminders",
        "schedule": 5 * 60,
    },
    # Unread press by mail, at most once an hour per user, whatever the number of ticks.
    "send-press-digests": {
        "task": "campaigns.tasks.send_press_digests",
        "schedule": 10 * 60,
    },
    # The page cache's campaign versions kept short (services/page_versions.py).
    "prune-campaign-changes": {
        "task": "campaigns.tasks.prune_campaign_changes",
        "schedule": 60 * 60,
    },
}

# Everything to standard error, where the process manager collects it. Django's own default
# prints its errors only when DEBUG; send them to the root handler instead, always and once.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "filters": {"one_line_403": {"()": "illumineaucracy.logs.PermissionDeniedInOneLine"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django": {"handlers": [], "level": "INFO"},
        # An ordinary 403 (a player on a GM page) is not an error: one line, no traceback.
        "django.request": {"filters": ["one_line_403"]},
        # axes announces itself at every start (a line on standard error of every tool, and
        # manage.py engine promises one line on bad input) and every log-in; lock-outs are
        # warnings and still logged.
        "axes": {"level": "WARNING"},
    },
}
