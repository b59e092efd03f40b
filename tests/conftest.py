"""Fixtures shared by every test: Hypothesis profiles, a clean cache, and a real Celery worker.

Full-stack tests (marker `stack`) need REDIS_URL pointing at a Redis database of their own
(not 0: the tests flush it) and, for a worker, a database another process can open
(PostgreSQL through DATABASE_URL).
"""

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote, urlparse

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

PROJECT_DIR = Path(__file__).resolve().parent.parent

# Hypothesis: modest example counts on CI ("ci", chosen when CI is set), more at a desk.
hypothesis_settings.register_profile(
    "ci", max_examples=30, deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.register_profile("dev", max_examples=100, deadline=None)
hypothesis_settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)


def redis_url_database(url: str) -> int:
    """The Redis database number in a redis:// URL (path /<n> or ?db=<n>; 0 when absent)."""
    parsed = urlparse(url)
    for part in parsed.query.split("&"):
        if part.startswith("db="):
            return int(part[3:])
    path = parsed.path.strip("/")
    return int(path) if path else 0


def pytest_configure(config: pytest.Config) -> None:
    redis_url = os.environ.get("REDIS_URL")
    if redis_url and redis_url_database(redis_url) == 0:
        raise pytest.UsageError(
            "REDIS_URL points at Redis database 0, and the tests flush their database. "
            "Give them one of their own, e.g. REDIS_URL=redis://127.0.0.1:6379/5"
        )


# --- The cache -----------------------------------------------------------------------------------


def clear_django_caches() -> None:
    """Empty every configured cache. A Redis cache loses only its own keys (its KEY_PREFIX),
    never the Celery queues or other data sharing the database."""
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    for alias in caches:
        cache = caches[alias]
        if isinstance(cache, RedisCache):  # the fail-soft one too: never flush Celery's queues
            client = cache._cache.get_client(write=True)
            keys = list(client.scan_iter(match=f"{cache.key_prefix}:*", count=1000))
            if keys:
                client.delete(*keys)
        else:
            cache.clear()


@pytest.fixture(autouse=True)
def _no_solver_search_behind_requests(settings):
    # The default filter solves each day's candidates (up to seconds each, and the deal depends on
    # the secret, random per run): tests that need the filter set it (tests/games/test_solving.py).
    settings.DAILY_DEAL_WINNABLE_ONLY = False
    # Likewise the eager-mode search behind GET /api/deals/winnable/ (random deals, up to a second).
    settings.SOLVER_POOL_REQUEST_SECONDS = 0
    # Solver tasks run here in the test process, beside the suite's other process: their searches
    # would wait for a machine that is busy by design (games/solving/yielding.py). Its tests turn it on.
    settings.SOLVER_YIELD = False


# --- Players ------------------------------------------------------------------------------------


@pytest.fixture
def make_player(db):
    """`make_player(name=None, **fields)`: a player made as an account is (factories.player_make)."""
    from factories import player_make

    return player_make


@pytest.fixture
def player(make_player):
    return make_player("alice")


@pytest.fixture
def other_player(make_player):
    return make_player("bob")


@pytest.fixture
def api(player):
    """An API client signed in as `player`."""
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_login(player)
    return client


@pytest.fixture
def issue_known_deals():
    """`issue_known_deals(code, ...)`: from now until the test ends, the server deals these codes'
    deals in turn (the last one again and again) instead of drawing, through the one seam of
    games.issuing.dealing (a hidden-card game gets the YU2 code of the same deal)."""
    from contextlib import ExitStack

    from games.issuing.dealing import known_deals

    with ExitStack() as stack:
        yield lambda *codes: stack.enter_context(known_deals(codes))


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Players' passwords hashed by a fast hasher: the default costs about a second a player."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _clear_cache_between_tests():
    # allauth keeps its rate limits in the cache: without this they leak from test to test.
    clear_django_caches()
    yield
    clear_django_caches()


# --- Redis and a real Celery worker (full stack) -----------------------------------------------


@pytest.fixture
def redis_client():
    """A client for REDIS_URL's database, emptied first. Skips the test when REDIS_URL is unset."""
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("needs REDIS_URL (a Redis database of its own, e.g. redis://127.0.0.1:6379/5)")
    import redis

    client = redis.Redis.from_url(url)
    client.flushdb()
    yield client
    client.close()


def database_url_for(settings_dict: dict) -> str:
    """A DATABASE_URL that opens the same database as `settings_dict` (the test database)."""
    name = str(settings_dict["NAME"])
    if settings_dict["ENGINE"] == "django.db.backends.sqlite3":
        if name == ":memory:" or "mode=memory" in name:
            pytest.skip("a Celery worker process cannot open an in-memory SQLite database: set DATABASE_URL")
        return f"sqlite:///{name}"
    scheme = {"django.db.backends.postgresql": "postgres"}.get(settings_dict["ENGINE"])
    if scheme is None:
        raise NotImplementedError(f"no DATABASE_URL for {settings_dict['ENGINE']}")
    auth = quote(settings_dict.get("USER") or "", safe="")
    if settings_dict.get("PASSWORD"):
        auth += ":" + quote(settings_dict["PASSWORD"], safe="")
    host = quote(settings_dict.get("HOST") or "", safe="")
    port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
    return f"{scheme}://{auth}@{host}{port}/{quote(name, safe='')}"


class CeleryWorkerProcess:
    """A `celery -A yukon_site worker` subprocess, in its own process group.

    `kill()` ends it with SIGKILL (a crash, tasks in flight are lost to it), `stop()` asks it
    to finish its task first (SIGTERM), `start()`/`restart()` bring up a fresh one.
    """

    def __init__(
        self, *, env: dict[str, str], log_path: Path, pool: str = "prefork", queues: tuple[str, ...] = ()
    ) -> None:
        self.env = env
        self.log_path = log_path
        self.pool = pool
        self.queues = queues  # none: the default queue, as a worker started without -Q
        self.process: subprocess.Popen | None = None
        self.name = ""

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def start(self, timeout: float = 60) -> None:
        assert self.process is None, "the worker is already running"
        prefix = "-".join(self.queues) or "test"
        self.name = f"{prefix}-{uuid.uuid4().hex[:8]}@{socket.gethostname()}"
        command = [sys.executable, "-m", "celery", "-A", "yukon_site", "worker",
                   "--pool", self.pool, "--concurrency", "1", "--hostname", self.name,
                   "--loglevel", "INFO", "--without-gossip", "--without-mingle"]  # fmt: skip
        if self.queues:
            command += ["-Q", ",".join(self.queues)]
        with self.log_path.open("a") as log:
            log.write(f"--- starting {self.name}\n")
            log.flush()
            self.process = subprocess.Popen(
                command, cwd=PROJECT_DIR, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        self._wait_until_ready(timeout)

    def _wait_until_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the Celery worker exited with {self.process.returncode}:\n{self.log()}")
            if self.ping():
                return
            time.sleep(0.2)
        self.kill()
        raise RuntimeError(f"the Celery worker did not answer within {timeout}s:\n{self.log()}")

    def ping(self, timeout: float = 0.5) -> bool:
        from yukon_site.celery import app

        return bool(app.control.ping(destination=[self.name], timeout=timeout))

    def queues_consumed(self) -> list[str]:
        """The queues the running worker takes tasks from, as it answers."""
        from yukon_site.celery import app

        answer = app.control.inspect([self.name], timeout=2).active_queues() or {}
        return sorted(queue["name"] for queue in answer.get(self.name, []))

    def _signal_group(self, signum: int) -> None:
        try:
            os.killpg(self.process.pid, signum)
        except ProcessLookupError:
            pass

    def kill(self) -> None:
        """SIGKILL the worker and its pool children at once, like a crash."""
        if self.process is None:
            return
        self._signal_group(signal.SIGKILL)
        self.process.wait()
        self.process = None

    def stop(self, timeout: float = 15) -> None:
        """Warm shutdown: the worker finishes its current task, then exits."""
        if self.process is None:
            return
        self._signal_group(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self._signal_group(signal.SIGKILL)
            self.process.wait()
        self.process = None

    def restart(self, *, kill: bool = True) -> None:
        if kill:
            self.kill()
        else:
            self.stop()
        self.start()

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""


@pytest.fixture
def test_database_url(transactional_db) -> str:
    """A DATABASE_URL for another process (Daphne, a worker) that opens this test's database."""
    from django.db import connection

    return database_url_for(connection.settings_dict)


@pytest.fixture
def celery_worker_env() -> dict[str, str]:
    """Extra environment for the worker process; override it in a test module to change it
    (e.g. a short CELERY_VISIBILITY_TIMEOUT for redelivery tests)."""
    return {}


@pytest.fixture
def celery_worker_pool() -> str:
    """The worker's pool: "prefork" (one child process) or "solo". Override to change it."""
    return "prefork"


@pytest.fixture
def celery_worker_process(transactional_db, redis_client, celery_worker_env, celery_worker_pool, tmp_path):
    """A real Celery worker on REDIS_URL and the *test* database, answering pings; stopped after.

    Requires `@pytest.mark.django_db(transaction=True)` (requested here through
    `transactional_db`): rows must be committed for the worker to see them.
    """
    from django.conf import settings as django_settings
    from django.db import connection

    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
        "DATABASE_URL": database_url_for(connection.settings_dict),
        "REDIS_URL": os.environ["REDIS_URL"],
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "SECRET_KEY": django_settings.SECRET_KEY,
        "PYTHONUNBUFFERED": "1",
        **celery_worker_env,
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    worker = CeleryWorkerProcess(env=env, log_path=tmp_path / "celery-worker.log", pool=celery_worker_pool)
    worker.start()
    yield worker
    worker.stop()


@pytest.fixture
def celery_queue_worker(celery_worker_process, tmp_path):
    """Make workers of one queue: `celery_queue_worker("solver")` is `celery -A yukon_site worker
    -Q solver -c 1`, not yet started, in the default worker's environment (the same test database
    and Redis). Each is stopped after the test, before the default worker."""
    workers: list[CeleryWorkerProcess] = []

    def make(queue: str) -> CeleryWorkerProcess:
        log_path = tmp_path / f"{queue}-worker-{len(workers) + 1}.log"
        worker = CeleryWorkerProcess(env=celery_worker_process.env, log_path=log_path, queues=(queue,))
        workers.append(worker)
        return worker

    yield make
    for worker in workers:
        worker.stop()
