"""Playing a race's seat as a page does, with the server's clock given: reveals, progress, result."""

from __future__ import annotations

import json
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from pathlib import Path

from django.db import connections
from django.utils import timezone
from factories import then_legal_moves

from games.engine import Game
from games.hidden.reveals import game_reveal
from games.log_input import SubmissionInput
from games.submissions.intake import submission_create
from races import services
from races.models import Race, RaceSeat
from races.play import playing_seat, seat_progress_record

_CASES = json.loads((Path(__file__).resolve().parents[1] / "games/engine/vectors/logs.json").read_text())[
    "cases"
]
CLASSIC_WIN = next(
    {"code": case["code"], "log": case["log"], "moves": case["verdict"]["moves"]}
    for case in _CASES
    if case["code"] == "YU1-C-AAAAAAA" and case["verdict"]["won"] and "U" not in case["log"].split()
)

# On CLASSIC_WIN's deal, 7♥ (and 9 cards on it) to column 4 where the win plays 8♣ to column 1
# loses the deal: the position after it has no win, and each of the analysis's solves around it
# is small.
LOST_AT, BLUNDER = 17, "7H>4"

LONG_AGO = timedelta(hours=1)
PACE_MS = 400  # a human pace, above every timing check
LATENCY_MS = 40


def losing_log(extra: int = 3) -> list[str]:
    """CLASSIC_WIN's first LOST_AT moves, BLUNDER, then `extra` more legal moves: a lost game."""
    return then_legal_moves(CLASSIC_WIN["code"], [*CLASSIC_WIN["log"].split()[:LOST_AT], BLUNDER], extra)


def race_of(users: list, *, seats: int | None = None, limit: int | None = None, at: datetime) -> Race:
    """A classic race of `users` created at `at` by the first (its host), joined by the others;
    started by its host if not full."""
    host, *others = users
    race = services.race_create(
        user=host, rules="classic", seats=seats or len(users), time_limit_minutes=limit, now=at
    )
    for user in others:
        services.race_join(user=user, public_id=race.public_id, now=at)
    race.refresh_from_db()
    if race.state == Race.State.LOBBY:
        services.race_start(user=host, public_id=race.public_id, now=at)
        race.refresh_from_db()
    return race


def started_race(make_player, *, seats: int = 2, players: int = 2, limit=None, ago=LONG_AGO) -> Race:
    """A race created `ago` by player 1, joined by the others; started by its host if not full."""
    users = [make_player() for _ in range(players)]
    return race_of(users, seats=seats, limit=limit, at=timezone.now() - ago)


def seats_of(race: Race) -> list[RaceSeat]:
    return list(race.seat_rows.select_related("game", "user", "race"))


def paced(count: int, *, first_ms: int = 1000) -> list[int]:
    return [first_ms + PACE_MS * index for index in range(count)]


def server_time(seat: RaceSeat, page_ms: int) -> datetime:
    """When the server receives what the page sent at its clock `page_ms` (counted from the start)."""
    return seat.game.issued_at + timedelta(milliseconds=page_ms + LATENCY_MS)


def progress(*, user, public_id: str, log: str, move_times_ms: list[int], now=None):
    """What a seat's socket does with a move's progress (races/consumers.py): finds the seat, then
    replays the log; the socket then tells the room, which the socket tests see."""
    seat = playing_seat(user=user, public_id=public_id, now=now)
    return seat_progress_record(seat=seat, user=user, log=log, move_times_ms=move_times_ms, now=now)


def play(seat: RaceSeat, log: str, *, upto: int | None = None, progress_every: int = 1) -> list[int]:
    """Play the first `upto` tokens of `log` at the seat's table: each card it turns up revealed
    when its move is made, the race told the progress every `progress_every` moves. The times."""
    tokens = log.split()[:upto]
    times = paced(len(tokens))
    game = Game(seat.game.code)
    for length, token in enumerate(tokens, start=1):
        before = game.face_down
        game.play(token)
        now = server_time(seat, times[length - 1])
        prefix, prefix_times = " ".join(tokens[:length]), times[:length]
        if game.face_down != before:
            game_reveal(user=seat.user, game_id=seat.game_id, log=prefix, move_times_ms=prefix_times, now=now)
        if length % progress_every == 0 or length == len(tokens):
            progress(
                user=seat.user, public_id=seat.race.public_id, log=prefix, move_times_ms=prefix_times, now=now
            )
    return times


def submit(seat: RaceSeat, log: str, times: list[int]):
    """The finished game's result, as the page's outbox sends it."""
    now = server_time(seat, times[-1] + 500)
    data = SubmissionInput(
        client_id=uuid.uuid4(),
        log=log,
        move_times_ms=times,
        duration_ms=times[-1],
        finished_at=now,
        game_id=seat.game_id,
    )
    submission, _ = submission_create(user=seat.user, data=data, now=now)
    return submission


def off_the_event_loop(function, /, *args, **kwargs):
    """Call `function` in a thread of its own. This process's main thread may hold a running
    event loop (pytest-playwright's, left by a browser test earlier in the run), and a call that
    tells a race's room (async_to_sync) refuses to run in a thread that has one. The thread's
    database connections are closed before it ends."""

    def call():
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call).result()
