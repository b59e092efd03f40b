"""Leaderboard benchmark: top-50 page, around-me and a player's rank at 10k, 100k and 1M players.

    .venv/bin/python bench/leaderboard.py                     # 10k, 100k, 1M; 5 s per measurement
    .venv/bin/python bench/leaderboard.py --sizes 10000 --seconds 2 --skip-http
    .venv/bin/python bench/leaderboard.py --index histogram --sizes 1000000 --skip-http

Needs PostgreSQL and Redis on this machine (as in docs/operations.md) and, for HTTP, `wrk`
(Debian: apt-get install wrk). It uses a database of its own (`yukon_bench_leaderboard`,
dropped and created again, dropped at the end) and a Redis database of its own (`--redis-db`,
12 by default: emptied at the start and at the end; refused if it holds other keys).

For each size the all-time Classic board is filled in bulk: players (unusable passwords),
one verified win each and its board entry by PostgreSQL COPY, then the Redis key by the
project's own rebuild (`rebuild_leaderboards` does the same). Then, for a bounded time each:

- the service layer (leaderboard.selectors) on Redis and on SQL alone (REDIS_URL unset);
- the Redis index alone (leaderboard.index.sorted_sets), and the PyPI package `leaderboard` 3.7.3 doing
  the same reads on an identically filled sorted set in the same Redis: it needs the redis 2.x
  client, so it runs in a virtual environment of its own (created once in /tmp);
- HTTP through gunicorn, with wrk: `GET /api/leaderboards/?rules=classic` (50 rows; hot pages
  kept LEADERBOARD_HOT_PAGE_SECONDS = 1 s); `…&around=<name>`, the public read of a player's
  neighbourhood (rank and 21 rows), for players drawn from 2,000, each request carrying that
  player's session and language cookies as the page sends them (the read looks at neither); and
  `…&around=me`, the same answer read through the session, for the same signed-in players.
  Before measuring, each around read is asked once for every player (the names the boards show
  are kept in Redis for an hour: leaderboard/players.py) and top 50 for a second. Then top 50
  and around a player again at about `--paced-rate` requests/s (1,000), not flat out: each
  connection waits between its requests (wrk's `delay`), so the latency is the answer's, not
  that of a queue of 16 requests always waiting (the rate reached is printed beside it).

`--index histogram` runs it all on boards split by score (LEADERBOARD_INDEX=histogram,
leaderboard.index.histogram.index: what a Redis Cluster uses) on the same single Redis, instead of one
sorted set a board; the PyPI package, which reads a sorted set, is then left out.

Latencies are per call (p50 / p99 in ms); rates are calls per second of one client (service
layer) or of wrk's connections (HTTP). The machine has 2 cores: wrk, gunicorn, PostgreSQL and
Redis share them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fullstack import free_port, stop  # bench/, beside this script
from process_cpu import cpu_seconds

PROJECT = Path(__file__).resolve().parent.parent
PACKAGE_VENV = Path(tempfile.gettempdir()) / "yukon-bench-leaderboard-3.7.3"
BOARD = "classic:all"
PACKAGE_KEY = "pkg:classic:all"
SESSIONS = 2000
EPOCH = datetime(2026, 11, 29, tzinfo=UTC)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="players per run, ascending")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each measurement")
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432", help="server URL")
    parser.add_argument("--database", default="yukon_bench_leaderboard")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379", help="server URL")
    parser.add_argument("--redis-db", type=int, default=12, help="emptied at the start and the end")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections")
    parser.add_argument(
        "--paced-rate", type=int, default=1000,
        help="HTTP: also measure top 50 and around a player at about this many requests/s (0: not)",
    )  # fmt: skip
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--skip-package", action="store_true", help="leave out the PyPI package")
    parser.add_argument(
        "--index", choices=["sorted_set", "histogram"], default="sorted_set", help="LEADERBOARD_INDEX"
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    return parser.parse_args()


# --- Set-up ---------------------------------------------------------------------------------------


def configure_environment(args: argparse.Namespace) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
            # Connections kept open between requests, as docs/operations.md advises for production.
            "DATABASE_URL": f"{args.postgres}/{args.database}?conn_max_age=600",
            "REDIS_URL": f"{args.redis}/{args.redis_db}",
            "DEBUG": "0",
            "HTTPS": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "LOG_LEVEL": "WARNING",
            "LEADERBOARD_HOT_PAGE_SECONDS": "1",
            "LEADERBOARD_INDEX": args.index,
        }
    )


def recreate_database(args: argparse.Namespace, *, create: bool = True) -> None:
    import psycopg

    with psycopg.connect(f"{args.postgres}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{args.database}" WITH (FORCE)')
        if create:
            connection.execute(f'CREATE DATABASE "{args.database}"')


def migrate() -> None:
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=PROJECT, check=True)


def package_python() -> Path:
    """The virtual environment of the PyPI package `leaderboard` 3.7.3 (redis 2.x client)."""
    python = PACKAGE_VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {PACKAGE_VENV} (leaderboard==3.7.3, redis<3) ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(PACKAGE_VENV)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "leaderboard==3.7.3",
             "redis<3"], check=True, cwd=tempfile.gettempdir(),
        )  # fmt: skip
    return python


# --- Bulk fill ------------------------------------------------------------------------------------


def copy_rows(model, rows: list[dict]) -> None:
    """COPY `rows` into `model`'s table; columns a row leaves out get the field's default."""
    from django.db import connection, models

    given = set(rows[0])
    fields = [
        field for field in model._meta.concrete_fields if not field.primary_key or field.column in given
    ]
    columns, fillers = [], []
    for field in fields:
        columns.append(field.column)
        if field.column in given:
            fillers.append(None)
            continue
        if field.has_default():
            default = field.get_default()
        elif field.null:
            default = None
        elif isinstance(field, models.CharField | models.TextField):
            default = ""
        else:
            raise ValueError(f"no value for {model.__name__}.{field.name}")
        if isinstance(field, models.JSONField):
            default = json.dumps(default)
        fillers.append(default)
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor:
        raw = cursor.cursor
        with raw.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(
                    [row[column] if filler is None and column in row else filler
                     for column, filler in zip(columns, fillers, strict=True)]
                )  # fmt: skip


def fill_to(size: int, *, rng: random.Random) -> tuple[int, float]:
    """Add players until the board has `size` entries; (players added, seconds)."""
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from games.models import Submission
    from leaderboard.boards import sort_key
    from leaderboard.models import BoardEntry

    user_model = get_user_model()
    have = BoardEntry.objects.filter(board=BOARD).count()
    started = time.monotonic()
    first = (user_model.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
    batch = 100_000
    for start in range(first, first + size - have, batch):
        ids = range(start, min(start + batch, first + size - have))
        users, results, entries = [], [], []
        for user_id in ids:
            moves = rng.randint(80, 400)
            score = 7200 - moves
            received = EPOCH - timedelta(seconds=rng.randint(0, 365 * 24 * 3600))
            achieved = received.replace(microsecond=0)
            name = f"p{user_id:07d}"
            users.append(
                {"id": user_id, "password": "!", "username": name, "display_name": name,
                 "email": f"{name}@bench.invalid", "is_active": True, "date_joined": received}
            )  # fmt: skip
            results.append(
                {"id": user_id, "client_id": uuid.UUID(int=user_id), "user_id": user_id,
                 "code": "YU1-C-AAAAAAA", "rules": "classic", "ranked": True, "assisted": False,
                 "log": "AH>F", "move_times_ms": "[1000]", "duration_ms": moves * 900,
                 "client_finished_at": received, "body_hash": "0" * 64, "received_at": received,
                 "status": "verified", "won": True, "moves": moves, "foundation_cards": 52, "score": score,
                 "points": 625, "settled_at": received, "engine_version": "1", "voided": False}
            )  # fmt: skip
            entries.append(
                {"board": BOARD, "user_id": user_id, "submission_id": user_id, "code": "YU1-C-AAAAAAA",
                 "score": score, "moves": moves,
                 "duration_ms": moves * 900, "achieved_at": achieved,
                 "sort_key": sort_key(score=score, achieved_at=achieved)}
            )  # fmt: skip
        with transaction.atomic():
            copy_rows(user_model, users)
            copy_rows(Submission, results)
            copy_rows(BoardEntry, entries)
        print(f"  filled {ids[-1] - first + 1 + have:,}/{size:,}", end="\r", flush=True)
    with connection.cursor() as cursor:
        for model in (user_model, Submission, BoardEntry):
            table = model._meta.db_table
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
            )
            # As autovacuum would after a while: statistics and the visibility map (index-only scans).
            cursor.execute(f"VACUUM (ANALYZE) {table}")
    print()
    return size - have, time.monotonic() - started


def fill_package_set(client, *, board_key: str) -> None:
    """The same members and scores as our key, plus member data like our rows, for the package."""
    from leaderboard.models import BoardEntry

    client.delete(PACKAGE_KEY, f"{PACKAGE_KEY}:member_data")
    pipe = client.pipeline(transaction=False)
    count = 0
    rows = BoardEntry.objects.filter(board=BOARD).values_list(
        "user_id", "sort_key", "score", "moves", "duration_ms", "achieved_at", "submission_id"
    )
    from leaderboard.index.sorted_sets import member_for

    for user_id, key, score, moves, duration, achieved, submission in rows.iterator(chunk_size=20_000):
        member = member_for(user_id)
        pipe.zadd(PACKAGE_KEY, {member: key})
        data = {"name": f"p{user_id:07d}", "score": score, "moves": moves, "duration_ms": duration,
                "achieved_at": achieved.isoformat(), "replay": submission}  # fmt: skip
        pipe.hset(f"{PACKAGE_KEY}:member_data", member, json.dumps(data))
        count += 1
        if count % 10_000 == 0:
            pipe.execute()
    pipe.execute()
    assert client.zcard(PACKAGE_KEY) == client.zcard(board_key) - 1  # ours holds one sentinel


# --- Measuring ------------------------------------------------------------------------------------


def measure(call: Callable[[], object], *, seconds: float) -> dict:
    """Call repeatedly for `seconds` (at least 20 calls); p50/p99 in ms and calls per second."""
    latencies = []
    deadline = time.perf_counter() + seconds
    started = time.perf_counter()
    while time.perf_counter() < deadline or len(latencies) < 20:
        before = time.perf_counter()
        call()
        latencies.append(time.perf_counter() - before)
    elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "p50_ms": round(statistics.median(latencies) * 1000, 3),
        "p99_ms": round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000, 3),
        "per_s": round(len(latencies) / elapsed),
        "calls": len(latencies),
    }


def measure_service(*, size: int, seconds: float, rng: random.Random) -> dict:
    from django.conf import settings

    from leaderboard.index.wiring import board_index, index_reset
    from leaderboard.selectors import (
        leaderboard_around,
        leaderboard_around_player,
        leaderboard_page,
        leaderboard_rank,
    )

    def players():
        while True:
            yield rng.randint(1, size)

    pick = players()

    def named() -> str:
        return f"p{next(pick):07d}"  # the names fill_to gives

    figures = {}
    index = board_index()
    assert index is not None and index.exists(BOARD)
    assert leaderboard_page(board=BOARD).source == "redis"
    figures["index"] = {
        "top50": measure(lambda: index.page(BOARD, limit=50), seconds=seconds),
        "around": measure(lambda: index.around(BOARD, user_id=next(pick), span=10), seconds=seconds),
        "rank": measure(lambda: index.rank(BOARD, user_id=next(pick)), seconds=seconds),
    }
    figures["service_redis"] = {
        "top50": measure(lambda: leaderboard_page(board=BOARD, page_size=50), seconds=seconds),
        "around_player": measure(
            lambda: leaderboard_around_player(board=BOARD, name=named()), seconds=seconds
        ),
        "around": measure(lambda: leaderboard_around(board=BOARD, user_id=next(pick)), seconds=seconds),
        "rank": measure(lambda: leaderboard_rank(board=BOARD, user_id=next(pick)), seconds=seconds),
    }
    redis_url = settings.REDIS_URL
    settings.REDIS_URL = None
    index_reset()
    try:
        assert leaderboard_page(board=BOARD).source == "sql"
        figures["service_sql"] = {
            "top50": measure(lambda: leaderboard_page(board=BOARD, page_size=50), seconds=seconds),
            "around_player": measure(
                lambda: leaderboard_around_player(board=BOARD, name=named()), seconds=seconds
            ),
            "around": measure(lambda: leaderboard_around(board=BOARD, user_id=next(pick)), seconds=seconds),
            "rank": measure(lambda: leaderboard_rank(board=BOARD, user_id=next(pick)), seconds=seconds),
        }
    finally:
        settings.REDIS_URL = redis_url
        index_reset()
    return figures


PACKAGE_SCRIPT = r"""
import json, random, statistics, sys, time
from leaderboard.leaderboard import Leaderboard
from leaderboard.leaderboard import __file__ as where
host, port, db, key, size, seconds, complement = sys.argv[1:8]
size, seconds, complement = int(size), float(seconds), int(complement)
top = Leaderboard(key, host=host, port=int(port), db=int(db), page_size=50)
near = Leaderboard(key, host=host, port=int(port), db=int(db), page_size=21)
rng = random.Random(7)
member = lambda: "%019d" % (complement - rng.randint(1, size))
def measure(call):
    latencies, deadline, started = [], time.perf_counter() + seconds, time.perf_counter()
    while time.perf_counter() < deadline or len(latencies) < 20:
        before = time.perf_counter(); call(); latencies.append(time.perf_counter() - before)
    elapsed = time.perf_counter() - started
    latencies.sort()
    return {"p50_ms": round(statistics.median(latencies) * 1000, 3),
            "p99_ms": round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000, 3),
            "per_s": round(len(latencies) / elapsed), "calls": len(latencies)}
assert len(top.leaders(1, with_member_data=True)) == 50
print(json.dumps({
    "top50": measure(lambda: top.leaders(1, with_member_data=True)),
    "around": measure(lambda: near.around_me(member(), with_member_data=True)),
    "rank": measure(lambda: top.rank_for(member())),
}))
"""


def measure_package(*, args: argparse.Namespace, size: int, seconds: float) -> dict:
    from leaderboard.index.sorted_sets import MEMBER_COMPLEMENT

    host, port = args.redis.split("//")[1].split(":")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as script:
        script.write(PACKAGE_SCRIPT)
    try:
        answer = subprocess.run(
            [str(package_python()), script.name, host, port, str(args.redis_db), PACKAGE_KEY, str(size),
             str(seconds), str(MEMBER_COMPLEMENT)],
            cwd=tempfile.gettempdir(), capture_output=True, text=True, check=True,
            env={"PATH": os.environ["PATH"]},
        )  # fmt: skip
    finally:
        os.unlink(script.name)
    return json.loads(answer.stdout)


# --- HTTP -------------------------------------------------------------------------------------------


def start_gunicorn(*, workers: int, threads: int) -> tuple[subprocess.Popen, int]:
    """gunicorn with the project's settings (yukon_site/gunicorn_conf.py), access log off."""
    port = free_port()
    gunicorn = Path(sys.executable).parent / "gunicorn"
    env = {**os.environ, "GUNICORN_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": str(workers),
           "GUNICORN_THREADS": str(threads)}  # fmt: skip
    process = subprocess.Popen(
        [str(gunicorn), "-c", "python:yukon_site.gunicorn_conf", "yukon_site.wsgi", "--access-logfile",
         "/dev/null", "--log-level", "warning"],
        cwd=PROJECT, start_new_session=True, stdout=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/leaderboards/?rules=classic", timeout=10)
            return process, port
        except (urllib.error.URLError, OSError):
            if process.poll() is not None:
                raise RuntimeError("gunicorn exited") from None
            time.sleep(0.3)
    stop(process)
    raise RuntimeError("gunicorn did not answer within 60 s")


def session_cookies(*, size: int, count: int, rng: random.Random) -> list[tuple[str, str]]:
    """Signed-in sessions of `count` random players (what a browser's session cookie holds), with
    the name each player has on the boards."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    users = get_user_model().objects.filter(pk__in=rng.sample(range(1, size + 1), count))
    keys = []
    for user in users:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        keys.append((session.session_key, user.public_name))
    return keys


LATENCY = re.compile(r"^\s+(50|99)(?:\.000)?%\s+([\d.]+)(us|ms|s)\s*$", re.M)


def wrk(url: str, *, seconds: float, connections: int, script: str | None = None) -> dict:
    command = [
        "wrk",
        "-t2",
        f"-c{connections}",
        f"-d{max(1, round(seconds))}s",
        "--latency",
        "--timeout",
        "5s",
    ]
    if script:
        command += ["-s", script]
    output = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}
    latencies = {share: float(value) * scale[unit] for share, value, unit in LATENCY.findall(output)}
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    socket_errors = re.search(r"Socket errors: (.*)", output)
    return {
        "requests": int(re.search(r"(\d+) requests in", output)[1]),
        "per_s": round(float(re.search(r"Requests/sec:\s+([\d.]+)", output)[1])),
        "p50_ms": round(latencies["50"], 2),
        "p99_ms": round(latencies["99"], 2),
        "errors": int(errors[1]) if errors else 0,
        "socket_errors": socket_errors[1] if socket_errors else "",
    }


def measure_http(*, args: argparse.Namespace, size: int, rng: random.Random) -> dict:
    process, port = start_gunicorn(workers=args.workers, threads=args.threads)

    def measured(url: str, script: str | None = None, *, seconds: float = args.seconds) -> dict:
        before = cpu_seconds(process)
        figures = wrk(url, seconds=seconds, connections=args.connections, script=script)
        # gunicorn's CPU (every worker) per request: the cost, whatever else runs on the machine.
        figures["cpu_ms"] = round((cpu_seconds(process) - before) * 1000 / max(figures["requests"], 1), 3)
        return figures

    def paced(url: str, script: Path | None, folder: str) -> dict:
        """The latency at about `--paced-rate` requests/s, not flat out: each connection waits
        between its requests (wrk's `delay`), the wait set from a short trial's latency."""
        period = args.connections * 1000 / args.paced_rate  # ms between one connection's requests
        paced_script = Path(folder) / f"paced-{script.stem if script else 'top50'}.lua"
        wait = period
        for seconds in (2, args.seconds):
            delay = f"delay = function() return {max(0, round(wait))} end\n"
            paced_script.write_text((script.read_text() if script else "") + delay)
            figures = measured(url, str(paced_script), seconds=seconds)
            wait = period - figures["p50_ms"]
        figures["offered_per_s"] = args.paced_rate
        return figures

    try:
        base = f"http://127.0.0.1:{port}/api/leaderboards/?rules=classic"
        players = session_cookies(size=size, count=min(SESSIONS, size), rng=rng)
        with tempfile.TemporaryDirectory() as scripts:
            by_name, by_session = Path(scripts) / "name.lua", Path(scripts) / "me.lua"
            by_name.write_text(wrk_script(players, around="name"))
            by_session.write_text(wrk_script(players, around="me"))
            wrk(base, seconds=1, connections=args.connections)  # warm up every worker
            ask_each(port, players)  # each player's around read once: the names are kept
            wrk(base, seconds=1, connections=args.connections, script=str(by_session))
            figures = {
                "top50": measured(base),
                "around_player": measured(base, str(by_name)),
                "around": measured(base, str(by_session)),
            }
            if args.paced_rate:
                figures["paced"] = {
                    "top50": paced(base, None, scripts),
                    "around_player": paced(base, by_name, scripts),
                }
            return figures
    finally:
        stop(process)


def ask_each(port: int, players: list[tuple[str, str]]) -> None:
    """GET around each player once, in turn, on one connection."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for _key, name in players:
        connection.request("GET", f"/api/leaderboards/?rules=classic&around={name}")
        response = connection.getresponse()
        response.read()
        assert response.status == 200, (name, response.status)
    connection.close()


def wrk_script(players: list[tuple[str, str]], *, around: str) -> str:
    """A wrk script asking around a random player with the player's session and language
    cookies, as the page asks: by name (public), or around=me (through the session)."""
    rows = ",".join(f'{{"{key}","{name}"}}' for key, name in players)
    query = '"me"' if around == "me" else "player[2]"
    return (
        f"players = {{{rows}}}\n"
        "request = function()\n"
        "  local player = players[math.random(#players)]\n"
        f'  return wrk.format("GET", "/api/leaderboards/?rules=classic&around=" .. {query},\n'
        '    {["Cookie"] = "sessionid=" .. player[1] .. "; django_language=en"})\n'
        "end\n"
    )


# --- Report -----------------------------------------------------------------------------------------


def table(results: dict) -> str:
    lines = [
        "| Players | Path | Top 50 | Around a player (public) | Around me | Rank |",
        "| ---: | --- | --- | --- | --- | --- |",
    ]

    def cell(figure: dict | None) -> str:
        if not figure:
            return "—"
        extra = f", {figure['errors']} errors" if figure.get("errors") else ""
        if "cpu_ms" in figure:
            extra += f", CPU {figure['cpu_ms']:.2f} ms"
        return f"{figure['p50_ms']:.2f} / {figure['p99_ms']:.2f} ms, {figure['per_s']:,}/s{extra}"

    names = {
        "index": f"Redis index alone ({results.get('index', 'sorted_set')})",
        "package": "PyPI `leaderboard` 3.7.3, same Redis",
        "service_redis": "service layer, Redis",
        "service_sql": "service layer, SQL only",
        "http": f"HTTP, gunicorn ({results['workers']} × {results['threads']} threads), wrk",
    }
    for size, figures in results["sizes"].items():
        if paced := figures.get("http", {}).get("paced"):
            figures = {**figures, "http_paced": paced}
            names["http_paced"] = f"HTTP as above, about {paced['top50']['offered_per_s']:,}/s offered"
        for path, name in names.items():
            if path in figures:
                row = figures[path]
                cells = " | ".join(cell(row.get(op)) for op in ("top50", "around_player", "around", "rank"))
                lines.append(f"| {int(size):,} | {name} | {cells} |")
    return "\n".join(lines)


def main() -> None:
    args = parse_args()
    if args.index == "histogram":
        args.skip_package = True  # the package reads one sorted set a board
    sizes = sorted(int(size) for size in args.sizes.split(","))
    if not args.skip_http and not shutil.which("wrk"):
        sys.exit("wrk is needed for the HTTP measurements (apt-get install wrk), or use --skip-http")
    configure_environment(args)
    sys.path.insert(0, str(PROJECT))
    import redis

    bench_redis = redis.Redis.from_url(os.environ["REDIS_URL"])
    ours = (b"lb:", b"lb-", b"lbh:", b"lbh-", b"pkg:", b"cache:")  # boards, names, the package, the cache
    strangers = [key for key in bench_redis.scan_iter(count=1000) if not key.startswith(ours)]
    if strangers:
        sys.exit(
            f"Redis database {args.redis_db} holds keys of something else ({strangers[0]!r}): pick --redis-db"
        )
    bench_redis.flushdb()
    recreate_database(args)
    rng = random.Random(2026)
    results: dict = {"workers": args.workers, "threads": args.threads, "seconds": args.seconds,
                     "index": args.index, "sizes": {}}  # fmt: skip
    try:
        migrate()
        import django

        django.setup()
        from django.db import connection

        from leaderboard.index.wiring import index_board_rebuild

        if not args.skip_package:
            package_python()
        for size in sizes:
            print(f"== {size:,} players", flush=True)
            added, fill_seconds = fill_to(size, rng=rng)
            started = time.monotonic()
            loaded = index_board_rebuild(board=BOARD)
            rebuild_seconds = time.monotonic() - started
            print(f"  COPY of {added:,} players: {fill_seconds:.1f} s; Redis rebuild of {loaded:,}: "
                  f"{rebuild_seconds:.1f} s", flush=True)  # fmt: skip
            figures = {"fill_seconds": round(fill_seconds, 1), "rebuild_seconds": round(rebuild_seconds, 2),
                       "load_average": round(os.getloadavg()[0], 2)}  # fmt: skip
            figures.update(measure_service(size=size, seconds=args.seconds, rng=rng))
            if not args.skip_package:
                fill_package_set(bench_redis, board_key=f"lb:{BOARD}")
                figures["package"] = measure_package(args=args, size=size, seconds=args.seconds)
            connection.close()
            if not args.skip_http:
                figures["http"] = measure_http(args=args, size=size, rng=rng)
            results["sizes"][size] = figures
            print(table({**results, "sizes": {size: figures}}), flush=True)
            print(
                f"  load average {figures['load_average']} before, {os.getloadavg()[0]:.2f} after", flush=True
            )
    finally:
        from django.db import connections

        connections.close_all()
        bench_redis.flushdb()
        recreate_database(args, create=False)
    print("\n" + table(results))
    for size, figures in results["sizes"].items():
        if "package" in figures:
            ratios = {
                op: round(figures["package"][op]["p50_ms"] / figures["service_redis"][op]["p50_ms"], 2)
                for op in ("top50", "around", "rank")
            }
            index_ratios = {
                op: round(figures["package"][op]["p50_ms"] / figures["index"][op]["p50_ms"], 2)
                for op in ("top50", "around", "rank")
            }
            print(
                f"{int(size):,}: package p50 / ours p50 — service layer {ratios}, index alone {index_ratios}"
            )
    first, last = sizes[0], sizes[-1]
    if first != last:
        growth = results["sizes"][last]["service_redis"]["rank"]["p50_ms"] / results["sizes"][first][
            "service_redis"]["rank"]["p50_ms"]  # fmt: skip
        print(f"rank lookup on Redis, p50 at {last:,} / at {first:,}: {growth:.2f}×")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
