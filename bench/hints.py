"""A flood of hints against the full stack: does `GET /api/me/` keep its throughput?

    python bench/hints.py [--seconds 20] [--connections 4] [--hinters 8] [--per-minute 6]
                          [--modes queue,in-request] [--json]

Needs PostgreSQL and Redis on this machine (docs/operations.md). It uses databases of its own
(`--database-url`, default postgres://postgres@127.0.0.1:5432/yukon_bench_hints, dropped and
created again, dropped at the end; `--redis-url`, default redis://127.0.0.1:6379/8, refused if
it holds keys, emptied at the end).

For each mode, gunicorn serves the site as deployed (yukon_site/gunicorn_conf.py, DEBUG off,
`--web-workers` sync workers) and:

1. alone: `--connections` clients read `GET /api/me/` back to back (closed loop) for `--seconds`;
2. flooded: the same, while `--hinters` players each ask a hint every 60/`--per-minute` s (the
   throttle's whole allowance, 6 a minute as deployed), each on a new random deal at its start,
   so that no answer is known and every hint is a search; a `202` ticket is read every second
   until answered, as the page does.

Modes: `queue`, as deployed: the hints worker (`celery worker -Q hints -c 1`, niceness 19)
searches; `in-request`: tasks eager (CELERY_TASK_ALWAYS_EAGER=1), the search runs in the web
request, as under `make run` (one at a time per process) and as every hint did before the hints
queue. Printed: /api/me/ requests/s, p50/p99, and the share kept under the flood (goal ≥ 80%),
the hints' answers (moves, no win found, busy) and the time a player waited for one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from collections import Counter
from urllib.parse import urlparse

from fullstack import (  # bench/, beside this script
    LOG_DIR,
    drop_database,
    ensure_database,
    environment,
    free_port,
    load_average,
    percentile,
    setup_django,
    signed_in,
    start,
    start_web,
    stop,
)
from process_cpu import cpu_seconds

GOAL_KEPT = 0.8


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="per measurement")
    parser.add_argument("--connections", type=int, default=4, help="/api/me/ readers in flight")
    parser.add_argument("--hinters", type=int, default=8, help="players asking hints")
    parser.add_argument("--per-minute", type=float, default=6.0, help="hints a player asks a minute")
    parser.add_argument("--web-workers", type=int, default=3)
    parser.add_argument("--modes", default="queue,in-request")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/yukon_bench_hints")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/8")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if int(urlparse(args.redis_url).path.lstrip("/") or 0) in (0, 5, 6):
        parser.error("Redis databases 0, 5 and 6 are not the benchmark's own (the default and the tests')")
    return args


# --- A small HTTP client (one connection a request, as gunicorn's sync workers close them) ----------


async def request(port: int, method: str, path: str, session: dict, body: dict | None = None):
    """(status, seconds, headers text, body bytes); status 0 when the connection failed."""
    payload = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {session['cookie']}\r\n"
    if method == "POST":
        head += (
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
            f"X-CSRFToken: {session['csrf']}\r\nReferer: http://127.0.0.1:{port}/\r\n"
        )
    began = time.perf_counter()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write((head + "Connection: close\r\n\r\n").encode() + payload)
        await writer.drain()
        answer = await reader.read(-1)
        writer.close()
    except OSError:
        return 0, time.perf_counter() - began, "", b""
    headers, _, content = answer.partition(b"\r\n\r\n")
    status = int(headers.split(b" ", 2)[1]) if headers else 0
    return status, time.perf_counter() - began, headers.decode("latin-1"), content


async def readers(port: int, sessions: list[dict], connections: int, until: float) -> dict:
    latencies, statuses = [], Counter()

    async def reader(index: int) -> None:
        session = sessions[index % len(sessions)]
        while time.perf_counter() < until:
            status, spent, _, _ = await request(port, "GET", "/api/me/", session)
            statuses[status] += 1
            if status == 200:
                latencies.append(spent)

    began = time.perf_counter()
    await asyncio.gather(*(reader(index) for index in range(connections)))
    latencies.sort()
    return {
        "ok": len(latencies),
        "per_second": round(len(latencies) / (time.perf_counter() - began), 1),
        "p50_ms": round(percentile(latencies, 0.5) * 1000, 1) if latencies else None,
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 1) if latencies else None,
        "statuses": {str(key): value for key, value in sorted(statuses.items())},
    }


async def hinters(
    port: int, sessions: list[dict], per_minute: float, until: float, rng: random.Random
) -> dict:
    from games.engine import GameCode, Rules

    answers, waits, statuses = Counter(), [], Counter()
    interval = 60 / per_minute

    async def hinter(index: int) -> None:
        session = sessions[index]
        await asyncio.sleep(interval * index / len(sessions))  # spread over the interval
        while time.perf_counter() < until:
            asked_at = time.perf_counter()
            code = str(GameCode(Rules.CLASSIC, rng.randrange(1, 26**7)))
            status, _, _, content = await request(
                port, "POST", "/api/hint/", session, {"code": code, "log": ""}
            )
            statuses[status] += 1
            while status == 202:
                await asyncio.sleep(1)
                url = json.loads(content)["url"]
                status, _, _, content = await request(port, "GET", url, session)
                statuses[f"read {status}"] += 1
            if status == 200:
                answer = json.loads(content)
                answers["move" if answer.get("move") else answer["code"]] += 1
                waits.append(time.perf_counter() - asked_at)
            await asyncio.sleep(max(0.0, asked_at + interval - time.perf_counter()))

    await asyncio.gather(*(hinter(index) for index in range(len(sessions))))
    waits.sort()
    return {
        "answers": dict(answers),
        "statuses": {str(key): value for key, value in statuses.items()},
        "wait_p50_s": round(percentile(waits, 0.5), 2) if waits else None,
        "wait_p99_s": round(percentile(waits, 0.99), 2) if waits else None,
    }


async def flooded(port, readers_sessions, hinter_sessions, args, rng) -> tuple[dict, dict]:
    until = time.perf_counter() + args.seconds
    read, hinted = await asyncio.gather(
        readers(port, readers_sessions, args.connections, until),
        hinters(port, hinter_sessions, args.per_minute, until, rng),
    )
    return read, hinted


def run_mode(mode: str, args, env: dict, readers_sessions, hinter_sessions, rng) -> dict:
    eager = mode == "in-request"
    web_env = {**env, "CELERY_TASK_ALWAYS_EAGER": "1" if eager else "0"}
    port = free_port()
    worker = None
    LOG_DIR.mkdir(exist_ok=True)
    if not eager:
        command = [sys.executable, "-m", "celery", "-A", "yukon_site", "worker", "-Q", "hints", "-c", "1",
                   "--hostname", f"bench-hints-{os.getpid()}@%h", "--loglevel", "WARNING"]  # fmt: skip
        worker = start(command, env, LOG_DIR / "bench-hints-worker.log")
    web = start_web(web_env, port=port, workers=args.web_workers, threads=1, log_name="bench-hints-web.log")
    try:
        time.sleep(3 if worker else 0)  # the worker ready
        asyncio.run(readers(port, readers_sessions, args.connections, time.perf_counter() + 2))  # warm-up
        cpu_before = cpu_seconds(web)
        alone = asyncio.run(
            readers(port, readers_sessions, args.connections, time.perf_counter() + args.seconds)
        )
        alone["web_cpu_ms_per_request"] = round(
            (cpu_seconds(web) - cpu_before) * 1000 / max(alone["ok"], 1), 2
        )
        read, hinted = asyncio.run(flooded(port, readers_sessions, hinter_sessions, args, rng))
    finally:
        stop(web)
        if worker is not None:
            stop(worker)
    return {
        "mode": mode,
        "alone": alone,
        "flooded": read,
        "kept": round(read["per_second"] / max(alone["per_second"], 0.1), 3),
        "hints": hinted,
    }


def main() -> None:
    args = parse_args()
    ensure_database(args.database_url, fresh=True)
    env = environment(args, LOG_LEVEL="WARNING")
    setup_django(env)
    import redis
    from django.core.management import call_command

    bench_redis = redis.Redis.from_url(args.redis_url)
    if bench_redis.dbsize():
        sys.exit(f"Redis database {args.redis_url} holds keys: choose another --redis-url")
    call_command("migrate", verbosity=0)
    from accounts.models import User

    rng = random.Random(7)
    players = [
        User.objects.create_user(f"bench{index}", f"bench{index}@example.com", None) for index in range(20)
    ]
    readers_sessions = [signed_in(player) for player in players[: args.connections]]
    hinter_sessions = [signed_in(player) for player in players[10 : 10 + args.hinters]]
    load_at_start = load_average()
    results = []
    try:
        for mode in args.modes.split(","):
            print(f"{mode}: /api/me/ alone, then with {args.hinters} players asking {args.per_minute:g} "
                  f"hints a minute, {args.seconds:g} s each ...", file=sys.stderr)  # fmt: skip
            results.append(run_mode(mode, args, env, readers_sessions, hinter_sessions, rng))
    finally:
        bench_redis.flushdb()
        from django.db import connections

        connections.close_all()
        drop_database(args.database_url)
    if args.json:
        print(json.dumps({"results": results, "load_average_at_start": load_at_start}, indent=2))
        return
    for result in results:
        alone, read, hints = result["alone"], result["flooded"], result["hints"]
        goal = "met" if result["kept"] >= GOAL_KEPT else "NOT met"
        print(
            f"{result['mode']:>10}: /api/me/ alone {alone['per_second']}/s (p50 {alone['p50_ms']} ms, "
            f"p99 {alone['p99_ms']} ms; gunicorn {alone['web_cpu_ms_per_request']} ms CPU a request)"
        )
        print(f"{'':>10}  flooded {read['per_second']}/s (p50 {read['p50_ms']} ms, p99 {read['p99_ms']} ms): "
              f"{result['kept']:.0%} kept (goal ≥ {GOAL_KEPT:.0%}: {goal})")  # fmt: skip
        print(f"{'':>10}  hints: {hints['answers']}, a player waited p50 {hints['wait_p50_s']} s, "
              f"p99 {hints['wait_p99_s']} s; statuses {hints['statuses']}")  # fmt: skip
    print(f"machine: {os.cpu_count()} CPUs, load average {load_at_start} at the start")


if __name__ == "__main__":
    main()
