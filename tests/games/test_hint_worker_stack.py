"""Hints on the full stack: the web request only checks and queues (a few ms of its CPU), a real
`celery worker -Q hints -c 1` searches, the page reads the answer with its ticket.

Run with DATABASE_URL (PostgreSQL) and REDIS_URL set: `make test PYTEST_ARGS='-m stack'`.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from games_helpers import WINS
from rest_framework.test import APIClient

from games.engine import verify
from games.models import HintUse

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]

CODE = "YU1-C-AAAAAAC"  # won by the solver in milliseconds
LOG = next(win["log"] for win in WINS if win["code"] == CODE)
MIDWAY = " ".join(LOG.split()[:30])
UNDECIDED = "YU1-C-VNNJRBA"  # unsettled by the 60 s census: no answer in the hint's 2 s, all spent

# The web process's CPU for one hint asked, at most: the request checks the log and queues the
# search (a few ms); searching in the request, as before, took the 2 s budget of CPU.
REQUEST_CPU_SECONDS = 0.3


@pytest.fixture
def hints_worker(celery_worker_process, tmp_path):
    """`celery -A yukon_site worker -Q hints -c 1`, as make stack and docker compose start it."""
    worker = type(celery_worker_process)(
        env=celery_worker_process.env, log_path=tmp_path / "hints-worker.log", queues=("hints",)
    )
    yield worker
    worker.stop()


@pytest.fixture
def player_api(django_user_model):
    user = django_user_model.objects.create_user("hinter", "hinter@example.com", "a-long-pass-phrase")
    client = APIClient()
    client.force_login(user)
    return client


def ask(client: APIClient, code: str = CODE, log: str = MIDWAY):
    """POST /api/hint/, and the CPU seconds this (the web) process spent answering it."""
    started = time.process_time()
    response = client.post("/api/hint/", {"code": code, "log": log}, format="json")
    return response, time.process_time() - started


def read_until_answered(client: APIClient, url: str, timeout: float = 30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        response = client.get(url)
        if response.status_code != 202:
            return response
        time.sleep(int(response["Retry-After"]) / 4)
    raise AssertionError(f"{url} still searching after {timeout} s")


def niceness_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def test_a_hint_is_searched_by_the_hints_worker_not_in_the_request(player_api, hints_worker):
    hints_worker.start()

    asked, request_cpu = ask(player_api, code=UNDECIDED, log="")

    assert request_cpu < REQUEST_CPU_SECONDS, f"the request spent {request_cpu:.2f} s of CPU"
    assert asked.status_code == 202, asked.json()
    answer = read_until_answered(player_api, asked.json()["url"])
    assert answer.json() == {"move": None, "code": "no_win_found", "reason": "no win found from here"}
    assert niceness_of(hints_worker.pid) == 19
    assert HintUse.objects.filter(code=UNDECIDED).count() == 1


def test_the_line_found_answers_the_next_hints_at_once(player_api, hints_worker):
    hints_worker.start()

    asked, _ = ask(player_api)
    move = read_until_answered(player_api, asked.json()["url"]).json()["move"]
    following, request_cpu = ask(player_api, log=f"{MIDWAY} {move}")

    assert verify(CODE, f"{MIDWAY} {move}").legal
    assert following.status_code == 200
    assert verify(CODE, f"{MIDWAY} {move} {following.json()['move']}").legal
    assert request_cpu < REQUEST_CPU_SECONDS
    assert HintUse.objects.filter(code=CODE).count() == 2


def test_a_search_left_in_the_queue_too_long_is_dropped_and_answers_busy(player_api, hints_worker, settings):
    settings.SOLVER_HINT_QUEUE_SECONDS = 1  # the web process sets the search's expiry when it sends it

    asked, _ = ask(player_api)  # no hints worker yet: the search waits in the queue
    time.sleep(1.5)
    hints_worker.start()  # it receives the search expired and drops it
    answer = read_until_answered(player_api, asked.json()["url"], timeout=15)

    assert asked.status_code == 202
    assert answer.json()["code"] == "solver_busy"
    assert not HintUse.objects.exists()
