"""The product's settings: ranked games and submissions, races, the solver in the product, the
boards. Read after base.py (yukon_site/settings/__init__.py), whose settings some derive from."""

from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

from yukon_site.settings.base import (
    ALLOWED_HOSTS,
    CELERY_BEAT_SCHEDULE,
    CELERY_TASK_ALWAYS_EAGER,
    CELERY_VISIBILITY_TIMEOUT,
    CONTENT_SECURITY_POLICY,
    CSRF_TRUSTED_ORIGINS,
    DEBUG,
    HTTPS,
    REDIS_URL,
    env,
)

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
FAIRPLAY_QUEUE = "fairplay"  # fair play's analysis of results ("Fair play", below)
CELERY_TASK_ROUTES = {
    "games.deal_pool_refill": {"queue": SOLVER_QUEUE},
    "games.deal_par_solve": {"queue": SOLVER_QUEUE},
    "games.hint_search": {"queue": HINT_QUEUE},
    "games.census_deal_settle": {"queue": CENSUS_QUEUE},
    "fairplay.game_analyse": {"queue": FAIRPLAY_QUEUE},
}
# A worker of the solver's queues alone runs at this niceness (yukon_site/celery.py): 19, the
# lowest priority, lets searches use only the CPU that intake and verification leave; 0 keeps it.
SOLVER_WORKER_NICENESS = env.int("SOLVER_WORKER_NICENESS", default=19)
SOLVER_TASK_SOFT_TIME_LIMIT = env.int("SOLVER_TASK_SOFT_TIME_LIMIT", default=300)  # seconds, per task
SOLVER_TASK_TIME_LIMIT = SOLVER_TASK_SOFT_TIME_LIMIT + 30  # then the worker kills the task's process
# Positions held by one search: about 100 bytes each in the solver's compiled core, 300 in Python.
SOLVER_MAX_NODES = env.int("SOLVER_MAX_NODES", default=3_000_000)
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
SOLVER_HINT_MAX_NODES = env.int("SOLVER_HINT_MAX_NODES", default=600_000)  # 60 MB in the core
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


# --- Fair play (fairplay/, docs/fairplay.md) --------------------------------------------------------

# The analysis runs on FAIRPLAY_QUEUE, a worker of its own (`celery -A yukon_site worker -Q fairplay
# -c 1`), at the solver workers' low priority: it gives way to intake and verification.
# Analysed: every race's and challenge's result, every result that reached one of these places on
# a board, and one in FAIRPLAY_SAMPLE_ONE_IN of the rest, drawn by `secrets`.
FAIRPLAY_TOP_RANK = env.int("FAIRPLAY_TOP_RANK", default=100)
FAIRPLAY_SAMPLE_ONE_IN = env.int("FAIRPLAY_SAMPLE_ONE_IN", default=10)
# The solver's budget for each move's verdict (fairplay/verdicts.py BUDGETS): "default" (about
# 10 s of one core a game at most), "lab" (a cheaper one) or "off". Off without a broker: there
# the analysis runs in the request that settles the result, and seconds of search have no place
# in a web request.
FAIRPLAY_VERDICT_BUDGET = env.str(
    "FAIRPLAY_VERDICT_BUDGET", default="off" if CELERY_TASK_ALWAYS_EAGER else "default"
)
# The budget of an analysis a player asks for on a replay (where a race's game was lost: the
# player waits for it): without a broker it runs in that request, so "lab" (2 s of CPU at most).
FAIRPLAY_ASKED_VERDICT_BUDGET = env.str(
    "FAIRPLAY_ASKED_VERDICT_BUDGET", default="lab" if CELERY_TASK_ALWAYS_EAGER else FAIRPLAY_VERDICT_BUDGET
)
if {FAIRPLAY_VERDICT_BUDGET, FAIRPLAY_ASKED_VERDICT_BUDGET} - {"default", "lab", "off"}:
    raise ImproperlyConfigured(
        "FAIRPLAY_VERDICT_BUDGET and FAIRPLAY_ASKED_VERDICT_BUDGET are default, lab or off."
    )
# Reports a player may send (POST /api/replays/<id>/reports/), a DRF rate string.
FAIRPLAY_REPORT_RATE = env.str("THROTTLE_RESULT_REPORT", default="10/hour")
# The review queue's two thresholds on a game's score (fairplay/scoring.py; docs/fairplay.md, "The
# score"). Report: a game at or above it is evidence in the player's case, results stay on the
# boards. Mark: FAIRPLAY_MARK_GAMES games at or above FAIRPLAY_MARK_SCORE among the player's last
# FAIRPLAY_SCORE_WINDOW analysed games withhold their ranked results until a moderator decides.
FAIRPLAY_REPORT_SCORE = env.float("FAIRPLAY_REPORT_SCORE", default=30.0)
FAIRPLAY_MARK_SCORE = env.float("FAIRPLAY_MARK_SCORE", default=50.0)
FAIRPLAY_MARK_GAMES = env.int("FAIRPLAY_MARK_GAMES", default=3)
FAIRPLAY_SCORE_WINDOW = env.int("FAIRPLAY_SCORE_WINDOW", default=20)
# The same thresholds on a player's luck (docs/fairplay.md, "Luck"): the sum over the window's
# games, log10 of odds whose chance for a player who sees only the visible cards is at most 10^−x.
# Report at 1 in 100; mark at 1 in 1,000, from FAIRPLAY_MARK_GAMES games with luck at least.
FAIRPLAY_REPORT_LUCK = env.float("FAIRPLAY_REPORT_LUCK", default=2.0)
FAIRPLAY_MARK_LUCK = env.float("FAIRPLAY_MARK_LUCK", default=3.0)
if FAIRPLAY_MARK_GAMES < 2 or FAIRPLAY_SCORE_WINDOW < FAIRPLAY_MARK_GAMES:
    raise ImproperlyConfigured(
        "One game never marks anyone: FAIRPLAY_MARK_GAMES ≥ 2, and ≤ FAIRPLAY_SCORE_WINDOW."
    )
# Analyses of replayed games anyone may ask for (POST /api/replays/<id>/analysis/: a race's game
# not won, where it was lost), a DRF rate string: each costs up to FAIRPLAY_VERDICT_BUDGET's CPU.
FAIRPLAY_REPLAY_ANALYSIS_RATE = env.str("THROTTLE_REPLAY_ANALYSIS", default="20/hour")
# Appeals a player may send (POST /api/fairplay/appeals/), a DRF rate string.
FAIRPLAY_APPEAL_RATE = env.str("THROTTLE_REVIEW_APPEAL", default="3/day")
# Two accounts of one person (fairplay/collusion.py; docs/fairplay.md, "Collusion"), each a case
# of level report (it withholds nothing). Rating fed: two accounts of one browser met in this many
# races or challenges or more, and one lost each time, within FAIRPLAY_FEED_LOSS_MS of play (a real
# attempt at a lost deal takes minutes).
FAIRPLAY_FEED_MEETINGS = env.int("FAIRPLAY_FEED_MEETINGS", default=3)
FAIRPLAY_FEED_LOSS_MS = env.int("FAIRPLAY_FEED_LOSS_MS", default=120_000)
# Lockstep: two seats of one deal whose page times stay within the tolerance of each other at
# FAIRPLAY_LOCKSTEP_SHARE of the longer log's moves, over FAIRPLAY_LOCKSTEP_MIN_MOVES moves at least.
FAIRPLAY_LOCKSTEP_TOLERANCE_MS = env.int("FAIRPLAY_LOCKSTEP_TOLERANCE_MS", default=500)
FAIRPLAY_LOCKSTEP_MIN_MOVES = env.int("FAIRPLAY_LOCKSTEP_MIN_MOVES", default=20)
FAIRPLAY_LOCKSTEP_SHARE = env.float("FAIRPLAY_LOCKSTEP_SHARE", default=0.9)
if FAIRPLAY_FEED_MEETINGS < 2 or FAIRPLAY_LOCKSTEP_MIN_MOVES < 10:
    raise ImproperlyConfigured(
        "One meeting is no pattern: FAIRPLAY_FEED_MEETINGS ≥ 2, FAIRPLAY_LOCKSTEP_MIN_MOVES ≥ 10."
    )
CELERY_BEAT_SCHEDULE.update(
    {"fairplay-analyses-sweep": {"task": "fairplay.analyses_sweep", "schedule": 600}},
)
