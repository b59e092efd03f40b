"""Submission intake and verification throughput against the full stack.

    python bench/submissions.py [--requests 2000] [--concurrency 16] [--web-workers 3]
                                [--web-threads 1] [--worker-concurrency 2]

Needs PostgreSQL and Redis on this machine (see docs/operations.md); it uses databases of its
own (`--database-url`, default postgres://postgres@127.0.0.1:5432/yukon_bench_submissions, created when
missing, emptied first; `--redis-url`, default redis://127.0.0.1:6379/7, flushed first).

1. Setup (not timed): players made in bulk, each with a signed-in session and a CSRF token,
   and ranked games issued an hour ago from deals whose winning logs we have.
2. Intake: gunicorn serves the site; a light asyncio client (raw streams, one connection per
   request, as gunicorn's sync workers close them) POSTs one winning log per issued game,
   `--concurrency` requests in flight (the most it can take), or `--rate N` requests a second
   whatever the answers (the latency at that load). No Celery worker runs, so the
   verification tasks wait in Redis: this measures the web side alone (accepted/s, p50/p99
   latency, gunicorn's CPU per request).
3. Verification: one Celery worker starts and drains the queue; settled results per second,
   from the first to the last settlement.

Throttles are raised for the run (THROTTLE_SUBMISSION_CREATE). Goals on 2 cores: intake
≥ 200/s with p99 < 100 ms, verification ≥ 200/s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import statistics
import subprocess
import sys
import time
import uuid
from collections import Counter
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

from process_cpu import cpu_seconds  # bench/, beside this script

PROJECT_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT_DIR))
PACE_MS = 170
PASSWORD_HASH_PLACEHOLDER = "!"  # unusable password: these players only use their session


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--requests", type=int, default=2000, help="submissions to POST (one per issued game)"
    )
    parser.add_argument("--concurrency", type=int, default=16, help="requests in flight")
    parser.add_argument(
        "--rate", type=float, default=0,
        help="send at this fixed rate (requests/s, open loop) instead of keeping --concurrency in flight",
    )  # fmt: skip
    parser.add_argument("--web-workers", type=int, default=3, help="gunicorn worker processes")
    parser.add_argument("--web-threads", type=int, default=1, help="threads per gunicorn worker")
    parser.add_argument("--worker-concurrency", type=int, default=2, help="the Celery worker's pool size")
    parser.add_argument("--port", type=int, default=0, help="gunicorn's port (default: a free one)")
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/yukon_bench_submissions"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/7")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    return parser.parse_args()


def ensure_database(url: str) -> None:
    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl().replace("postgres://", "postgresql://", 1)
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def environment(args) -> dict[str, str]:
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
        "THROTTLE_SUBMISSION_CREATE": "1000000/min",
        "THROTTLE_GAME_ISSUE": "1000000/min",
    }


def setup_django(env: dict[str, str]) -> None:
    names = ("DATABASE_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS")
    for name in (*names, "HTTPS", "LOG_LEVEL"):
        os.environ[name] = env[name]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
    import django

    django.setup()


def variant(log: str, n: int) -> str:
    """The n-th distinct log of the same win: a move played, undone and played again at two places.

    Real players never send the same log twice; identical logs would be flagged for review.
    """
    tokens = log.split()
    places = len(tokens) - 1  # never after the winning move: nothing may follow a win
    pairs = [(a, b) for a in range(places) for b in range(a + 1, places)]
    first, second = pairs[n % len(pairs)]
    for position in (second, first):  # the later one first, so the earlier index still holds
        tokens[position:position] = [tokens[position], "U"]
    return " ".join(tokens)


def winning_logs() -> list[dict]:
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


def prepare(count: int) -> list[dict]:
    """Players, sessions and issued games; returns one request body (with its cookies) per game."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.middleware.csrf import _get_new_csrf_string
    from django.utils import timezone

    from accounts.models import User
    from games.engine import GameCode
    from games.models import IssuedGame, Submission
    from games.services import game_issue

    call_command("migrate", verbosity=0)
    Submission.objects.all().delete()
    IssuedGame.objects.all().delete()
    User.objects.filter(username__startswith="bench-").delete()
    per_player = settings.GAMES_MAX_UNPLAYED
    players = User.objects.bulk_create(
        User(username=f"bench-{i}", display_name=f"bench-{i}", password=PASSWORD_HASH_PLACEHOLDER)
        for i in range((count + per_player - 1) // per_player)
    )
    wins = winning_logs()
    issued_at = timezone.now() - timedelta(hours=1)
    bodies = []
    for index, player in enumerate(players):
        session = SessionStore()
        session[SESSION_KEY] = str(player.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = player.get_session_auth_hash()
        session.create()
        csrf = _get_new_csrf_string()
        deals = [wins[(index * per_player + k) % len(wins)] for k in range(per_player)]
        for rules in ("classic", "relaxed"):
            chosen = [d for d in deals if ("-C-" in d["code"]) == (rules == "classic")]
            if not chosen:
                continue
            numbers = [GameCode.parse(d["code"]).number for d in chosen]
            games = game_issue(
                user=player, rules=rules, count=len(chosen), deal_numbers=numbers, now=issued_at
            )
            for game, deal in zip(games, chosen, strict=True):
                log = variant(deal["log"], len(bodies))
                times = [PACE_MS * (i + 1) for i in range(len(log.split()))]
                bodies.append({
                    "cookie": f"sessionid={session.session_key}; csrftoken={csrf}",
                    "csrf": csrf,
                    "json": json.dumps({
                        "client_id": str(uuid.uuid4()), "game": game.pk, "log": log,
                        "move_times_ms": times, "duration_ms": times[-1] + 500,
                        "finished_at": timezone.now().isoformat(), "client_version": "bench",
                    }),
                })  # fmt: skip
    return bodies[:count]


def start(command: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen:
    log = log_path.open("w")
    return subprocess.Popen(command, cwd=PROJECT_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip


def stop(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


async def post(port: int, item: dict) -> tuple[int, float, bytes]:
    payload = item["json"].encode()
    request = (
        f"POST /api/submissions/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\nCookie: {item['cookie']}\r\nX-CSRFToken: {item['csrf']}\r\n"
        f"Referer: http://127.0.0.1:{port}/\r\nConnection: close\r\n\r\n"
    ).encode() + payload
    began = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    status_line = await reader.readline()
    rest = await reader.read()  # until the server closes
    writer.close()
    return int(status_line.split()[1]), time.perf_counter() - began, rest.partition(b"\r\n\r\n")[2]


async def intake(port: int, items: list[dict], concurrency: int, rate: float = 0) -> dict:
    """POST every item: `concurrency` at a time (closed loop), or one every 1/`rate` s (open loop)."""
    queue = list(reversed(items))
    latencies, statuses = [], []

    async def send(item):
        status, seconds, answer = await post(port, item)
        if status != 202 and len(statuses) - statuses.count(202) < 3:
            print(f"HTTP {status}: {answer[:300]!r}", file=sys.stderr)
        statuses.append(status)
        latencies.append(seconds)

    async def client():
        while queue:
            await send(queue.pop())

    async def paced():
        # Latency at a given load: arrivals do not wait for answers (no coordinated omission).
        start, tasks = time.perf_counter(), []
        for index, item in enumerate(items):
            await asyncio.sleep(max(0.0, start + index / rate - time.perf_counter()))
            tasks.append(asyncio.create_task(send(item)))
        await asyncio.gather(*tasks)

    began = time.perf_counter()
    if rate:
        await paced()
    else:
        await asyncio.gather(*(client() for _ in range(concurrency)))
    elapsed = time.perf_counter() - began
    latencies.sort()
    accepted = sum(status == 202 for status in statuses)
    return {
        "requests": len(statuses),
        "accepted": accepted,
        "other_statuses": {str(s): statuses.count(s) for s in set(statuses) if s != 202},
        "seconds": round(elapsed, 2),
        "accepted_per_second": round(accepted / elapsed, 1),
        "p50_ms": round(statistics.median(latencies) * 1000, 1),
        "p99_ms": round(latencies[int(len(latencies) * 0.99) - 1] * 1000, 1),
    }


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_http(port: int, web: subprocess.Popen, timeout: float = 30) -> None:
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if web.poll() is not None:
            raise RuntimeError("gunicorn exited; see var/bench-gunicorn.log")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)  # noqa: S310
            return
        except urllib.error.HTTPError:  # 503 without a Celery worker: the web side answers all the same
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer")


def verification(env: dict[str, str], args, total: int, log_dir: Path) -> dict:
    from django.db.models import Max, Min

    from games.models import Submission

    command = [sys.executable, "-m", "celery", "-A", "yukon_site", "worker", "--loglevel", "WARNING",
               "--concurrency", str(args.worker_concurrency),
               "--without-gossip", "--without-mingle"]  # fmt: skip
    import redis

    broker = redis.Redis.from_url(env["REDIS_URL"])
    worker = start(command, env, log_dir / "bench-celery.log")
    cpu_at_first = None
    try:
        deadline = time.monotonic() + 60 + total / 20
        while Submission.objects.filter(status="pending").exists():
            if cpu_at_first is None and Submission.objects.exclude(status="pending").exists():
                cpu_at_first = cpu_seconds(worker)
            if time.monotonic() > deadline or worker.poll() is not None:
                raise RuntimeError(f"verification did not finish; see {log_dir / 'bench-celery.log'}")
            time.sleep(0.05)
        settled_at = time.monotonic()
        cpu_settled = cpu_seconds(worker) - (cpu_at_first or 0)
        # A task whose row an earlier batch settled still costs a message and a query: the
        # CPU is counted until the queue is empty and nothing is left unacknowledged.
        while broker.llen("celery") or broker.hlen("unacked"):
            if time.monotonic() > deadline or worker.poll() is not None:
                raise RuntimeError(f"the queue was not drained; see {log_dir / 'bench-celery.log'}")
            time.sleep(0.05)
        drained_seconds = time.monotonic() - settled_at
        cpu_used = cpu_seconds(worker) - (cpu_at_first or 0)
    finally:
        stop(worker)
    span = Submission.objects.aggregate(first=Min("settled_at"), last=Max("settled_at"))
    seconds = (span["last"] - span["first"]).total_seconds()
    # A batch shares one settlement time: the rate counts the results settled after the first one.
    first_batch = Submission.objects.filter(settled_at=span["first"]).count()
    statuses = Counter(Submission.objects.values_list("status", flat=True))
    verified = Submission.objects.filter(status="verified", won=True).count()
    return {
        "settled": total,
        "verified_won": verified,
        "statuses": dict(statuses),
        "seconds": round(seconds, 2),
        "settled_per_second": round((total - first_batch) / seconds, 1) if seconds else None,
        # Worker CPU (all pool processes) per result: the cost, whatever else runs on the machine;
        # until the last settlement, and until the queue is drained.
        "worker_cpu_ms_per_result_settling": round(cpu_settled * 1000 / total, 2),
        "worker_cpu_ms_per_result": round(cpu_used * 1000 / total, 2),
        "queue_drained_seconds_after": round(drained_seconds, 2),
    }


def main() -> None:
    args = parse_args()
    ensure_database(args.database_url)
    env = environment(args)
    setup_django(env)
    import redis

    redis.Redis.from_url(args.redis_url).flushdb()
    print(f"preparing {args.requests} issued games ...", file=sys.stderr)
    items = prepare(args.requests)
    args.port = args.port or free_port()
    # Other processes on the machine skew the figures: the load is reported with them.
    load_at_start = round(os.getloadavg()[0], 2)
    log_dir = PROJECT_DIR / "var"
    log_dir.mkdir(exist_ok=True)
    web_env = {**env, "GUNICORN_BIND": f"127.0.0.1:{args.port}", "WEB_CONCURRENCY": str(args.web_workers),
               "GUNICORN_THREADS": str(args.web_threads)}  # fmt: skip
    web = start([sys.executable, "-m", "gunicorn", "-c", "python:yukon_site.gunicorn_conf", "yukon_site.wsgi",
                 "--access-logfile", "/dev/null"], web_env, log_dir / "bench-gunicorn.log")  # fmt: skip
    try:
        wait_for_http(args.port, web)
        asyncio.run(intake(args.port, items[: min(50, len(items) // 10)], args.concurrency))  # warm-up
        from games.models import Submission

        print(f"intake: {len(items)} POSTs, {args.concurrency} in flight ...", file=sys.stderr)
        remaining = [item for item in items if not Submission.objects.filter(
            game_id=json.loads(item["json"])["game"]).exists()]  # fmt: skip
        cpu_before = cpu_seconds(web)
        intake_figures = asyncio.run(intake(args.port, remaining, args.concurrency, args.rate))
        intake_figures["mode"] = (
            f"{args.rate:g} requests/s offered" if args.rate else f"{args.concurrency} in flight"
        )
        # gunicorn's CPU (all workers) per accepted request: the cost, whatever else runs.
        intake_figures["web_cpu_ms_per_request"] = round(
            (cpu_seconds(web) - cpu_before) * 1000 / max(intake_figures["accepted"], 1), 2
        )
    finally:
        stop(web)
    total = Submission.objects.count()
    print(f"verification: one Celery worker, {total} pending ...", file=sys.stderr)
    verify_figures = verification(env, args, total, log_dir)
    figures = {
        "intake": intake_figures,
        "verification": verify_figures,
        "setup": {"web_workers": args.web_workers, "web_threads": args.web_threads,
                  "worker_concurrency": args.worker_concurrency,
                  "cpus": os.cpu_count(), "load_average_at_start": load_at_start},
    }  # fmt: skip
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    i, v = intake_figures, verify_figures
    print(
        f"intake ({i['mode']}): {i['accepted']} accepted of {i['requests']} in {i['seconds']} s = "
        f"{i['accepted_per_second']}/s; p50 {i['p50_ms']} ms, p99 {i['p99_ms']} ms"
        "  (goal ≥ 200/s, p99 < 100 ms)"
    )
    print(f"               gunicorn CPU {i['web_cpu_ms_per_request']} ms a request")
    print(f"verification:  {v['settled']} settled in {v['seconds']} s = {v['settled_per_second']}/s "
          f"({v['verified_won']} verified wins; goal ≥ 200/s)")  # fmt: skip
    print(f"               worker CPU {v['worker_cpu_ms_per_result']} ms a result, the queue drained "
          f"{v['queue_drained_seconds_after']} s after the last settlement "
          f"({v['worker_cpu_ms_per_result_settling']} ms until then)")  # fmt: skip
    print(f"machine:       {os.cpu_count()} CPUs, load average {load_at_start} at the start")


if __name__ == "__main__":
    main()
