"""The full stack for the HTTP benchmarks (bench/submissions.py, bench/reveals.py).

A PostgreSQL database and a Redis database of the benchmark's own; Django set up in the
benchmark's process to make players, sessions and issued games; gunicorn as deployed
(yukon_site/gunicorn_conf.py, DEBUG off); and a light asyncio client (raw streams, one connection
per request, as gunicorn's sync workers close them) that keeps requests in flight (closed loop)
or sends them at a fixed rate whatever the answers (open loop).
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import secrets
import signal
import subprocess
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from urllib.parse import urlparse

PROJECT_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT_DIR))
LOG_DIR = PROJECT_DIR / "var"
PASSWORD_HASH_PLACEHOLDER = "!"  # unusable password: these players only use their session


# --- Databases and settings ------------------------------------------------------------------------


def _admin_connection(url: str):
    import psycopg

    parsed = urlparse(url)
    admin = parsed._replace(path="/postgres").geturl().replace("postgres://", "postgresql://", 1)
    return psycopg.connect(admin, autocommit=True), parsed.path.lstrip("/")


def ensure_database(url: str, *, fresh: bool = False) -> None:
    """Create the database of `url` when missing; `fresh`: drop it first (and its connections)."""
    conn, name = _admin_connection(url)
    with conn:
        if fresh:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    conn, name = _admin_connection(url)
    with conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def environment(args, **overrides: str) -> dict[str, str]:
    """The settings of the run (`args.database_url`, `args.redis_url`), production mode."""
    return {
        **os.environ,
        "DATABASE_URL": args.database_url + "?conn_max_age=60",
        "REDIS_URL": args.redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        # Production mode (DEBUG=0): no debug tooling, static files from the manifest.
        "DEBUG": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "HTTPS": "0",
        "LOG_LEVEL": "WARNING",
        **overrides,
    }


def setup_django(env: dict[str, str]) -> None:
    names = ("DATABASE_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS")
    for name in (*names, "HTTPS", "LOG_LEVEL", *(n for n in env if n.startswith("THROTTLE_"))):
        os.environ[name] = env[name]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
    import django

    django.setup()


# --- Players and their games -------------------------------------------------------------------------


def winning_logs() -> list[dict]:
    """[{code, log}] of clean wins (no undo): the engine vectors, and the solver's when present."""
    cases = json.loads((PROJECT_DIR / "games/engine/vectors/logs.json").read_text())["cases"]
    wins = {
        c["code"]: c["log"]
        for c in cases
        if c["verdict"]["won"] and c["verdict"]["legal"] and "U" not in c["log"].split()
    }
    solver = PROJECT_DIR / "games/solver/fixtures/winning_logs.json"
    if solver.exists():
        wins.update({c["code"]: c["log"] for c in json.loads(solver.read_text())})
    return [{"code": code, "log": log} for code, log in wins.items()]


def signed_in(player) -> dict[str, str]:
    """A signed-in session of `player` and a CSRF token: what a browser's request carries."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.middleware.csrf import _get_new_csrf_string

    session = SessionStore()
    session[SESSION_KEY] = str(player.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = player.get_session_auth_hash()
    session.create()
    csrf = _get_new_csrf_string()
    return {"cookie": f"sessionid={session.session_key}; csrftoken={csrf}", "csrf": csrf}


def issued_games(
    *, players: int, per_player: int, deals: list[dict], hidden: bool = False, now=None
) -> Iterator[tuple[dict, object, dict]]:
    """(session, issued game, deal) for `players` new players (made in bulk, each signed in),
    each issued `per_player` games by the real service, the winning `deals` taken in turn."""
    from accounts.models import User
    from games.issuing.dealing import known_deals
    from games.issuing.services import game_issue

    start = User.objects.filter(username__startswith="bench-").count()
    made = User.objects.bulk_create(
        User(username=f"bench-{i}", display_name=f"bench-{i}", password=PASSWORD_HASH_PLACEHOLDER)
        for i in range(start, start + players)
    )
    for index, player in enumerate(made):
        session = signed_in(player)
        chosen = [deals[(index * per_player + k) % len(deals)] for k in range(per_player)]
        for rules in ("classic", "relaxed"):
            of_rules = [d for d in chosen if ("-C-" in d["code"]) == (rules == "classic")]
            if not of_rules:
                continue
            with known_deals([d["code"] for d in of_rules]):
                games = game_issue(user=player, rules=rules, count=len(of_rules), hidden=hidden, now=now)
            for game, deal in zip(games, of_rules, strict=True):
                yield session, game, deal


# --- Processes ----------------------------------------------------------------------------------------


def start(command: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen:
    log = log_path.open("w")
    return subprocess.Popen(command, cwd=PROJECT_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip


def stop(process: subprocess.Popen) -> None:
    """SIGTERM to the process group, SIGKILL after 20 s; a group already gone is stopped."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(20)
    except ProcessLookupError:
        process.wait()
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_http(port: int, web: subprocess.Popen, log_path: Path, timeout: float = 30) -> None:
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if web.poll() is not None:
            raise RuntimeError(f"gunicorn exited; see {log_path}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)  # noqa: S310
            return
        except urllib.error.HTTPError:  # 503 without a Celery worker: the web side answers all the same
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer")


def start_web(
    env: dict[str, str], *, port: int, workers: int, threads: int, log_name: str
) -> subprocess.Popen:
    """gunicorn as deployed (yukon_site/gunicorn_conf.py), once it answers. Its access log too:
    the configuration's logging writes a JSON line a request (to `log_name` in var/), whatever
    `--access-logfile` says."""
    LOG_DIR.mkdir(exist_ok=True)
    web_env = {**env, "GUNICORN_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": str(workers),
               "GUNICORN_THREADS": str(threads)}  # fmt: skip
    command = [sys.executable, "-m", "gunicorn", "-c", "python:yukon_site.gunicorn_conf", "yukon_site.wsgi"]
    web = start(command, web_env, LOG_DIR / log_name)
    try:
        wait_for_http(port, web, LOG_DIR / log_name)
    except BaseException:
        stop(web)
        raise
    return web


def load_average() -> str:
    return " / ".join(f"{value:.2f}" for value in os.getloadavg())


def machine_cpu_seconds() -> dict[str, float]:
    """CPU seconds spent so far on the whole machine (/proc/stat), every process's, and by the
    PostgreSQL and Redis servers (the processes named so, serving anyone): where a request's time
    goes besides gunicorn, and how much other work shared the cores."""
    ticks = os.sysconf("SC_CLK_TCK")
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(
        int, Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]
    )
    seconds = {"machine": (user + nice + system + irq + softirq) / ticks, "steal": steal / ticks}
    servers = {"postgres": "postgres", "redis-server": "redis"}
    seconds.update(dict.fromkeys(servers.values(), 0.0))
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name = text[text.index("(") + 1 : text.rindex(")")]
        if name in servers:
            fields = text.rsplit(")", 1)[1].split()
            seconds[servers[name]] += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return seconds


# --- The client -------------------------------------------------------------------------------------


async def post(port: int, item: dict) -> tuple[int, float, bytes]:
    """POST `item["json"]` to `item["path"]` with its session; (status, seconds, body). Status 0:
    the connection failed (the body says why)."""
    payload = item["json"].encode()
    request = (
        f"POST {item['path']} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\nCookie: {item['cookie']}\r\nX-CSRFToken: {item['csrf']}\r\n"
        f"Referer: http://127.0.0.1:{port}/\r\nConnection: close\r\n\r\n"
    ).encode() + payload
    began = time.perf_counter()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(request)
        await writer.drain()
        status_line = await reader.readline()
        rest = await reader.read()  # until the server closes
        writer.close()
    except OSError as error:
        return 0, time.perf_counter() - began, repr(error).encode()
    return int(status_line.split()[1]), time.perf_counter() - began, rest.partition(b"\r\n\r\n")[2]


def percentile(ordered: list[float], fraction: float) -> float:
    """The nearest-rank percentile of sorted values."""
    return ordered[min(len(ordered) - 1, max(0, math.ceil(len(ordered) * fraction) - 1))]


class Streams:
    """Sequences of requests, each sent in order: a stream's next request goes only once its
    previous one is answered (and accepted). Streams already started are served before new ones."""

    def __init__(self, streams: Iterable[list[dict]]):
        self.fresh = (stream for stream in streams if stream)
        self.idle: deque[tuple[list[dict], int]] = deque()
        self.held = 0  # streams with a request in flight and more to send
        self.fresh_left = True

    def take(self) -> tuple[list[dict], int] | None:
        if self.idle:
            taken = self.idle.popleft()
        else:
            taken = next(((stream, 0) for stream in self.fresh), None)
            if taken is None:
                self.fresh_left = False
                return None
        self.held += taken[1] + 1 < len(taken[0])
        return taken

    def give_back(self, stream: list[dict], index: int, *, go_on: bool) -> None:
        if index + 1 < len(stream):
            self.held -= 1
            if go_on:
                self.idle.append((stream, index + 1))

    @property
    def finished(self) -> bool:
        return not self.idle and not self.fresh_left and not self.held


async def drive(
    port: int,
    streams: Iterable[list[dict]],
    *,
    concurrency: int,
    rate: float = 0,
    seconds: float = 0,
    check: Callable[[dict, int, bytes], str | None],
) -> dict:
    """POST the requests of `streams` (each stream in order): `concurrency` at a time (closed
    loop), or one every 1/`rate` s whatever the answers (open loop); for `seconds` (0: until every
    request is sent). `check(item, status, body)` says what is wrong with an answer, or None.
    Latencies are from the connection's opening to the answer's end."""
    queue = Streams(streams)
    latencies, statuses, errors = [], Counter(), []
    late: list[float] = []  # open loop: how far behind its time each request was sent
    starved = 0  # open loop: ticks with no stream free to send (all busy or done)

    async def send(stream: list[dict], index: int) -> None:
        item = stream[index]
        status, spent, answer = await post(port, item)
        statuses[status] += 1
        latencies.append(spent)
        problem = check(item, status, answer)
        if problem is not None:
            if len(errors) < 3:
                print(problem, file=sys.stderr)
            errors.append(problem)
        queue.give_back(stream, index, go_on=problem is None)

    began = time.perf_counter()
    deadline = began + seconds if seconds else math.inf

    async def client():
        while time.perf_counter() < deadline and (taken := queue.take()) is not None:
            await send(*taken)

    async def paced():
        # Latency at a given load: arrivals do not wait for answers (no coordinated omission).
        nonlocal starved
        tasks = []
        for tick in range(sys.maxsize):
            at = began + tick / rate
            if at >= deadline:
                break
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            taken = queue.take()
            if taken is None:
                if queue.finished:
                    break
                starved += 1
                continue
            late.append(time.perf_counter() - at)
            tasks.append(asyncio.create_task(send(*taken)))
        await asyncio.gather(*tasks)

    cpu_before = time.process_time()
    if rate:
        await paced()
    else:
        await asyncio.gather(*(client() for _ in range(concurrency)))
    elapsed = time.perf_counter() - began
    latencies.sort()
    late.sort()
    requests = len(latencies)
    ok = requests - len(errors)
    return {
        "requests": requests,
        "ok": ok,
        "errors": len(errors),
        "statuses": {str(status): count for status, count in sorted(statuses.items())},
        "seconds": round(elapsed, 2),
        "ok_per_second": round(ok / elapsed, 1),
        "p50_ms": round(percentile(latencies, 0.5) * 1000, 1) if latencies else None,
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 1) if latencies else None,
        "max_ms": round(latencies[-1] * 1000, 1) if latencies else None,
        "sent_late_p99_ms": round(percentile(late, 0.99) * 1000, 1) if late else None,
        "starved_ticks": starved,
        "ran_out": bool(seconds) and queue.finished,  # every request sent before `seconds` were up
        "client_cpu_ms_per_request": round((time.process_time() - cpu_before) * 1000 / max(requests, 1), 2),
    }
