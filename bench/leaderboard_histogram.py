"""Boards split by score (leaderboard.index.histogram) beside one sorted set a board (index.sorted_sets).

    .venv/bin/python bench/leaderboard_histogram.py                      # 1M and 10M players
    .venv/bin/python bench/leaderboard_histogram.py --sizes 100000 --seconds 2

Needs Redis only. It uses a Redis database of its own (`--redis-db`, 11 by default: refused if
it holds keys of something else, emptied at the start and at the end). For each size, one board
is filled with players whose scores tie a lot, as wins do (most between 6,900 and 7,150; some
lower wins; a few scores of games not won, 1 … 5,199), received over a year (whole seconds):

- split by score: `HistogramBoard.build` (the rebuild path: records by shard, score sets by
  multi-member ZADD), then measured, then the database emptied;
- today's index: one sorted set keyed by the sort key with its sentinel, filled by pipelined
  multi-member ZADD (the details hash is left out of both), read through `RedisBoardIndex`.

Per operation it prints p50 / p99 in ms of one client (a random player for rank and
around-me: the player's entry with 10 rows either side; the first page of 50 for top 50), and
the memory per entry: INFO used_memory after − before, ÷ players (the whole server: other
work on it moves this figure), and the MEMORY USAGE of the benchmark's own keys ÷ players.
The machine has 2 cores; the client and Redis share them.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))  # the project's `leaderboard` package, not bench/leaderboard.py


def _bench_module(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


measure = _bench_module("leaderboard").measure  # the same timing as bench/leaderboard.py
BOARD = "classic:all"
T0 = 1_764_547_200  # 2025-12-01 00:00 UTC
YEAR = 365 * 24 * 3600
OURS = (b"lbh:", b"lb:")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000000,10000000", help="players per run, ascending")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each measurement")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379", help="server URL")
    parser.add_argument("--redis-db", type=int, default=11, help="emptied at the start and the end")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    return parser.parse_args()


def rows(size: int, *, seed: int = 2026):
    """(user_id, score, seconds) for players 1 … size; the first n rows are the same for every size."""
    rng = random.Random(seed)
    draw = rng.random
    for user_id in range(1, size + 1):
        kind = draw()
        if kind < 0.85:  # most wins: 2,000 + 5,200 − moves, moves mostly 50 … 300
            score = 7150 - int(250 * draw() * draw())
        elif kind < 0.97:
            score = 2200 + int(4700 * draw())
        else:  # a game not won: 100 × foundation cards − moves
            score = 1 + int(5199 * draw())
        yield user_id, score, T0 - int(YEAR * draw())


def used_memory(client) -> int:
    return int(client.info("memory")["used_memory"])


def keys_memory(client) -> int:
    """MEMORY USAGE of every key of this database, every element counted (SAMPLES 0): ours
    alone, whatever other databases of the same server do meanwhile."""
    total, pipe = 0, client.pipeline(transaction=False)
    for key in client.scan_iter(count=1000):
        pipe.memory_usage(key, samples=0)
        if len(pipe) == 1000:
            total += sum(pipe.execute())
    return total + sum(pipe.execute())


def fill_sorted_set(client, size: int) -> None:
    from leaderboard.index.histogram.board import sort_key
    from leaderboard.index.sorted_sets import SENTINEL, SENTINEL_SCORE, member_for

    key = f"lb:{BOARD}"
    client.zadd(key, {SENTINEL: SENTINEL_SCORE})
    pipe, mapping = client.pipeline(transaction=False), {}
    for user_id, score, seconds in rows(size):
        mapping[member_for(user_id)] = sort_key(score, seconds)
        if len(mapping) == 10_000:
            pipe.zadd(key, mapping)
            mapping = {}
            if len(pipe) == 20:
                pipe.execute()
    if mapping:
        pipe.zadd(key, mapping)
    pipe.execute()


def measure_board(client, *, size: int, fill, rank, top50, around, seconds: float) -> dict:
    """`fill()` the board, then time its reads (the same random players for every board); the
    database is emptied afterwards."""
    pick = random.Random(size).randint
    before = used_memory(client)
    started = time.monotonic()
    fill()
    filled = time.monotonic() - started
    memory = used_memory(client) - before
    figures = {
        "fill_s": round(filled, 1),
        "bytes_per_entry": round(memory / size, 1),
        "key_bytes_per_entry": round(keys_memory(client) / size, 1),
        "keys": client.dbsize(),
        "rank": measure(lambda: rank(pick(1, size)), seconds=seconds),
        "top50": measure(top50, seconds=seconds),
        "around": measure(lambda: around(pick(1, size)), seconds=seconds),
    }
    client.flushdb()
    return figures


def run_size(client, size: int, *, seconds: float) -> dict:
    from leaderboard.index.histogram.board import HistogramBoard
    from leaderboard.index.sorted_sets import RedisBoardIndex

    board = HistogramBoard(client)

    def build():
        assert board.build(BOARD, rows(size)) == size == board.count(BOARD)

    figures = {}
    figures["histogram"] = measure_board(
        client, size=size, fill=build, seconds=seconds,
        rank=lambda user: board.rank(BOARD, user_id=user),
        top50=lambda: board.top(BOARD, limit=50),
        around=lambda user: board.around(BOARD, user_id=user, span=10),
    )  # fmt: skip
    print(f"  split by score: {json.dumps(figures['histogram'])}", flush=True)
    index = RedisBoardIndex(client)
    figures["sorted_set"] = measure_board(
        client, size=size, fill=lambda: fill_sorted_set(client, size), seconds=seconds,
        rank=lambda user: index.rank(BOARD, user_id=user),
        top50=lambda: index.page(BOARD, limit=50),
        around=lambda user: index.around(BOARD, user_id=user, span=10),
    )  # fmt: skip
    return figures


def table(results: dict) -> str:
    names = {"histogram": "split by score", "sorted_set": "one sorted set (today)"}
    lines = [
        "| players | board | rank p50 / p99 ms | top 50 p50 / p99 ms | around-me p50 / p99 ms "
        "| bytes / entry | keys' bytes / entry | fill s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for size, figures in results.items():
        for path, name in names.items():
            row = figures[path]
            cells = " | ".join(
                f"{row[op]['p50_ms']:.3f} / {row[op]['p99_ms']:.3f}" for op in ("rank", "top50", "around")
            )
            memory = f"{row['bytes_per_entry']:.0f} | {row['key_bytes_per_entry']:.0f}"
            lines.append(f"| {int(size):,} | {name} | {cells} | {memory} | {row['fill_s']} |")
    return "\n".join(lines)


def main() -> None:
    args = parse_args()
    sizes = sorted(int(size) for size in args.sizes.split(","))
    import redis

    client = redis.Redis.from_url(
        f"{args.redis}/{args.redis_db}", socket_timeout=600
    )  # FLUSHDB of 10M: seconds
    strangers = [key for key in client.scan_iter(count=1000) if not key.startswith(OURS)]
    if strangers:
        sys.exit(
            f"Redis database {args.redis_db} holds keys of something else ({strangers[0]!r}): pick --redis-db"
        )
    client.flushdb()
    results: dict = {}
    try:
        for size in sizes:
            print(f"== {size:,} players (load average {os.getloadavg()[0]:.2f})", flush=True)
            results[size] = run_size(client, size, seconds=args.seconds)
            print(table({size: results[size]}), flush=True)
    finally:
        client.flushdb()
    print("\n" + table(results))
    first, last = sizes[0], sizes[-1]
    if first != last:
        for path in ("histogram", "sorted_set"):
            growth = results[last][path]["rank"]["p50_ms"] / results[first][path]["rank"]["p50_ms"]
            print(f"{path}: rank p50 at {last:,} / at {first:,}: {growth:.2f}×")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
