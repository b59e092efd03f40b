"""Settings for Yukon Online: one module, configured by environment variables.

Every variable is documented in docs/operations.md. Without any of them this is the
embedded development setup: SQLite in the project folder, Celery tasks run eagerly
in-process, a local-memory cache and e-mail printed to the console. `DEBUG=0` is
production mode, which refuses to start with an unsafe secret key.
"""

import os
import secrets
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import environ
from csp.constants import NONE, SELF
from django.conf.locale import LANG_INFO
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

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
    # A database outage met by the middlewares below (the session) is a JSON 503 under /api/.
    "yukon_site.api_errors.ApiDatabaseOutageMiddleware",
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
# allauth's own login and sign-up rate limits stay on (its defaults), kept in the shared cache.
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


# --- Ranked games and submissions (games/) --------------------------------------------------------

# Per-user limits of the API (DRF rate strings: "60/min"); raise them for benchmarks.
GAMES_THROTTLE_RATES = {
    "game_issue": env.str("THROTTLE_GAME_ISSUE", default="30/min"),
    "submission_create": env.str("THROTTLE_SUBMISSION_CREATE", default="120/min"),
    "game_reveal": env.str("THROTTLE_GAME_REVEAL", default="120/min"),  # POST /api/games/<id>/reveals/
    "hint": env.str("THROTTLE_HINT", default="6/min"),
    "hint_read": env.str("THROTTLE_HINT_READ", default="120/min"),  # GET /api/hint/<ticket>/
    "winnable_deals": env.str("THROTTLE_WINNABLE_DEALS", default="30/min"),  # per player, else per address
}
GAMES_MAX_UNPLAYED = 20  # issued games a player may hold unplayed
GAMES_EXPIRE_AFTER_DAYS = 14  # an issued game untouched this long is expired
SUBMISSION_MAX_TOKENS = 5000
SUBMISSION_MAX_LOG_BYTES = 64 * 1024
SUBMISSION_CLOCK_SKEW_MS = 120_000  # tolerance for the page's clock on finished_at
# Timing checks of the verification (milliseconds); tests and benchmarks may lower them.
SUBMISSION_MIN_MOVE_MS = env.int("SUBMISSION_MIN_MOVE_MS", default=40)
SUBMISSION_MIN_AVERAGE_MOVE_MS = env.int("SUBMISSION_MIN_AVERAGE_MOVE_MS", default=150)
# A hidden-card game's page time between two reveals may exceed the server's time between them
# by at most this (network delays; docs/security.md, "The reveal clock").
REVEAL_CLOCK_TOLERANCE_MS = env.int("REVEAL_CLOCK_TOLERANCE_MS", default=2000)
SUBMISSION_SWEEP_AFTER_SECONDS = env.int("SUBMISSION_SWEEP_AFTER_SECONDS", default=120)
# A verification task settles pending submissions this many in one transaction, and at most
# this many batches before it hands over to a new task.
SUBMISSION_VERIFY_BATCH = env.int("SUBMISSION_VERIFY_BATCH", default=50)
SUBMISSION_VERIFY_DRAIN_BATCHES = env.int("SUBMISSION_VERIFY_DRAIN_BATCHES", default=20)
CELERY_BEAT_SCHEDULE.update(
    {
        "games-submissions-sweep": {
            "task": "games.submissions_sweep",
            "schedule": env.int("SUBMISSION_SWEEP_INTERVAL_SECONDS", default=60),
        },
        "games-expire": {"task": "games.games_expire", "schedule": 3600},
    }
)


# --- Races (docs/races.md): WebSockets through Channels ------------------------------------------

ASGI_APPLICATION = "yukon_site.asgi.application"
# The room's state lives in the database; the layer only carries messages between processes:
# Redis on the full stack (any number of ASGI processes serve one race), memory under make run.
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": "ws"},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Where pages open their WebSocket: "" is their own origin (make run); the full stack serves /ws/
# from its own ASGI process, e.g. "http://127.0.0.1:8001" (ASGI_PORT).
WEBSOCKET_ORIGIN = env.str("WEBSOCKET_ORIGIN", default="").rstrip("/")
if WEBSOCKET_ORIGIN:  # the pages may open sockets there ('self' covers their own origin)
    CONTENT_SECURITY_POLICY["DIRECTIVES"]["connect-src"].append(
        WEBSOCKET_ORIGIN.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
    )


def websocket_origin_problem(origin: str) -> str | None:
    """Why `origin` is no entry of WEBSOCKET_ALLOWED_ORIGINS (`*` aside), or None."""
    parts = urlsplit(origin)
    try:
        parts.port  # noqa: B018 (urlsplit reads the port only when asked)
    except ValueError:
        return "its port is not a number"
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query:
        return "it is not an origin scheme://host[:port] (http or https, no path)"
    return None


# The origins of the pages that may open these sockets, `scheme://host[:port]` as Channels'
# OriginValidator compares them (yukon_site/websocket_origins.py); a socket's own origin is taken
# too. Unset: CSRF_TRUSTED_ORIGINS, and each of ALLOWED_HOSTS at its scheme's default port (a proxy
# in front) and at PORT, where gunicorn or runserver serve the pages (make run and make stack: 8000).
WEBSOCKET_ALLOWED_ORIGINS = [
    origin.rstrip("/") for origin in env.list("WEBSOCKET_ALLOWED_ORIGINS", default=[]) if origin.strip()
] or [
    *(origin.replace("://*.", "://.", 1) for origin in CSRF_TRUSTED_ORIGINS),  # Channels' wildcard
    *(
        f"{'https' if HTTPS else 'http'}://{host}{port}"
        for host in ALLOWED_HOSTS
        if host != "*"
        for port in ("", f":{env.int('PORT', default=8000)}")
    ),
]
for _origin in WEBSOCKET_ALLOWED_ORIGINS:
    if _origin == "*" and not DEBUG:
        raise ImproperlyConfigured(
            'Production mode (DEBUG=0) refuses WEBSOCKET_ALLOWED_ORIGINS="*": a page of any site could '
            "open a player's race sockets. Name the origins the pages are served from."
        )
    if _origin != "*" and (problem := websocket_origin_problem(_origin)):
        raise ImproperlyConfigured(f"WEBSOCKET_ALLOWED_ORIGINS: {_origin!r} is refused: {problem}.")

RACE_COUNTDOWN_SECONDS = env.int("RACE_COUNTDOWN_SECONDS", default=5)
# A seated player away (no message, no ping) longer than this, once the race has started, is out.
RACE_GRACE_SECONDS = env.int("RACE_GRACE_SECONDS", default=60)
RACE_MAX_TIME_LIMIT_MINUTES = 60
# A challenge's second player has this long from its creation to play the same deal.
RACE_CHALLENGE_HOURS = env.int("RACE_CHALLENGE_HOURS", default=48)
CELERY_BEAT_SCHEDULE["races-tick"] = {"task": "races.races_tick", "schedule": 10}


# --- The solver in the product (games/solving/): winnable deals, par, hints, the daily deal's filter ---

# Solver work runs on queues of its own, never delaying verification: `celery -A yukon_site worker
# -Q solver -c 1` (pool, par) and `celery -A yukon_site worker -Q hints -c 1` (hints).
SOLVER_QUEUE = "solver"
HINT_QUEUE = "hints"
CENSUS_QUEUE = "census"  # a census's deals (manage.py census), for workers started for it alone
CELERY_TASK_ROUTES = {
    "games.deal_pool_refill": {"queue": SOLVER_QUEUE},
    "games.deal_par_solve": {"queue": SOLVER_QUEUE},
    "games.hint_search": {"queue": HINT_QUEUE},
    "games.census_deal_settle": {"queue": CENSUS_QUEUE},
}
# A worker of the solver's queues alone runs at this niceness (yukon_site/celery.py): 19, the
# lowest priority, lets searches use only the CPU that intake and verification leave; 0 keeps it.
SOLVER_WORKER_NICENESS = env.int("SOLVER_WORKER_NICENESS", default=19)
SOLVER_TASK_SOFT_TIME_LIMIT = env.int("SOLVER_TASK_SOFT_TIME_LIMIT", default=300)  # seconds, per task
SOLVER_TASK_TIME_LIMIT = SOLVER_TASK_SOFT_TIME_LIMIT + 30  # then the worker kills the task's process
SOLVER_MAX_NODES = env.int("SOLVER_MAX_NODES", default=1_000_000)  # positions held; ~300 bytes each
# The pool of winnable deals for unranked play, per rule set; beat refills it in bounded runs.
# Off by default in eager mode: there is no beat, and a run would block the process sending it.
SOLVER_POOL_REFILL = env.bool("SOLVER_POOL_REFILL", default=not CELERY_TASK_ALWAYS_EAGER)
SOLVER_POOL_SIZE = env.int("SOLVER_POOL_SIZE", default=200)  # winnable deals wanted per rule set
SOLVER_POOL_BATCH = env.int("SOLVER_POOL_BATCH", default=20)  # deals solved per rule set and run, at most
SOLVER_POOL_TIME_LIMIT = env.float("SOLVER_POOL_TIME_LIMIT", default=5.0)  # seconds per deal
SOLVER_POOL_RUN_SECONDS = env.float("SOLVER_POOL_RUN_SECONDS", default=120.0)  # a run starts no deal after
# Eager mode has no beat to refill the pool: a request for winnable deals searches a few new deals
# first, within about this many seconds (half to start deals, half for the last one); 0: never.
SOLVER_POOL_REQUEST_SECONDS = env.float(
    "SOLVER_POOL_REQUEST_SECONDS", default=1.0 if CELERY_TASK_ALWAYS_EAGER else 0.0
)
# Par: after a deal's first counted win, a search for its shortest win (off in eager mode, where
# it would run in the request that submitted the win; `manage.py solve_deals --par` does it).
SOLVER_PAR_AFTER_WIN = env.bool("SOLVER_PAR_AFTER_WIN", default=not CELERY_TASK_ALWAYS_EAGER)
SOLVER_PAR_TIME_LIMIT = env.float("SOLVER_PAR_TIME_LIMIT", default=10.0)
# The daily deal's filter solves a candidate it has no answer for with this limit. In eager mode
# the first request of a day does it (median 0.05 s; an undecided candidate costs the limit).
SOLVER_DAILY_TIME_LIMIT = env.float(
    "SOLVER_DAILY_TIME_LIMIT", default=2.0 if CELERY_TASK_ALWAYS_EAGER else 5.0
)
# A hint's search (games/solving/hints.py): on the hints queue, or in the web process in eager mode (one
# at a time per process). A search not started within SOLVER_HINT_QUEUE_SECONDS is dropped.
SOLVER_HINT_TIME_LIMIT = env.float("SOLVER_HINT_TIME_LIMIT", default=2.0)
SOLVER_HINT_MAX_NODES = env.int("SOLVER_HINT_MAX_NODES", default=200_000)
SOLVER_HINT_QUEUE_SECONDS = env.int("SOLVER_HINT_QUEUE_SECONDS", default=20)
# The solver queue's searches (pool, par) give way to intake and verification (games/solving/yielding.py):
# they wait while a result has waited on verification over SOLVER_YIELD_BACKLOG_SECONDS, or while
# the rest of the machine keeps more than SOLVER_YIELD_BUSY_SHARE of its cores busy; a task that
# has waited SOLVER_YIELD_MAX_SECONDS in all is given up (asked again later). 0 / off: never wait.
SOLVER_YIELD = env.bool("SOLVER_YIELD", default=True)
SOLVER_YIELD_BACKLOG_SECONDS = env.float("SOLVER_YIELD_BACKLOG_SECONDS", default=2.0)
SOLVER_YIELD_BUSY_SHARE = env.float("SOLVER_YIELD_BUSY_SHARE", default=0.4)
SOLVER_YIELD_MAX_SECONDS = env.float("SOLVER_YIELD_MAX_SECONDS", default=120.0)
# A refill run may start one deal just before each rule set's share of the run ends; waits come on top.
_solver_longest = SOLVER_YIELD_MAX_SECONDS + max(
    SOLVER_POOL_RUN_SECONDS + 2.4 * SOLVER_POOL_TIME_LIMIT, 1.2 * SOLVER_PAR_TIME_LIMIT
)
if SOLVER_TASK_SOFT_TIME_LIMIT <= _solver_longest:
    raise ImproperlyConfigured(
        f"SOLVER_TASK_SOFT_TIME_LIMIT ({SOLVER_TASK_SOFT_TIME_LIMIT}s) must exceed the longest solver run "
        f"({_solver_longest:.0f}s: SOLVER_YIELD_MAX_SECONDS, and SOLVER_POOL_RUN_SECONDS and two deals or "
        "SOLVER_PAR_TIME_LIMIT)."
    )
if CELERY_VISIBILITY_TIMEOUT <= SOLVER_TASK_TIME_LIMIT:
    raise ImproperlyConfigured(
        f"CELERY_VISIBILITY_TIMEOUT must be longer than a solver task may run ({SOLVER_TASK_TIME_LIMIT}s)."
    )
CELERY_BEAT_SCHEDULE.update(
    {
        "games-deal-pool-refill": {
            "task": "games.deal_pool_refill",
            "schedule": env.int("SOLVER_POOL_REFILL_INTERVAL_SECONDS", default=300),
        },
    }
)


# --- Leaderboards (leaderboard/) ------------------------------------------------------------------

LEADERBOARD_PAGE_SIZE = 50  # default page size of the boards (a request may ask for up to 100)
# Seconds a rendered board page is kept in each web process; 0 switches it off.
LEADERBOARD_HOT_PAGE_SECONDS = env.float("LEADERBOARD_HOT_PAGE_SECONDS", default=1.0)
# The daily deal (daily/): only deals the solver wins (games.solving.solved.deal_is_winnable); off:
# any whole shuffle. With a broker, beat picks them ahead; in eager mode the first request of a
# day picks them (SOLVER_DAILY_TIME_LIMIT bounds each search).
DAILY_DEAL_WINNABLE_ONLY = env.bool("DAILY_DEAL_WINNABLE_ONLY", default=True)
LEADERBOARD_REDIS_PREFIX = env.str("LEADERBOARD_REDIS_PREFIX", default="lb")  # keys lb:classic:all, …
# A season's final standing is kept this long after its month ends (results received before the
# end have been verified by then); a result verified later does not change it.
LEADERBOARD_SEASON_SETTLE_SECONDS = env.int("LEADERBOARD_SEASON_SETTLE_SECONDS", default=3600)
# The boards' Redis index, apart from the broker (Celery's Redis transport cannot use a cluster);
# unset: REDIS_URL, looked up when the index connects (leaderboard.index.wiring.index_redis_url).
LEADERBOARD_REDIS_URL = env.str("LEADERBOARD_REDIS_URL", default="") or None
# The index's kind: "sorted_set" (one sorted set a board) or "histogram" (boards split by score,
# which a Redis Cluster needs; a redis+cluster:// LEADERBOARD_REDIS_URL uses it whatever this says).
LEADERBOARD_INDEX = env.str("LEADERBOARD_INDEX", default="sorted_set")
if LEADERBOARD_INDEX not in ("sorted_set", "histogram"):
    raise ImproperlyConfigured(f'LEADERBOARD_INDEX is "sorted_set" or "histogram": not {LEADERBOARD_INDEX!r}')
CELERY_BEAT_SCHEDULE.update(
    {
        "leaderboard-daily-deals": {"task": "leaderboard.daily_deals_pick", "schedule": 3600},
        "leaderboard-boards-repair": {"task": "leaderboard.boards_repair", "schedule": 60},
        "leaderboard-seasons-snapshot": {"task": "leaderboard.seasons_snapshot", "schedule": 600},
    }
)


# --- Static files -------------------------------------------------------------------------------

STATIC_URL = "/static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Production serves hashed, compressed copies made by `collectstatic`.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG


# --- Internationalisation -----------------------------------------------------------------------

LANGUAGE_CODE = "en"
# Each language has a page catalog (locale/<code>/LC_MESSAGES/django.po, compiled to .mo) and
# a table catalog (frontend/static/frontend/js/i18n/<code>.json); docs/help.md.
LANGUAGES = [
    ("en", "English"),
    ("ms", "Bahasa Melayu"),
    ("hi", "हिन्दी"),
    ("tl", "Tagalog"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The choice made with the language picker, kept for a year (the page writes the same cookie).
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
# Django has no entry for Tagalog; browsers set to Filipino ask for "fil".
LANG_INFO.update(
    {
        "tl": {"bidi": False, "code": "tl", "name": "Tagalog", "name_local": "Tagalog"},
        "fil": {"fallback": ["tl"]},
    }
)
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
CELERY_TIMEZONE = TIME_ZONE


# --- Logging: JSON lines on standard output ------------------------------------------------------

LOG_LEVEL = env.str("LOG_LEVEL", default="INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "yukon_site.jsonlog.JsonLineFormatter"}},
    "handlers": {
        "stdout": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "json"}
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        # Replace Django's own handlers, so that its messages are JSON lines too.
        "django": {"handlers": ["stdout"], "level": LOG_LEVEL, "propagate": False},
        "django.server": {"handlers": ["stdout"], "level": LOG_LEVEL, "propagate": False},
    },
}
