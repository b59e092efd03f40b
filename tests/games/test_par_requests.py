"""Par searches after counted wins: once per deal, within an hourly budget, never piling up."""

from __future__ import annotations

import pytest
from games_helpers import CLASSIC_WIN, body

import games.tasks
from games.models import SolvedDeal
from games.solving.par import PAR_TASK_EXPIRES, deals_par_request, par_requests_per_hour
from games.solving.solved import solved_deal_solve

pytestmark = pytest.mark.django_db

WON = "YU1-C-AAAAAAC"  # won by the solver in milliseconds
UNWINNABLE = "YU1-C-AAAAACX"
CODES = [f"YU1-C-AAAAAB{letter}" for letter in "ABCDEFGH"]


@pytest.fixture
def sent(settings, monkeypatch):
    """The par searches queued (codes), instead of running them."""
    settings.SOLVER_PAR_AFTER_WIN = True
    queued: list[tuple[str, dict]] = []
    monkeypatch.setattr(
        games.tasks.deal_par_solve_task,
        "apply_async",
        lambda args, **options: queued.append((args[0], options)),
    )
    return queued


def request(codes, capture) -> None:
    with capture(execute=True):
        deals_par_request(codes=codes)


def test_a_deal_is_queued_once_however_many_wins_it_gets(sent, django_capture_on_commit_callbacks):
    request([CODES[0], CODES[0], CODES[1]], django_capture_on_commit_callbacks)
    request([CODES[1], CODES[0]], django_capture_on_commit_callbacks)

    assert [code for code, _ in sent] == [CODES[0], CODES[1]]
    assert all(options == {"expires": PAR_TASK_EXPIRES} for _, options in sent)


def test_deals_searched_for_their_par_or_proven_unwinnable_are_skipped_without_a_callback(
    sent, settings, django_capture_on_commit_callbacks
):
    settings.SOLVER_PAR_TIME_LIMIT = 0.3
    solved_deal_solve(code=WON, time_limit=0.3, shorten=True)
    solved_deal_solve(code=UNWINNABLE, time_limit=5.0)

    with django_capture_on_commit_callbacks() as callbacks:
        deals_par_request(codes=[WON, UNWINNABLE])

    assert callbacks == [] and sent == []


def test_a_deal_won_but_not_searched_for_its_par_is_queued(sent, django_capture_on_commit_callbacks):
    solved_deal_solve(code=WON, time_limit=2.0)  # a daily deal's candidate: a win, maybe not the shortest

    request([WON], django_capture_on_commit_callbacks)

    assert [code for code, _ in sent] == [WON]


def test_the_hour_budget_bounds_the_queue_and_a_dropped_deal_may_ask_again(
    sent, settings, django_capture_on_commit_callbacks, monkeypatch
):
    settings.SOLVER_PAR_TIME_LIMIT = 600.0  # half an hour of the solver worker: 3 searches an hour
    assert par_requests_per_hour() == 3
    hour = [1_000 * 3600.0]
    monkeypatch.setattr("games.solving.par.time.time", lambda: hour[0])

    request(CODES[:5], django_capture_on_commit_callbacks)
    request(CODES[5:], django_capture_on_commit_callbacks)
    assert [code for code, _ in sent] == CODES[:3]

    hour[0] += 3600  # the next hour: the dropped deals may be queued again
    request(CODES[3:], django_capture_on_commit_callbacks)
    assert [code for code, _ in sent] == CODES[:6]


def test_the_budget_never_exceeds_what_the_solver_worker_can_do(settings):
    for limit in (0.1, 2.0, 10.0, 60.0):
        settings.SOLVER_PAR_TIME_LIMIT = limit
        assert 1 <= par_requests_per_hour() * max(limit, 1.0) <= 3600 / 2


def test_switched_off_nothing_is_queued(sent, settings, django_capture_on_commit_callbacks):
    settings.SOLVER_PAR_AFTER_WIN = False

    with django_capture_on_commit_callbacks() as callbacks:
        deals_par_request(codes=CODES)

    assert callbacks == [] and sent == []


def test_a_verified_win_queues_its_deal_once(sent, player, issue_game, submit):
    first = issue_game(player)
    second = issue_game(player)
    assert submit(body(log=CLASSIC_WIN["log"], game=first.pk)).status_code == 202
    assert submit(body(log=CLASSIC_WIN["log"], game=second.pk)).status_code == 202

    assert [code for code, _ in sent] == [CLASSIC_WIN["code"]]
    assert not SolvedDeal.objects.exists()


@pytest.mark.stack
def test_the_once_per_deal_guard_and_the_budget_hold_in_redis(sent, settings, monkeypatch, redis_client):
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    from games.solving.par import _par_searches_send

    if not isinstance(caches["default"], RedisCache):  # the fail-soft one is a RedisCache too
        pytest.skip("needs the Redis cache (REDIS_URL)")
    settings.SOLVER_PAR_TIME_LIMIT = 900.0  # 2 an hour
    monkeypatch.setattr("games.solving.par.time.time", lambda: 2_000 * 3600.0)

    assert _par_searches_send(CODES[:2]) == 2
    assert _par_searches_send(CODES[:3]) == 0  # two already queued, the third over the budget
    assert [code for code, _ in sent] == CODES[:2]
