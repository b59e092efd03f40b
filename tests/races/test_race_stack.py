"""A race on the full stack: two Daphne processes sharing the Redis channel layer, a real Celery
worker verifying the results, PostgreSQL holding the room. One player's socket is served by
one process, the other's by the other; each sees what the other does."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone
from factories import free_port
from race_play import CLASSIC_WIN, off_the_event_loop

from games.engine import Game
from games.hidden.reveals import game_reveal
from games.log_input import SubmissionInput
from games.submissions.intake import submission_create
from races import services
from races.models import Race

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]

PROJECT_DIR = Path(__file__).resolve().parents[2]
WIN = CLASSIC_WIN["log"]
STEP_MS = 200  # the page's clock between two moves (the server's checks: 40 ms, 150 ms on average)
# Generous waits for a busy 2-core machine; none of them is a speed requirement.
START_S, MESSAGE_S, VERDICT_S = 120, 60, 120


class Daphne:
    """`daphne yukon_site.asgi:application` on a port of its own, against the test database."""

    def __init__(self, env: dict[str, str], log_path: Path) -> None:
        self.port = free_port()
        self.log_path = log_path
        command = [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(self.port),
            "yukon_site.asgi:application",
        ]
        self.process = subprocess.Popen(
            command,
            cwd=PROJECT_DIR,
            env=env,
            stdout=log_path.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited:\n{log_path.read_text()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"daphne did not listen:\n{log_path.read_text()}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def two_asgi_processes(celery_worker_process, tmp_path):
    env = {**celery_worker_process.env}
    servers = [Daphne(env, tmp_path / f"daphne-{index}.log") for index in range(2)]
    yield servers
    for server in servers:
        server.stop()


def connect(server: Daphne, race_id: str, user):
    from websockets.sync.client import connect as ws_connect

    client = Client()
    client.force_login(user)
    return ws_connect(
        f"ws://127.0.0.1:{server.port}/ws/races/{race_id}/",
        origin=f"http://127.0.0.1:{server.port}",
        additional_headers={"Cookie": f"sessionid={client.cookies['sessionid'].value}"},
        open_timeout=MESSAGE_S,
    )


def receive_until(connection, predicate, *, timeout: float = MESSAGE_S) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(connection.recv(timeout=max(0.1, deadline - time.monotonic())))
        if predicate(message):
            return message


def test_two_players_on_two_asgi_processes_race_one_deal(
    two_asgi_processes, make_player, known_deal, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 0
    first_server, second_server = two_asgi_processes
    host, guest = make_player("host"), make_player("guest")
    race = services.race_create(user=host, rules="classic", seats=2, time_limit_minutes=None)
    with (
        connect(first_server, race.public_id, host) as host_socket,
        connect(second_server, race.public_id, guest) as guest_socket,
    ):
        receive_until(host_socket, lambda m: m["type"] == "race")
        receive_until(guest_socket, lambda m: m["type"] == "race")
        off_the_event_loop(services.race_join, user=guest, public_id=race.public_id)  # full: it starts
        started = receive_until(
            host_socket, lambda m: m["type"] == "race" and m["race"]["state"] == "running"
        )
        game_id = started["race"]["your_game_id"]
        receive_until(guest_socket, lambda m: m["type"] == "race" and m["race"]["state"] == "running")

        # The host plays the whole deal on the page's clock: reveals over HTTP's service, progress
        # over the socket of process 1; the guest, on process 2, is told the figures.
        tokens, times, started_at = WIN.split(), [], time.monotonic()
        position = Game(known_deal["code"])
        for length, token in enumerate(tokens, start=1):
            times.append(
                max(int((time.monotonic() - started_at) * 1000), (times[-1] + STEP_MS) if times else 0)
            )
            while (time.monotonic() - started_at) * 1000 < times[-1]:
                time.sleep(0.005)
            before = position.face_down
            position.play(token)
            prefix = " ".join(tokens[:length])
            if position.face_down != before:
                game_reveal(user=host, game_id=game_id, log=prefix, move_times_ms=times)
            if length % 20 == 0:
                host_socket.send(json.dumps({"type": "progress", "log": prefix, "move_times_ms": times}))
                told = receive_until(
                    guest_socket, lambda m, n=length: m["type"] == "progress" and m["moves"] == n
                )
                assert told["player"] == "host" and told["foundation_cards"] == sum(
                    1 for t in tokens[:length] if t.endswith(">F")
                )
        now = timezone.now()
        data = SubmissionInput(
            client_id=uuid.uuid4(),
            log=WIN,
            move_times_ms=times,
            duration_ms=times[-1],
            finished_at=now,
            game_id=game_id,
        )
        off_the_event_loop(submission_create, user=host, data=data)
        off_the_event_loop(services.race_leave, user=guest, public_id=race.public_id)

        def final(message):
            return message["type"] == "race" and message["race"]["places_final"]

        for connection in (host_socket, guest_socket):
            over = receive_until(connection, final, timeout=VERDICT_S)["race"]
            assert over["code"] == known_deal["code"] and over["secret"]
            assert [(p["name"], p["place"], p["won"], p["result"]) for p in over["players"]] == [
                ("host", 1, True, "verified"),
                ("guest", 2, False, "verified"),
            ]
    assert Race.objects.get(pk=race.pk).places_final
