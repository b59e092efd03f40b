"""Reveals of hidden-card games (POST /api/games/<id>/reveals/) against the full stack.

    python bench/reveals.py [--seconds 10] [--connections 16] [--rate 200] [--web-workers 3]
                            [--keep] [--json]
    python bench/reveals.py --quick          # a sanity run: 3 s a measurement

Needs PostgreSQL and Redis on this machine (see docs/operations.md); it uses databases of its
own (`--database-url`, default postgres://postgres@127.0.0.1:5432/yukon_bench_reveals, dropped
and created again, dropped at the end unless --keep; `--redis-url`, default
redis://127.0.0.1:6379/9, refused if it holds keys of anyone else; the benchmark's own keys
are removed at the start and at the end unless --keep).

1. Setup (not timed): players made in bulk, each with a signed-in session and a CSRF token,
   each issued hidden-card games by the real service (games.issuing.services.game_issue) for deals
   whose winning logs we have. For each game, the requests a page playing its winning log
   sends: the log up to each move that turns up a face-down card (21 a game), with the page's
   times (the first move at 0, then 200-300 ms a move). A game's reveals go in order, each
   once the previous one is answered: a new card is revealed only to a log that extends the
   recorded prefix. The reveal throttle stays as deployed (THROTTLE_GAME_REVEAL, 120/min):
   each player holds only as many games as it lets through (5 of 21 reveals), so none is
   ever refused and its history in Redis stays the size a real player's has.
2. gunicorn serves the site as deployed (yukon_site/gunicorn_conf.py, DEBUG off, 3 sync workers
   as bench/submissions.py), with a short warm-up on games of its own.
3. Throughput: `--connections` reveals in flight (closed loop) for `--seconds`: reveals/s,
   p50/p99/max latency, gunicorn's CPU (all workers) per reveal.
4. Latency at a load: `--rate` reveals a second whatever the answers (open loop) for
   `--seconds`: p50/p99/max.

Every answer must be 200 with the place and the card of the full deal at the place the move
turned up (computed here by the engine from the game's code); any other answer is an error:
the run says so and exits with status 1. Goals on 2 cores (issue #13): ≥ 500 reveals/s, and
p99 < 50 ms at 200 reveals/s.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import math
import os
import random
import sys
import time
from urllib.parse import urlparse

from fullstack import (  # bench/, beside this script
    drive,
    drop_database,
    ensure_database,
    environment,
    free_port,
    issued_games,
    load_average,
    machine_cpu_seconds,
    setup_django,
    start_web,
    stop,
    winning_logs,
)
from process_cpu import cpu_seconds

GOAL_PER_SECOND = 500
GOAL_P99_MS = 50
RESERVED_REDIS_DBS = {0, 5, 6}  # the default one, and the tests'
# The keys the site writes during the run: the reveal throttle's, the Celery broker's binding.
OWN_REDIS_KEYS = ("cache:1:throttle_game_reveal_*", "_kombu.binding*")
MAX_REVEALS = 21  # face-down cards in a deal: a winning log turns up every one


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10, help="length of each measurement")
    parser.add_argument(
        "--connections", "--concurrency", type=int, default=16,
        help="reveals in flight for the throughput (0: skip it)",
    )  # fmt: skip
    parser.add_argument(
        "--rate", type=float, default=200, help="reveals/s offered for the latency at a load (0: skip it)"
    )
    parser.add_argument(
        "--ceiling", type=float, default=2000,
        help="reveals prepared for the throughput: this many a second of --seconds (a run that uses "
        "them all says so)",
    )  # fmt: skip
    parser.add_argument("--warm-up", type=float, default=2, help="seconds of warm-up, not counted")
    parser.add_argument("--quick", action="store_true", help="a sanity run: 3 s a measurement, 1 s warm-up")
    parser.add_argument("--web-workers", type=int, default=3, help="gunicorn worker processes")
    parser.add_argument("--web-threads", type=int, default=1, help="threads per gunicorn worker")
    parser.add_argument("--port", type=int, default=0, help="gunicorn's port (default: a free one)")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/yukon_bench_reveals")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--keep", action="store_true", help="keep the database and Redis's keys at the end")
    parser.add_argument("--seed", type=int, default=13, help="of the page's times")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.warm_up = 3, 1
    redis_db = int(urlparse(args.redis_url).path.lstrip("/") or 0)
    if redis_db in RESERVED_REDIS_DBS:
        parser.error(
            f"Redis database {redis_db} is not the benchmark's own (0 is the default, 5 and 6 the tests')"
        )
    return args


# --- Setup --------------------------------------------------------------------------------------------


def own_redis_database(url: str):
    """The benchmark's Redis database, emptied of its own keys; refused (exit) when it holds
    anyone else's: a test run or another benchmark may be using it."""
    import redis

    client = redis.Redis.from_url(url)
    own = sum(1 for pattern in OWN_REDIS_KEYS for _ in client.scan_iter(match=pattern))
    if client.dbsize() > own:
        sys.exit(f"Redis database {url} holds keys that are not this benchmark's: choose another --redis-url")
    remove_own_keys(client)
    return client


def remove_own_keys(client) -> None:
    for pattern in OWN_REDIS_KEYS:
        for key in client.scan_iter(match=pattern):
            client.delete(key)


def turned_up(code: str, log: str) -> list[dict]:
    """What the server must answer to each prefix of `log` whose last move turns up a face-down
    card: the place and the card there, read from the full deal's position."""
    from games.engine import Game, card_name

    game, answers = Game(code), []
    for length, token in enumerate(log.split(), start=1):
        before = game.face_down
        game.play(token)
        for column, (was, now) in enumerate(zip(before, game.face_down, strict=True)):
            if now < was:
                card = card_name(game.columns[column][now])
                answers.append(
                    {"place": {"column": column, "depth": now}, "card": card, "prefix_length": length}
                )
    return answers


def page_times(count: int, rng: random.Random) -> list[int]:
    """The page's clock at each of `count` moves: the first at 0, then 200-300 ms a move."""
    return list(itertools.accumulate([0] + [rng.randint(200, 300) for _ in range(count - 1)]))


def reveals_per_player() -> int:
    """The most reveals a player may send under the deployed throttle (THROTTLE_GAME_REVEAL)."""
    from games.throttles import GameRevealThrottle

    return GameRevealThrottle().num_requests or sys.maxsize


def prepare(needs: dict[str, int], rng: random.Random) -> dict[str, list[list[dict]]]:
    """For each measurement, games enough for `needs[name]` reveals: a list of streams, one a
    game, each the game's reveal requests in order."""
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    deals = [{**deal, "answers": turned_up(deal["code"], deal["log"])} for deal in winning_logs()]
    # No player sends more reveals than the throttle allows in a minute: none is ever refused.
    per_player = max(1, min(settings.GAMES_MAX_UNPLAYED, reveals_per_player() // MAX_REVEALS))
    streams = {}
    for name, need in needs.items():
        games = math.ceil(need / MAX_REVEALS) + 1
        streams[name] = []
        for session, game, deal in issued_games(
            players=math.ceil(games / per_player), per_player=per_player, deals=deals, hidden=True
        ):
            tokens = deal["log"].split()
            times = page_times(len(tokens), rng)
            streams[name].append([
                {**session, "path": f"/api/games/{game.pk}/reveals/", "expected": answer,
                 "json": json.dumps({"log": " ".join(tokens[:answer["prefix_length"]]),
                                     "move_times_ms": times[: answer["prefix_length"]]})}
                for answer in deal["answers"]
            ])  # fmt: skip
        rng.shuffle(streams[name])  # players' games interleaved, not one player's five in a row
    return streams


# --- Measurements ---------------------------------------------------------------------------------------


def revealed(item: dict, status: int, answer: bytes) -> str | None:
    """What is wrong with the answer to a reveal, or None."""
    where = f"{item['path']} (prefix of {item['expected']['prefix_length']} moves)"
    if status != 200:
        return f"HTTP {status} for {where}: {answer[:300]!r}"
    try:
        body = json.loads(answer)
    except ValueError:
        return f"not JSON for {where}: {answer[:300]!r}"
    if body != item["expected"]:
        return f"wrong answer for {where}: {body}, expected {item['expected']}"
    return None


def measure(web, port: int, streams: list[list[dict]], **how) -> dict:
    """Drive the streams (`how`: drive's concurrency, rate, seconds); the figures, the CPU per
    reveal of gunicorn, PostgreSQL, Redis, this client and the whole machine, and the load
    average before and after."""
    load_before, cpu_before, machine_before = load_average(), cpu_seconds(web), machine_cpu_seconds()
    figures = asyncio.run(drive(port, streams, check=revealed, **how))
    requests = max(figures["requests"], 1)
    machine = {name: value - machine_before[name] for name, value in machine_cpu_seconds().items()}
    seconds = {
        "gunicorn": cpu_seconds(web) - cpu_before,
        "postgres": machine["postgres"],
        "redis": machine["redis"],
        "client": figures["client_cpu_ms_per_request"] * requests / 1000,
    }
    # "other": everything else the machine ran meanwhile (other work on it, the kernel's share).
    seconds |= {"other": machine["machine"] - sum(seconds.values()), "machine": machine["machine"],
                "steal": machine["steal"]}  # fmt: skip
    figures["cpu_ms_per_reveal"] = {
        name: round(value * 1000 / requests, 2) for name, value in seconds.items()
    }
    figures["web_cpu_ms_per_reveal"] = figures["cpu_ms_per_reveal"]["gunicorn"]
    figures["load_average_before"], figures["load_average_after"] = load_before, load_average()
    return figures


def report(figures: dict) -> None:
    setup, t, r = figures["setup"], figures.get("throughput"), figures.get("at_rate")
    threads = f"{setup['web_workers']} workers × {setup['web_threads']} thread(s)"
    print(f"machine:     {setup['cpus']} CPUs; gunicorn {threads}")
    print(f"             load average (1 / 5 / 15 min) {setup['load_average_at_start']} at the start")

    def latencies(f: dict) -> str:
        return f"p50 {f['p50_ms']} ms, p99 {f['p99_ms']} ms, max {f['max_ms']} ms"

    def cpus(f: dict) -> str:
        cpu = f["cpu_ms_per_reveal"]
        return (f"CPU a reveal: gunicorn {cpu['gunicorn']} ms, PostgreSQL {cpu['postgres']}, Redis "
                f"{cpu['redis']}, this client {cpu['client']}, other work {cpu['other']}; the machine "
                f"{cpu['machine']} ms (steal {cpu['steal']})")  # fmt: skip

    def loads(f: dict) -> str:
        return f"load average {f['load_average_before']} before, {f['load_average_after']} after"

    if t:
        met = "met" if t["ok_per_second"] >= GOAL_PER_SECOND else "NOT met"
        print(f"throughput:  {setup['connections']} in flight for {t['seconds']} s: {t['ok']} reveals = "
              f"{t['ok_per_second']}/s (goal ≥ {GOAL_PER_SECOND}/s: {met})")  # fmt: skip
        print(f"             {latencies(t)}")
        print(f"             {cpus(t)}")
        print(f"             {loads(t)}")
        if t["ran_out"]:
            print(
                f"             !! the prepared reveals ran out before {setup['seconds']:g} s: raise --ceiling"
            )
    if r:
        met = "met" if r["p99_ms"] is not None and r["p99_ms"] < GOAL_P99_MS else "NOT met"
        print(f"at a load:   {setup['rate']:g}/s offered for {r['seconds']} s: {r['ok']} reveals = "
              f"{r['ok_per_second']}/s")  # fmt: skip
        print(f"             {latencies(r)} (goal p99 < {GOAL_P99_MS} ms: {met})")
        print(f"             {cpus(r)}")
        print(f"             sent late by p99 {r['sent_late_p99_ms']} ms; {loads(r)}")
        if r["starved_ticks"] or r["ran_out"]:
            ran_out = " and the prepared reveals ran out" if r["ran_out"] else ""
            print(f"             !! {r['starved_ticks']} arrivals found no game free to reveal{ran_out}")
    if figures["errors"]:
        print(f"!! ERRORS: {figures['errors']} answers were not 200 with the deal's card (the first ones "
              "on stderr): the figures above do not count")  # fmt: skip
    else:
        print("answers:     every one 200, with the card of the deal at the place turned up")


def main() -> None:
    args = parse_args()
    redis_db = own_redis_database(args.redis_url)
    ensure_database(args.database_url, fresh=True)
    env = environment(args)
    setup_django(env)
    needs = {"warm_up": math.ceil(args.ceiling * args.warm_up)}
    if args.connections:
        needs["throughput"] = math.ceil(args.ceiling * args.seconds)
    if args.rate:
        # Enough games that `rate` of them may wait on an answer at once (a second's latency)
        # before an arrival finds none free to reveal.
        needs["at_rate"] = math.ceil(max(args.rate * args.seconds * 1.1, args.rate * MAX_REVEALS))
    print(f"preparing games for {sum(needs.values())} reveals ...", file=sys.stderr)
    began = time.monotonic()
    streams = prepare(needs, random.Random(args.seed))
    print(
        f"prepared {sum(map(len, streams.values()))} games in {time.monotonic() - began:.0f} s",
        file=sys.stderr,
    )
    args.port = args.port or free_port()
    # Other processes on the machine skew the figures: the load is reported with them.
    figures = {
        "setup": {"web_workers": args.web_workers, "web_threads": args.web_threads, "seconds": args.seconds,
                  "connections": args.connections, "rate": args.rate, "cpus": os.cpu_count(),
                  "load_average_at_start": load_average(),
                  "games": {name: len(games) for name, games in streams.items()}},
    }  # fmt: skip
    web = start_web(env, port=args.port, workers=args.web_workers, threads=args.web_threads,
                    log_name="bench-reveals-gunicorn.log")  # fmt: skip
    try:
        connections = args.connections or 16
        print(f"warm-up: {args.warm_up:g} s ...", file=sys.stderr)
        warm = measure(web, args.port, streams["warm_up"], concurrency=connections, seconds=args.warm_up)
        errors = warm["errors"]
        if args.connections:
            print(f"throughput: {args.connections} in flight for {args.seconds:g} s ...", file=sys.stderr)
            figures["throughput"] = measure(
                web, args.port, streams["throughput"], concurrency=args.connections, seconds=args.seconds
            )
            errors += figures["throughput"]["errors"]
        if args.rate:
            print(f"latency: {args.rate:g} reveals/s for {args.seconds:g} s ...", file=sys.stderr)
            figures["at_rate"] = measure(
                web, args.port, streams["at_rate"], concurrency=0, rate=args.rate, seconds=args.seconds
            )
            errors += figures["at_rate"]["errors"]
    finally:
        stop(web)
        if not args.keep:
            remove_own_keys(redis_db)
            from django.db import connections as django_connections

            django_connections.close_all()
            drop_database(args.database_url)
    figures["errors"] = errors
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        report(figures)
    if errors:
        sys.exit(1)


if __name__ == "__main__":
    main()
