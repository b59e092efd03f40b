"""The site's foundations: the secret key, hosts and HTTPS, the applications, the database, Redis,
Celery, accounts, e-mail and the API (what the settings are as a whole: yukon_site/settings/__init__.py).
"""

import os
import secrets
import tempfile
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=True)


# --- Secret key ---------------------------------------------------------------------------


def secret_key_problem(key: str) -> str | None:
    """Why `key` is unfit for production (the same rules as Django's security.W009), or None."""
    if not key:
        return "it is not set"
    if key.startswith("django-insecure-"):
        return "it starts with 'django-insecure-'"
    if len(key) < 50:
        return "it is shorter than 50 characters"
    if len(set(key)) < 5:
        return "it has fewer than 5 different characters"
    return None


def _development_secret_key(path: Path) -> str:
    """Read the local key file, creating it once with a fresh random key."""
    try:
        key = path.read_text().strip()
        if key:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(50)
    try:
        with path.open("x") as handle:  # "x": never overwrite a key another process just wrote
            handle.write(key + "\n")
        path.chmod(0o600)
    except FileExistsError:
        return path.read_text().strip()
    return key


SECRET_KEY = env.str("SECRET_KEY", default="")
if DEBUG:
    SECRET_KEY = SECRET_KEY or _development_secret_key(
        Path(env.str("SECRET_KEY_FILE", default=str(BASE_DIR / ".secret_key")))
    )
elif problem := secret_key_problem(SECRET_KEY):
    raise ImproperlyConfigured(
        f"Production mode (DEBUG=0) needs a real SECRET_KEY, but {problem}. Generate one with: "
        "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )


# --- Hosts and HTTPS ------------------------------------------------------------------------

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# HTTPS=1 (the production default): redirect to HTTPS, send HSTS, mark cookies secure.
# Turn it off only where a proxy in front terminates TLS and does all of that itself.
HTTPS = env.bool("HTTPS", default=not DEBUG)
if HTTPS:
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = 365 * 24 * 3600
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
# Load balancers probe over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
if env.bool("BEHIND_TLS_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],  # Swagger UI's stylesheet draws its icons as data: URLs
        "connect-src": [SELF],
        "font-src": [SELF],
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}


# --- Applications -------------------------------------------------------------------------------

INSTALLED_APPS = [
    # Daphne's runserver serves the WebSockets of races too (make run); it must come first.
    "daphne",
    # Project apps next, so their templates override the libraries' ones.
    "accounts",
    "games",
    "leaderboard",
    "daily",
    "races",
    "fairplay",
    "frontend",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "csp",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "allauth",
    "allauth.account",
]

MIDDLEWARE = [
    # Pages and API answers compressed last (static files come compressed from whitenoise);
    # Django pads each with random bytes against BREACH.
    "django.middleware.gzip.GZipMiddleware",
    # Security headers first, so that every response carries them, static files included.
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "yukon_site.csp.CSPMiddleware",  # django-csp's, the policy built once (yukon_site/csp.py)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # An API URL over 2048 bytes is a JSON 414, before the boards' public reads below parse it.
    "yukon_site.url_limits.ApiUrlLengthMiddleware",
    # Under /api/, a database outage met by the middlewares below (the session) is a JSON 503,
    # and an unknown URL a JSON 404, with DEBUG on too (yukon_site/api_errors.py).
    "yukon_site.api_errors.ApiJsonMiddleware",
    # A board's public answer (a page, around a named player) is answered here, before the
    # session and everything after it (leaderboard/public_reads.py).
    "leaderboard.middleware.PublicBoardReadMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language of a page: the django_language cookie, else Accept-Language, else English.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The account's language: applied at sign-in, and where the browser has no language cookie.
    "accounts.middleware.AccountLanguageMiddleware",
    # The browser's device cookie, kept only as a hash (accounts/devices.py, docs/security.md).
    "accounts.devices.DeviceKeyMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "yukon_site.urls"
WSGI_APPLICATION = "yukon_site.wsgi.application"
ASGI_APPLICATION = "yukon_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]


# --- Database ---------------------------------------------------------------------------------

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers work while a request writes; IMMEDIATE avoids "database is locked"
    # when two transactions both try to upgrade from reading to writing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # Tests get a file database of their own process: with an in-memory one, the live
    # server's threads would share a single connection, and two requests at once collide.
    DATABASES["default"].setdefault("TEST", {}).setdefault(
        "NAME", str(Path(tempfile.gettempdir()) / f"yukon-test-{os.getpid()}.sqlite3")
    )
else:
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
    # Connections kept between requests and tasks (checked before reuse): opening one costs more
    # than most requests. A DATABASE_URL's ?conn_max_age=... wins.
    DATABASES["default"].setdefault("CONN_MAX_AGE", 600)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


# --- Redis: cache, Celery broker, ranking index ----------------------------------------------

REDIS_URL = env.str("REDIS_URL", default="") or None

if REDIS_URL:
    CACHES = {
        "default": {
            # Redis, or each process's memory while Redis does not answer (yukon_site/cache.py).
            "BACKEND": "yukon_site.cache.FailSoftRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "cache",
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Sessions stay in the database alone (Django's default engine). "cached_db" would save one query
# a request (~0.2 ms of a reveal's 4.5 ms of web CPU, measured), but with the fail-soft cache a sign-out
# while Redis does not answer deletes only one process's memory copy, and Redis would later serve the
# signed-out session again.


# --- Celery (read by yukon_site/celery.py from the CELERY_ names) ------------------------------

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL
# Without a broker, tasks run in-process when they are sent. Read here, from the
# environment: Celery reads it once when it configures itself.
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
if not CELERY_TASK_ALWAYS_EAGER and not REDIS_URL:
    raise ImproperlyConfigured("CELERY_TASK_ALWAYS_EAGER=0 needs a broker: set REDIS_URL.")
CELERY_TASK_EAGER_PROPAGATES = True
# A task is acknowledged when it has finished, and put back if its worker dies meanwhile.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes the database connection around every task unless this is set;
# games/tasks.py closes it only when it is broken or older than CONN_MAX_AGE, as requests do.
CELERY_DB_REUSE_MAX = 1000
# Tasks must never retry later than this: an unacknowledged message is redelivered after
# the visibility timeout, so a longer countdown would run the task twice.
TASK_RETRY_COUNTDOWN_MAX = 300
CELERY_VISIBILITY_TIMEOUT = env.int("CELERY_VISIBILITY_TIMEOUT", default=3600)
if CELERY_VISIBILITY_TIMEOUT <= TASK_RETRY_COUNTDOWN_MAX:
    raise ImproperlyConfigured(
        "CELERY_VISIBILITY_TIMEOUT must be longer than the longest retry countdown "
        f"(TASK_RETRY_COUNTDOWN_MAX, {TASK_RETRY_COUNTDOWN_MAX}s)."
    )
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT}
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # keep the JSON logging configured below
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_IMPORTS = ["yukon_site.tasks"]
# Periodic tasks run by `celery beat`: {"name": {"task": "...", "schedule": seconds}}.
CELERY_BEAT_SCHEDULE: dict = {}


# --- Accounts (django-allauth) ------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
# Sign-up asks for an optional display name; usernames follow the display-name rule.
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.DisplayNameSignupForm"
ACCOUNT_USERNAME_VALIDATORS = "accounts.models.username_validators"
# The site's adapter: a sign-in lockout says how long it lasts (accounts/lockout.py).
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# allauth's own login and sign-up rate limits stay on (its defaults), kept in the shared cache.
# A signed-in player's password (changing it; confirming a deletion: accounts/lockout.py) may be
# tried 5 times in 5 minutes, as a sign-in's login: never a loop over a stolen session.
ACCOUNT_RATE_LIMITS = {"change_password": "5/5m/user", "reauthenticate": "5/5m/user"}
# Device sightings (accounts/devices.py) not renewed for 90 days are forgotten once a day.
CELERY_BEAT_SCHEDULE["accounts-device-sightings-prune"] = {
    "task": "accounts.device_sightings_prune",
    "schedule": 24 * 3600,
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]


# --- E-mail -------------------------------------------------------------------------------------

vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Yukon Online <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL


# --- API ---------------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    # drf-spectacular's, adding the framework's refusals (403, 404, 429, …) to every operation.
    "DEFAULT_SCHEMA_CLASS": "yukon_site.api_schema.AutoSchema",
    # JSON only (a form body is 415), refusing deeply nested bodies (400, not 500).
    "DEFAULT_PARSER_CLASSES": ["yukon_site.api_input.BoundedJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # JSON errors: a database outage is 503 with Retry-After, a body over the limit 413.
    "EXCEPTION_HANDLER": "yukon_site.api_errors.api_exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Yukon Online API",
    "DESCRIPTION": "Yukon Solitaire: deals, verified wins and rankings.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Served from our own static files: no CDN, works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One name for the rule sets, however a serializer spells their choices.
    "ENUM_NAME_OVERRIDES": {"RulesEnum": "games.models.RulesChoice"},
}
