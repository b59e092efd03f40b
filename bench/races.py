"""Races' WebSockets under load: many rooms of players sending their progress at once.

    python bench/races.py [--rooms 100] [--seats 6] [--seconds 30] [--interval 5.0]
                          [--asgi-processes 2] [--keep] [--json]
    python bench/races.py --quick          # 10 rooms, 10 s

Needs PostgreSQL and Redis on this machine (docs/operations.md). Its own databases:
`--database-url` (default postgres://postgres@127.0.0.1:5432/yukon_bench_races, made afresh,
dropped at the end unless --keep) and `--redis-url` (default redis://127.0.0.1:6379/10, refused
when it holds anything: the channel layer's keys are the benchmark's own).

1. Setup (not timed): `rooms × seats` players, each signed in; each room a race made by the real
   services (races.services: create, seats, start, so every seat holds a hidden-card game of one
   deal whose winning log we have). The games' face-down cards are marked revealed in the rows
   (the benchmark measures the sockets, not the reveals: bench/reveals.py does those), so every
   prefix of the winning log is a legal progress.
2. `--asgi-processes` Daphne processes serve `/ws/` as deployed (DEBUG off, the Redis channel
   layer); the players' sockets are spread over them, so the rooms' messages cross processes.
3. Every player connects (a signed-in session, the site's origin), then sends its progress
   every `--interval` seconds (5 s: a human's pace, a 100-move game in about 8 minutes; the
   first at a random moment of the first
   interval): the log one move longer each time, as a page does after each move. The server
   replays it, records it and tells the room; every socket of the room (the sender's too) must
   receive each seat's figures. Fan-out latency: from the send to each receipt, on one clock.
4. After `--seconds`, 5 s for the last messages, then: messages sent, deliveries expected and
   received (a missing one is lost), latency p50/p99/max, the Daphne processes' CPU per message.

Goals on 2 cores (issue #14): ≥ 600 clients in 100 rooms, p99 < 100 ms, no lost message.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path

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
    stop,
    winning_logs,
)

DRAIN_SECONDS = 5.0
HANDSHAKES_AT_ONCE = 20


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between a player's moves")
    parser.add_argument("--asgi-processes", type=int, default=2)
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/yukon_bench_races")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/10")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--quick", action="store_true", help="10 rooms for 10 s: a sanity run")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    if args.quick:
        args.rooms, args.seconds = 10, 10.0
    return args


def empty_redis(url: str):
    import redis

    client = redis.Redis.from_url(url)
    if client.dbsize():
        sys.exit(f"Redis database {url} is not empty: choose another --redis-url")
    return client


# --- Setup --------------------------------------------------------------------------------------


def prepare(*, rooms: int, seats: int) -> list[dict]:
    """[{race, player, cookie, log}] for every seat of `rooms` started races."""

    from accounts.models import User
    from games.engine import CARD_NAMES, FACE_DOWN_PLACES, dealt_card
    from games.issuing.dealing import known_deals
    from games.models import IssuedGame
    from races import services
    from races.models import RaceSeat

    classic = [deal for deal in winning_logs() if "-C-" in deal["code"]]
    players = User.objects.bulk_create(
        User(username=f"racer-{i}", display_name=f"racer-{i}", password="!") for i in range(rooms * seats)
    )
    seated = []
    for room in range(rooms):
        deal = classic[room % len(classic)]
        members = players[room * seats : (room + 1) * seats]
        race = services.race_create(user=members[0], rules="classic", seats=seats, time_limit_minutes=None)
        RaceSeat.objects.bulk_create(
            RaceSeat(race=race, user=member, joined_at=race.created_at, last_seen_at=race.created_at)
            for member in members[1:]
        )
        with known_deals([deal["code"]]):  # the race deals it as a whole shuffle (its YU2 code)
            services.race_start(user=members[0], public_id=race.public_id)
        revealed = [
            {
                "column": c,
                "depth": d,
                "card": CARD_NAMES[dealt_card(deal["code"], (c, d))],
                "prefix_length": 0,
            }
            for c, d in FACE_DOWN_PLACES
        ]
        IssuedGame.objects.filter(race_seat__race=race).update(revealed=revealed)
        for member in members:
            seated.append(
                {
                    "race": race.public_id,
                    "player": member.display_name,
                    "cookie": signed_in(member)["cookie"],
                    "log": deal["log"].split(),
                }  # fmt: skip
            )
    return seated


# --- The clients ------------------------------------------------------------------------------------


class Tally:
    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.sent: dict[tuple[str, int], float] = {}
        self.latencies: list[float] = []
        self.received = 0
        self.refused: list[dict] = []
        self.connected = 0


async def client(
    handshakes: asyncio.Semaphore,
    seat: dict,
    port: int,
    tally: Tally,
    *,
    go: asyncio.Event,
    stop_at: list[float],
    interval: float,
    rng,
):
    from websockets.asyncio.client import connect

    uri = f"ws://127.0.0.1:{port}/ws/races/{seat['race']}/"
    headers = {"Cookie": seat["cookie"]}
    origin = f"http://127.0.0.1:{port}"
    async with handshakes:  # players arrive over seconds, not all in one millisecond
        socket = await connect(
            uri,
            origin=origin,
            additional_headers=headers,
            open_timeout=60,
            max_queue=None,
            ping_interval=None,  # noqa: E501
        )
        first = json.loads(await socket.recv())
    async with socket:
        assert first["type"] == "race", first
        tally.connected += 1

        async def receive():
            async for text in socket:
                message = json.loads(text)
                if message["type"] == "progress":
                    sent = tally.sent.get((message["player"], message["moves"]))
                    if sent is not None:
                        tally.latencies.append(time.monotonic() - sent)
                        tally.received += 1
                elif message["type"] == "refused":
                    tally.refused.append(message)

        listener = asyncio.create_task(receive())
        await go.wait()
        await asyncio.sleep(rng.uniform(0, interval))
        tokens, times, moves = seat["log"], [], 0
        while time.monotonic() < stop_at[0] and moves < len(tokens):
            moves += 1
            times.append(int(moves * interval * 1000))
            tally.sent[(seat["player"], moves)] = time.monotonic()
            await socket.send(
                json.dumps({"type": "progress", "log": " ".join(tokens[:moves]), "move_times_ms": times})
            )
            await asyncio.sleep(interval)
        await asyncio.sleep(max(0.0, stop_at[0] + DRAIN_SECONDS - time.monotonic()))
        listener.cancel()


async def run_clients(seated: list[dict], ports: list[int], args, on_go) -> tuple[Tally, float, float]:
    """Connect every player, then (`on_go()`, the measurement's start) let them play."""
    tally, go, stop_at = Tally(args.seats), asyncio.Event(), [0.0]
    handshakes = asyncio.Semaphore(HANDSHAKES_AT_ONCE)
    rng = random.Random(args.seed)
    began = time.monotonic()
    tasks = [
        asyncio.create_task(
            client(
                handshakes,
                seat,
                ports[index % len(ports)],
                tally,
                go=go,
                stop_at=stop_at,
                interval=args.interval,
                rng=rng,
            )
        )
        for index, seat in enumerate(seated)
    ]
    while tally.connected < len(seated):
        if any(task.done() for task in tasks):
            for task in tasks:
                if task.done() and task.exception():
                    raise task.exception()
        await asyncio.sleep(0.1)
    connect_seconds = time.monotonic() - began
    stop_at[0] = time.monotonic() + args.seconds
    on_go()
    go.set()
    await asyncio.gather(*tasks)
    return tally, connect_seconds, args.seconds


# --- Measuring ---------------------------------------------------------------------------------------


def asgi_command(port: int) -> list[str]:
    """Daphne serving the site on `port`, as make stack runs it."""
    return [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "yukon_site.asgi:application"]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    args = parse_args()
    redis_client = empty_redis(args.redis_url)
    ensure_database(args.database_url, fresh=True)
    env = environment(args, RACE_COUNTDOWN_SECONDS="0", RACE_GRACE_SECONDS="3600")
    os.environ["RACE_COUNTDOWN_SECONDS"] = "0"  # the setup's races start at once
    setup_django(env)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    began = time.monotonic()
    seated = prepare(rooms=args.rooms, seats=args.seats)
    print(f"prepared {args.rooms} races of {args.seats} in {time.monotonic() - began:.0f} s", file=sys.stderr)
    LOG_DIR.mkdir(exist_ok=True)
    ports = [free_port() for _ in range(args.asgi_processes)]
    servers = [start(asgi_command(port), env, LOG_DIR / f"bench-races-daphne-{port}.log") for port in ports]
    try:
        time.sleep(3)
        cpu_before = []
        load_before = load_average()

        def measure_from_now():  # the connections' CPU (sessions, first race) is not the messages'
            cpu_before.append(sum(cpu_seconds(server.pid) for server in servers))

        tally, connect_seconds, seconds = asyncio.run(run_clients(seated, ports, args, measure_from_now))
        cpu = sum(cpu_seconds(server.pid) for server in servers) - cpu_before[0]
    finally:
        for server in servers:
            stop(server)
        redis_client.flushdb()
        if not args.keep:
            drop_database(args.database_url)
    sent = len(tally.sent)
    expected = sent * args.seats
    ordered = sorted(tally.latencies)
    figures = {
        "clients": len(seated),
        "rooms": args.rooms,
        "asgi_processes": args.asgi_processes,
        "seconds": seconds,
        "interval_s": args.interval,
        "connect_all_s": round(connect_seconds, 2),
        "messages_sent": sent,
        "messages_per_s": round(sent / seconds, 1),
        "deliveries_expected": expected,
        "deliveries_received": tally.received,
        "lost": expected - tally.received,
        "refused": len(tally.refused),
        "fanout_ms": {
            "p50": round(percentile(ordered, 0.5) * 1000, 1) if ordered else None,
            "p99": round(percentile(ordered, 0.99) * 1000, 1) if ordered else None,
            "max": round(ordered[-1] * 1000, 1) if ordered else None,
        },
        "asgi_cpu_ms_per_message": round(cpu * 1000 / sent, 2) if sent else None,
        "load_average_before": load_before,
        "load_average_after": load_average(),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    f = figures
    print(f"clients:     {f['clients']} in {f['rooms']} rooms on {f['asgi_processes']} Daphne processes "
          f"(all connected in {f['connect_all_s']} s)")  # fmt: skip
    print(f"progress:    {f['messages_sent']} messages in {seconds:.0f} s ({f['messages_per_s']}/s), "
          f"one a player every {args.interval} s")  # fmt: skip
    print(f"fan-out:     {f['deliveries_received']} of {f['deliveries_expected']} deliveries, "
          f"lost {f['lost']}, refused {f['refused']}")  # fmt: skip
    fanout = f["fanout_ms"]
    print(f"latency:     p50 {fanout['p50']} ms, p99 {fanout['p99']} ms, max {fanout['max']} ms")
    print(f"ASGI CPU:    {f['asgi_cpu_ms_per_message']} ms a message (all processes)")
    print(f"load avg:    {f['load_average_before']} before, {f['load_average_after']} after")
    if tally.refused:
        print(f"!! refused: {tally.refused[:3]}")
    if f["lost"] or tally.refused:
        sys.exit(1)


if __name__ == "__main__":
    main()
