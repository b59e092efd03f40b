"""A race survives a Redis restart (docs/races.md, "When the channel layer breaks"): Daphne and
this process share a Redis of the test's own, which the test stops for 5 s and starts again.
Each socket then follows the page's rule (race_socket.js): a connection that hears nothing
for HEARD_WITHIN_S, or that the server closes, comes back and reads the race again."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from factories import free_port
from race_play import CLASSIC_WIN, off_the_event_loop
from test_race_stack import Daphne, connect
from websockets.exceptions import ConnectionClosed

from games.engine import Game
from games.hidden.reveals import game_reveal
from races import services

HEARD_WITHIN_S = 12  # race_socket.js's HEARD_WITHIN_MS: the page closes a connection silent so long

pytestmark = [
    pytest.mark.stack,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server: starts its own"),
]

WIN = CLASSIC_WIN["log"].split()
STEP_MS = 250
SEEN_WITHIN_S = 15  # the promise: both pages see the other's next move within 15 s
DOWN_S = 5


class PrivateRedis:
    """A redis-server of the test's own (the shared one serves other tests at the same time)."""

    def __init__(self, log_path: Path) -> None:
        self.port, self.log_path, self.process = free_port(), log_path, None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        self.process = subprocess.Popen(command, stdout=self.log_path.open("a"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        ping = ["redis-cli", "-p", str(self.port), "ping"]
        while subprocess.run(ping, capture_output=True).stdout != b"PONG\n":
            assert time.monotonic() < deadline, self.log_path.read_text()
            time.sleep(0.1)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


class Page:
    """A race page's socket: reconnects, as race_socket.js does, when the server closes it or
    nothing is heard for HEARD_WITHIN_S; keeps the latest figures told of each seat."""

    def __init__(self, server: Daphne, race_id: str, user) -> None:
        self.server, self.race_id, self.user = server, race_id, user
        self.socket, self.reconnects, self.race = None, 0, None
        self.moves_of: dict[str, int] = {}
        self._open()

    def _open(self) -> None:
        self.socket = connect(self.server, self.race_id, self.user)
        self.heard_at = time.monotonic()

    def pump(self, seconds: float) -> None:
        """Read what comes for `seconds`, reconnecting as the page would."""
        until = time.monotonic() + seconds
        while (now := time.monotonic()) < until:
            try:
                message = json.loads(self.socket.recv(timeout=min(0.5, until - now)))
            except TimeoutError:
                if time.monotonic() - self.heard_at > HEARD_WITHIN_S:
                    self._reconnect()
                continue
            except ConnectionClosed:
                self._reconnect()
                continue
            self.heard_at = time.monotonic()
            if message["type"] == "race":
                self.race = message["race"]
                for player in message["race"]["players"]:
                    if player.get("moves") is not None:
                        self.moves_of[player["name"]] = player["moves"]
            elif message["type"] == "progress":
                self.moves_of[message["player"]] = message["moves"]

    def _reconnect(self) -> None:
        self.socket.close()
        self.reconnects += 1
        time.sleep(0.5)  # the page's first pause
        try:
            self._open()
        except OSError:
            self.heard_at = time.monotonic()

    def send_progress(self, tokens: list[str], times: list[int]) -> None:
        try:
            message = {"type": "progress", "log": " ".join(tokens), "move_times_ms": times}
            self.socket.send(json.dumps(message))
        except ConnectionClosed:
            self._reconnect()

    def until(self, predicate, *, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return True
            self.pump(0.5)
        return predicate()


@pytest.fixture
def redis_and_daphne(test_database_url, settings, tmp_path):
    redis = PrivateRedis(tmp_path / "redis.log")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
        "DATABASE_URL": test_database_url,
        "REDIS_URL": redis.url,
        "CELERY_TASK_ALWAYS_EAGER": "1",
        "SECRET_KEY": settings.SECRET_KEY,
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    # This process tells the room through the same Redis as Daphne (a race's start, say).
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [redis.url], "prefix": "ws"},  # as yukon_site/settings/product.py's
        }
    }
    daphne = Daphne(env, tmp_path / "daphne.log")
    yield redis, daphne
    daphne.stop()
    redis.stop()


def test_both_pages_see_the_others_next_move_within_15_s_of_a_redis_restart(
    redis_and_daphne, make_player, known_deal, settings
):
    redis, daphne = redis_and_daphne
    settings.RACE_COUNTDOWN_SECONDS = 0
    host, guest = make_player("host"), make_player("guest")
    race = services.race_create(user=host, rules="classic", seats=2, time_limit_minutes=None)
    host_page, guest_page = Page(daphne, race.public_id, host), Page(daphne, race.public_id, guest)
    off_the_event_loop(services.race_join, user=guest, public_id=race.public_id)  # full: it starts
    for page in (host_page, guest_page):
        assert page.until(lambda p=page: (p.race or {}).get("state") == "running", timeout=60), page.race
    games = {page: page.race["your_game_id"] for page in (host_page, guest_page)}
    played = {host_page: [], guest_page: []}

    def move(page: Page, user, other: Page, name: str) -> None:
        """The page plays its next move (its card asked for when it turns one up) and sends it."""
        tokens = played[page]
        tokens.append(WIN[len(tokens)])
        times = [STEP_MS * (index + 1) for index in range(len(tokens))]
        position = Game(known_deal["code"])
        for token in tokens[:-1]:
            position.play(token)
        before = position.face_down
        position.play(tokens[-1])
        if position.face_down != before:
            log = " ".join(tokens)
            off_the_event_loop(game_reveal, user=user, game_id=games[page], log=log, move_times_ms=times)
        page.send_progress(tokens, times)

    move(host_page, host, guest_page, "host")
    move(guest_page, guest, host_page, "guest")
    assert guest_page.until(lambda: guest_page.moves_of.get("host") == 1, timeout=30)
    assert host_page.until(lambda: host_page.moves_of.get("guest") == 1, timeout=30)

    redis.stop()
    time.sleep(DOWN_S)
    redis.start()
    restarted = time.monotonic()

    move(host_page, host, guest_page, "host")
    move(guest_page, guest, host_page, "guest")
    # A page that missed a move while its socket was deaf reads the race again on reconnecting:
    # the race's figures name every seat's moves.
    for page, other in ((guest_page, "host"), (host_page, "guest")):
        seen = page.until(lambda p=page, o=other: p.moves_of.get(o) == 2, timeout=SEEN_WITHIN_S)
        assert seen, (
            f"{other}'s second move not seen {time.monotonic() - restarted:.1f} s after the restart; "
            f"Daphne's log ends:\n{daphne.log_path.read_text()[-4000:]}"
        )
    assert time.monotonic() - restarted <= SEEN_WITHIN_S + 2
    # And the sockets hear the room again: the next moves arrive as progress, without a restart.
    move(host_page, host, guest_page, "host")
    assert guest_page.until(lambda: guest_page.moves_of.get("host") == 3, timeout=SEEN_WITHIN_S)
