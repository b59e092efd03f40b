"""Hints off the web request (games/solving/hints.py): answers kept per position and read at once, the
deal's stored line, and the ticket a page reads while a search runs on the hints queue.

In these tests tasks run eagerly (no broker), as under `make run`: a search runs during the
request, one at a time per process. The queue and its worker: test_hint_worker_stack.py.
"""

from __future__ import annotations

import pytest
from django.utils import timezone
from games_helpers import WINS
from rest_framework.test import APIClient

import games.solving.hints
from games.engine import verify
from games.models import HintUse, SolvedDeal
from games.solver import Position
from games.solving.hints import POSITION_KEY, SEARCHING_KEY, hint_search, position_key

pytestmark = pytest.mark.django_db

CODE = "YU1-C-AAAAAAC"  # won by the solver in milliseconds
LOG = next(win["log"] for win in WINS if win["code"] == CODE)
MIDWAY = " ".join(LOG.split()[:30])


def ask(client: APIClient, code: str = CODE, log: str = MIDWAY):
    return client.post("/api/hint/", {"code": code, "log": log}, format="json")


@pytest.fixture
def searches(monkeypatch):
    """Every search the solver starts for a hint, by the log's position."""
    started = []
    real_solve = games.solving.hints.solve

    def counted(position, **limits):
        started.append(position)
        return real_solve(position, **limits)

    monkeypatch.setattr(games.solving.hints, "solve", counted)
    return started


@pytest.fixture
def solver_held():
    """Another request's search holds the process's one search (eager mode)."""
    games.solving.hints._eager_search.acquire()
    yield
    games.solving.hints._eager_search.release()


def test_the_next_hints_along_the_line_found_are_read_not_searched(api, searches):
    first = ask(api, log=MIDWAY).json()["move"]
    second = ask(api, log=f"{MIDWAY} {first}").json()["move"]
    third = ask(api, log=f"{MIDWAY} {first} {second}").json()["move"]

    assert len(searches) == 1
    assert verify(CODE, f"{MIDWAY} {first} {second} {third}").legal
    assert HintUse.objects.count() == 3  # each answer given is recorded


def test_the_same_position_reached_another_way_is_read_not_searched(api, searches):
    detour = f"{MIDWAY} {LOG.split()[30]} U"  # a move played and taken back

    first = ask(api, log=MIDWAY).json()
    again = ask(api, log=detour).json()

    assert again == first
    assert len(searches) == 1


def test_a_deal_with_a_stored_win_answers_its_next_move_without_a_search(api, searches):
    line = LOG.split()
    SolvedDeal.objects.create(
        rules="classic",
        code=CODE,
        result=SolvedDeal.Result.WON,
        par=len(line),
        solution=LOG,
        solved_at=timezone.now(),
    )

    answer = ask(api, log=" ".join(line[:12])).json()

    assert answer == {"move": line[12]}
    assert searches == []


def test_off_the_stored_line_the_position_is_searched(api, searches):
    SolvedDeal.objects.create(
        rules="classic",
        code=CODE,
        result=SolvedDeal.Result.WON,
        par=1,
        solution="KS>1",
        solved_at=timezone.now(),
    )

    assert ask(api, log=MIDWAY).status_code == 200
    assert len(searches) == 1


def test_while_the_solver_is_busy_the_answer_is_a_ticket_and_nothing_is_recorded(api, settings, solver_held):
    settings.SOLVER_HINT_TIME_LIMIT = 0.05

    response = ask(api)

    assert response.status_code == 202
    body = response.json()
    assert body == {"state": "searching", "ticket": body["ticket"], "url": f"/api/hint/{body['ticket']}/"}
    assert response["Retry-After"] == "1"
    assert response["Location"] == body["url"]
    assert not HintUse.objects.exists()


def test_a_ticket_reads_searching_then_the_answer_once(api, settings, solver_held):
    settings.SOLVER_HINT_TIME_LIMIT = 0.05
    url = ask(api).json()["url"]
    key = position_key(Position.from_log(CODE, MIDWAY))
    games.solving.hints.cache.set(SEARCHING_KEY.format(key=key), 1)  # queued for the hints worker

    searching = api.get(url)
    games.solving.hints._eager_search.release()
    try:
        settings.SOLVER_HINT_TIME_LIMIT = 2.0
        hint_search(code=CODE, log=MIDWAY)  # what the hints worker does
    finally:
        games.solving.hints._eager_search.acquire()
    answered = api.get(url)
    used = api.get(url)

    assert (searching.status_code, searching.json()["state"]) == (202, "searching")
    assert answered.status_code == 200
    assert verify(CODE, f"{MIDWAY} {answered.json()['move']}").legal
    assert HintUse.objects.count() == 1
    assert (used.status_code, used.json()["code"]) == (404, "not_found")


def test_a_search_dropped_unstarted_answers_solver_busy_and_records_nothing(api, settings, solver_held):
    settings.SOLVER_HINT_TIME_LIMIT = 0.05
    url = ask(api).json()["url"]  # the search could not run: nothing is searching it now

    response = api.get(url)

    assert response.status_code == 200
    assert response.json() == {
        "move": None,
        "code": "solver_busy",
        "reason": "the solver is busy: ask again in a moment",
    }
    assert not HintUse.objects.exists()


def test_a_ticket_is_read_only_by_its_player(api, settings, solver_held, make_player):
    settings.SOLVER_HINT_TIME_LIMIT = 0.05
    url = ask(api).json()["url"]
    other = APIClient()
    other.force_login(make_player("carol"))

    assert other.get(url).status_code == 404
    assert api.get("/api/hint/not-a-ticket/").json() == {
        "detail": "no such hint: not asked by this player, or over 5 minutes old",
        "code": "not_found",
    }
    assert APIClient().get(url).status_code == 403


def test_an_answer_kept_for_a_position_is_shared_by_every_player(api, make_player, searches):
    move = ask(api).json()["move"]
    other = APIClient()
    other.force_login(make_player("carol"))

    assert ask(other).json() == {"move": move}
    assert len(searches) == 1
    assert HintUse.objects.filter(user__username="carol", code=CODE).count() == 1


def test_every_position_of_the_line_found_is_kept(api):
    ask(api, log="")
    game = Position.from_code(CODE).game()
    kept = 0
    while not game.is_won():
        move = games.solving.hints.cache.get(POSITION_KEY.format(key=position_key(game)))
        assert move is not None, f"no answer kept after {kept} moves"
        game.play(move)
        kept += 1

    assert kept > 50


def test_without_a_broker_to_send_the_search_to_the_answer_is_busy_at_once(api, monkeypatch):
    from kombu.exceptions import OperationalError as KombuOperationalError

    from games.tasks import hint_search_task

    def broker_down(*args, **kwargs):
        raise KombuOperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(hint_search_task, "apply_async", broker_down)

    response = ask(api)

    assert response.status_code == 200
    assert response.json()["code"] == "solver_busy"
    assert not HintUse.objects.exists()
    assert ask(api).json()["code"] == "solver_busy"  # nothing left marked as being searched
