"""Submission intake and verification throughput against the full stack.

    python bench/submissions.py [--requests 2000] [--concurrency 16] [--web-workers 3]
                                [--web-threads 1] [--worker-concurrency 2]
                                [--solver-busy [--solver-niceness 0] [--solver-yield 0]]

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

`--solver-busy`: the solver's worker runs all along (from before intake to the end of
verification), with the par of 300 random deals queued first, 10 s each, at its niceness
(`--solver-niceness`, default the settings' 19), as after a busy hour of wins. As shipped its
searches wait while results wait on verification or the machine is busy (games/solving/yielding.py);
`--solver-yield 0` makes them search all along, whatever else runs.

Throttles are raised for the run (THROTTLE_SUBMISSION_CREATE). Goals on 2 cores: intake
≥ 200/s with p99 < 100 ms, verification ≥ 200/s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import uuid
from collections import Counter
from datetime import timedelta
from pathlib import Path

from fullstack import (  # bench/, beside this script
    LOG_DIR,
    drive,
    ensure_database,
    environment,
    free_port,
    issued_games,
    setup_django,
    start,
    start_web,
    stop,
    winning_logs,
)
from process_cpu import cpu_seconds

PACE_MS = 170


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
    parser.add_argument(
        "--solver-busy", action="store_true",
        help="run the solver's worker (celery -Q solver -c 1) searching par all along, as after many wins",
    )  # fmt: skip
    parser.add_argument(
        "--solver-niceness", type=int, default=None,
        help="the solver worker's SOLVER_WORKER_NICENESS (default: the settings' 19; 0: no lower priority)",
    )  # fmt: skip
    parser.add_argument(
        "--solver-yield", type=int, choices=(0, 1), default=1,
        help="1 (as shipped): the solver's searches give way to intake and verification; 0: they never wait",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    return parser.parse_args()


def solver_busy_start(env: dict[str, str], args) -> tuple:
    """The solver's worker as deployed, with a queue of par searches (10 s each) longer than the run:
    one core's worth of searching, at the worker's niceness, all through intake and verification."""
    import random

    from games.engine import GameCode, Rules
    from games.tasks import deal_par_solve_task

    solver_env = {**env, "SOLVER_PAR_TIME_LIMIT": "10"}
    if args.solver_niceness is not None:
        solver_env["SOLVER_WORKER_NICENESS"] = str(args.solver_niceness)
    solver_env["SOLVER_YIELD"] = str(args.solver_yield)
    command = [sys.executable, "-m", "celery", "-A", "yukon_site", "worker", "-Q", "solver", "-c", "1",
               "--hostname", f"bench-solver-{os.getpid()}@%h", "--loglevel", "WARNING"]  # fmt: skip
    rng = random.Random(11)
    for _ in range(300):
        deal_par_solve_task.apply_async((str(GameCode(Rules.CLASSIC, rng.randrange(1, 26**7))),))
    solver = start(command, solver_env, LOG_DIR / "bench-solver.log")
    time.sleep(5)  # started, and searching
    return solver, cpu_seconds(solver), time.monotonic()


def solver_busy_stop(solver) -> dict:
    process, cpu_at_start, started = solver
    busy = (cpu_seconds(process) - cpu_at_start) / (time.monotonic() - started)
    stop(process)
    return {"solver_cores_busy": round(busy, 2)}


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


def prepare(count: int) -> list[dict]:
    """Players, sessions and issued games; returns one request body (with its cookies) per game."""
    from django.conf import settings
    from django.core.management import call_command
    from django.utils import timezone

    from accounts.models import User
    from games.models import IssuedGame, Submission

    call_command("migrate", verbosity=0)
    Submission.objects.all().delete()
    IssuedGame.objects.all().delete()
    User.objects.filter(username__startswith="bench-").delete()
    per_player = settings.GAMES_MAX_UNPLAYED
    bodies = []
    for session, game, deal in issued_games(
        players=(count + per_player - 1) // per_player, per_player=per_player, deals=winning_logs(),
        now=timezone.now() - timedelta(hours=1),
    ):  # fmt: skip
        log = variant(deal["log"], len(bodies))
        times = [PACE_MS * (i + 1) for i in range(len(log.split()))]
        bodies.append({
            **session,
            "path": "/api/submissions/",
            "json": json.dumps({
                "client_id": str(uuid.uuid4()), "game": game.pk, "log": log,
                "move_times_ms": times, "duration_ms": times[-1] + 500,
                "finished_at": timezone.now().isoformat(), "client_version": "bench",
            }),
        })  # fmt: skip
    return bodies[:count]


async def intake(port: int, items: list[dict], concurrency: int, rate: float = 0) -> dict:
    """POST every item: `concurrency` at a time (closed loop), or one every 1/`rate` s (open loop)."""

    def accepted(item: dict, status: int, answer: bytes) -> str | None:
        return None if status == 202 else f"HTTP {status}: {answer[:300]!r}"

    figures = await drive(
        port, [[item] for item in items], concurrency=concurrency, rate=rate, check=accepted
    )
    return {
        "requests": figures["requests"],
        "accepted": figures["ok"],
        "other_statuses": {status: n for status, n in figures["statuses"].items() if status != "202"},
        "seconds": figures["seconds"],
        "accepted_per_second": figures["ok_per_second"],
        "p50_ms": figures["p50_ms"],
        "p99_ms": figures["p99_ms"],
    }


def verification_unacked(broker) -> int:
    """Messages of the default queue reserved and not yet acknowledged (the solver's worker, with
    `--solver-busy`, always holds one of its own in the same hash)."""
    return sum(json.loads(value)[2] == "celery" for value in broker.hvals("unacked"))


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
        while broker.llen("celery") or verification_unacked(broker):
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
    env = environment(args, THROTTLE_SUBMISSION_CREATE="1000000/min", THROTTLE_GAME_ISSUE="1000000/min")
    setup_django(env)
    import redis

    redis.Redis.from_url(args.redis_url).flushdb()
    print(f"preparing {args.requests} issued games ...", file=sys.stderr)
    items = prepare(args.requests)
    args.port = args.port or free_port()
    LOG_DIR.mkdir(exist_ok=True)
    solver = solver_busy_start(env, args) if args.solver_busy else None
    # Other processes on the machine skew the figures: the load is reported with them.
    load_at_start = round(os.getloadavg()[0], 2)
    web = start_web(env, port=args.port, workers=args.web_workers, threads=args.web_threads,
                    log_name="bench-gunicorn.log")  # fmt: skip
    try:
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
    try:
        verify_figures = verification(env, args, total, LOG_DIR)
    finally:
        solver_figures = solver_busy_stop(solver) if solver else {}
    figures = {
        "intake": intake_figures,
        "verification": verify_figures,
        "setup": {"web_workers": args.web_workers, "web_threads": args.web_threads,
                  "worker_concurrency": args.worker_concurrency,
                  "cpus": os.cpu_count(), "load_average_at_start": load_at_start,
                  "solver_busy": args.solver_busy, "solver_yield": bool(args.solver_yield), **solver_figures},
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
    if solver:
        niceness = "the settings'" if args.solver_niceness is None else args.solver_niceness
        waits = "giving way to intake and verification" if args.solver_yield else "never waiting"
        print(f"solver:        par searches queued all along (niceness {niceness}, {waits}): "
              f"{solver_figures['solver_cores_busy']} cores busy on average")  # fmt: skip


if __name__ == "__main__":
    main()
