"""Redis down: players still sign in, get games, submit and ask for hints; throttles and
allauth's rate limits count in each process's memory meanwhile; /healthz says Redis is down;
a result whose verification task cannot be sent is stored, for the sweeper.

Redis is "down" for real here: the cache points at a port of this machine where nothing listens
(connection refused, as for a stopped server), never at the machine's own Redis.
"""

from __future__ import annotations

import socket
from unittest import mock

import pytest
from games_helpers import CLASSIC_WIN, body
from kombu.exceptions import OperationalError as KombuOperationalError

from games.models import Submission

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase"


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed on leaving: nothing listens there


@pytest.fixture
def redis_down(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "yukon_site.cache.FailSoftRedisCache",  # as settings.py configures it
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/1",
            "KEY_PREFIX": "cache",
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 5},
        }
    }


def test_sign_up_and_sign_in_work_while_redis_is_down(redis_down, client):
    signed_up = client.post(
        "/accounts/signup/",
        {"username": "dana", "email": "dana@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert signed_up.status_code == 302
    client.logout()

    signed_in = client.post("/accounts/login/", {"login": "dana", "password": PASSWORD})

    assert signed_in.status_code == 302
    assert client.get("/api/account/").json()["username"] == "dana"


def test_games_results_and_hints_answer_while_redis_is_down(redis_down, api, player, issue_game, submit):
    issued = api.post("/api/games/", {"rules": "classic"}, format="json")
    assert issued.status_code == 201, issued.json()

    game = issue_game(player)
    stored = submit(body(log=CLASSIC_WIN["log"], game=game.pk))
    assert stored.status_code == 202, stored.json()
    assert api.get(f"/api/submissions/{stored.json()['id']}/").json()["status"] == "verified"  # eager here

    hint = api.post("/api/hint/", {"code": "YU1-C-AAAAAAC", "log": ""}, format="json")
    assert hint.status_code == 200, hint.json()


def test_throttles_still_limit_while_redis_is_down(redis_down, api, settings):
    settings.GAMES_THROTTLE_RATES = {**settings.GAMES_THROTTLE_RATES, "game_issue": "2/min"}

    answers = [api.post("/api/games/", {"rules": "classic"}, format="json").status_code for _ in range(3)]

    assert answers == [201, 201, 429]  # counted in this process's memory


def test_healthz_says_redis_is_down(redis_down, client):
    response = client.get("/healthz")

    assert response.status_code == 503
    assert "cache" in response.json()["failing"]
    assert "Redis is not answering" in response.json()["checks"]["cache"]["error"]


def test_a_result_whose_task_cannot_be_sent_is_stored_for_the_sweeper(player, issue_game, submit):
    """The broker refuses the connection when the task is sent (kombu raises OperationalError, as
    it does for a stopped Redis): the answer is still 202, the row waits, pending."""
    game = issue_game(player)
    refused = KombuOperationalError("[Errno 111] Connection refused")

    with mock.patch("games.tasks.submission_verify_task.delay", side_effect=refused):
        response = submit(body(log=CLASSIC_WIN["log"], game=game.pk))

    assert response.status_code == 202
    assert Submission.objects.get(pk=response.json()["id"]).status == "pending"
