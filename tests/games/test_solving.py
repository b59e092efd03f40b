"""Solved deals: the stored answers, the pool of winnable deals and its refill, par, the daily filter.

The solver is the real one, on deals it settles in milliseconds (the solver's fixture wins, and
deal 75, which it proves unwinnable) or with limits too small to decide (deal 11).
"""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from games_helpers import WINS, body, deal_number

import games.issuing.dealing
from daily.services import daily_deal_pick
from games.engine import DEAL_COUNT, GameCode, Rules, format_code, verify
from games.models import SolvedDeal
from games.selectors import deal_par
from games.solving.par import deal_par_request, deal_par_solve
from games.solving.pool import deal_pool_refill, deal_pool_size, winnable_codes_sample
from games.solving.solved import deal_is_winnable, solved_deal_solve
from games.tasks import deal_par_solve_task, deal_pool_refill_task
from yukon_site.celery import app

pytestmark = pytest.mark.django_db

WON_CLASSIC = ["YU1-C-AAAAAAC", "YU1-C-AAAAAAD", "YU1-C-AAAAAAF", "YU1-C-AAAAAAH"]  # won in < 0.1 s
WON_RELAXED = "YU1-R-AAAAAAA"
UNWINNABLE = "YU1-C-AAAAACX"  # deal 75: proven unwinnable in about 0.4 s (one idle core)
# Proven unwinnable before any search, by the deadlock test: decided within any time limit.
UNWINNABLE_AT_ONCE = "YU1-C-AKHIIHV"
UNDECIDED = "YU1-C-VNNJRBA"  # unsettled by the 60 s census (docs/winnability.md): no answer within seconds
WIN_LOGS = {win["code"]: win["log"] for win in WINS}


def numbers(*codes: str) -> list[int]:
    return [deal_number(code) for code in codes]


# --- Stored answers -------------------------------------------------------------------------------


def test_a_won_deal_is_stored_with_its_par_and_a_line_the_engine_accepts():
    row = solved_deal_solve(code=WON_CLASSIC[0], time_limit=2.0)

    assert (row.code, row.rules, row.result) == (WON_CLASSIC[0], "classic", "won")
    verdict = verify(row.code, row.solution)
    assert verdict.legal and verdict.won and verdict.moves == row.par
    assert row.nodes > 0 and row.seconds > 0 and row.time_limit == 2.0
    assert not row.shortened and not row.pooled  # searched, but not drawn for the pool
    assert SolvedDeal.objects.get(code=WON_CLASSIC[0]) == row


def test_unwinnable_and_unknown_answers_are_stored_and_never_overwritten_by_unknown():
    proven = solved_deal_solve(code=UNWINNABLE, time_limit=5.0)
    undecided = solved_deal_solve(code=UNDECIDED, time_limit=0.05)
    assert (proven.result, proven.par, proven.solution) == ("unwinnable", None, "")
    assert (undecided.result, undecided.time_limit) == ("unknown", 0.05)

    again = solved_deal_solve(code=UNWINNABLE, time_limit=0.01)  # too short to decide: unknown
    won = solved_deal_solve(code=WON_CLASSIC[0], time_limit=2.0)
    still_won = solved_deal_solve(code=WON_CLASSIC[0], time_limit=0.0001)

    assert again.result == "unwinnable" and again.time_limit == 5.0
    assert (still_won.result, still_won.par, still_won.solution) == ("won", won.par, won.solution)
    assert SolvedDeal.objects.count() == 3


def test_a_par_search_keeps_the_shortest_win_found():
    first = solved_deal_solve(code=WON_CLASSIC[0], time_limit=2.0)

    searched = deal_par_solve(code=WON_CLASSIC[0], time_limit=0.5)

    assert searched.shortened and searched.par <= first.par
    assert verify(searched.code, searched.solution).moves == searched.par
    assert deal_par_solve(code=WON_CLASSIC[0], time_limit=0.5).solved_at == searched.solved_at  # once


# --- The pool -------------------------------------------------------------------------------------


def test_a_refill_stores_every_answer_and_counts_the_winnable_ones():
    seen = []

    refill = deal_pool_refill(
        rules="classic",
        count=10,
        time_limit=3.0,  # room for the proof on a loaded machine; the undecided deal stays unknown
        numbers=numbers(WON_CLASSIC[0], UNWINNABLE, WON_CLASSIC[1], WON_CLASSIC[0], UNDECIDED),
        progress=seen.append,
    )

    assert (refill.rules, refill.solved, refill.won, refill.pool_size) == ("classic", 4, 2, 2)
    assert [row.code for row in seen] == [WON_CLASSIC[0], UNWINNABLE, WON_CLASSIC[1], UNDECIDED]  # once each
    stored = dict(SolvedDeal.objects.values_list("code", "result"))
    assert stored == {
        WON_CLASSIC[0]: "won", UNWINNABLE: "unwinnable", WON_CLASSIC[1]: "won", UNDECIDED: "unknown"
    }  # fmt: skip
    assert SolvedDeal.objects.filter(pooled=True).count() == 4
    assert deal_pool_size(rules="classic") == 2 and deal_pool_size(rules="relaxed") == 0


def test_a_refill_stops_at_its_target_its_count_and_its_time():
    codes = numbers(*WON_CLASSIC)

    assert deal_pool_refill(rules="classic", count=10, target=1, time_limit=1.0, numbers=codes).solved == 1
    assert deal_pool_refill(rules="classic", count=10, target=1, time_limit=1.0, numbers=codes).solved == 0
    assert deal_pool_refill(rules="classic", count=1, time_limit=1.0, numbers=codes[1:]).solved == 1
    assert deal_pool_refill(rules="classic", count=10, run_seconds=0, numbers=codes[2:]).solved == 0
    assert deal_pool_size(rules="classic") == 2


def test_the_periodic_refill_searches_random_deals_of_both_rule_sets(settings):
    settings.SOLVER_POOL_REFILL = True
    settings.SOLVER_POOL_BATCH = 2
    settings.SOLVER_POOL_TIME_LIMIT = 0.1

    sizes = deal_pool_refill_task.apply().get()

    assert SolvedDeal.objects.filter(rules="classic").count() == 2
    assert SolvedDeal.objects.filter(rules="relaxed").count() == 2
    assert sizes == {rules: deal_pool_size(rules=rules) for rules in ("classic", "relaxed")}


def test_the_periodic_refill_can_be_switched_off(settings):
    settings.SOLVER_POOL_REFILL = False

    assert deal_pool_refill_task.apply().get() == {}
    assert not SolvedDeal.objects.exists()


def pool(*codes: str, time_limit: float = 2.0) -> None:
    """Put deals in the pool, as the refill does with random ones."""
    for rules in ("classic", "relaxed"):
        drawn = numbers(*(code for code in codes if GameCode.parse(code).rules.value == rules))
        deal_pool_refill(rules=rules, count=len(drawn), time_limit=time_limit, numbers=drawn)


def test_the_sample_holds_only_won_deals_of_the_pool_of_the_rule_set(settings):
    pool(*WON_CLASSIC[:3], WON_RELAXED, UNWINNABLE)
    pool(UNDECIDED, time_limit=0.05)
    settings.SOLVER_DAILY_TIME_LIMIT = 2.0
    assert deal_is_winnable(WON_CLASSIC[3])  # a daily deal's candidate: won, not in the pool
    deal_par_solve(code="YU1-C-AAAAAAJ", time_limit=0.2)  # a deal with a board: won, not in the pool

    every = winnable_codes_sample(rules="classic", count=50)
    two = winnable_codes_sample(rules="classic", count=2)

    assert sorted(every) == sorted(WON_CLASSIC[:3])
    assert len(two) == len(set(two)) == 2 and set(two) <= set(WON_CLASSIC[:3])
    assert winnable_codes_sample(rules="relaxed", count=5) == [WON_RELAXED]
    assert deal_pool_size(rules="classic") == 3


def test_ranked_deals_are_drawn_by_secrets_over_every_deal_never_from_the_pool(api, monkeypatch):
    pool(*WON_CLASSIC)
    drawn = []

    def randbelow(limit):
        drawn.append(limit)
        return 123_456_789

    monkeypatch.setattr(games.issuing.dealing.secrets, "randbelow", randbelow)

    with CaptureQueriesContext(connection) as queries:
        response = api.post("/api/games/", {"rules": "classic", "count": 2}, format="json")

    assert response.status_code == 201
    assert [game["code"] for game in response.json()] == [format_code(Rules.CLASSIC, 123_456_789)] * 2
    assert drawn == [DEAL_COUNT] * 2
    assert not [query for query in queries.captured_queries if "solveddeal" in query["sql"].lower()]


# --- The winnable endpoint ------------------------------------------------------------------------


def test_the_winnable_endpoint_answers_anyone_with_won_codes_only(client):
    pool(*WON_CLASSIC[:3], UNWINNABLE)

    response = client.get("/api/deals/winnable/?rules=classic&count=2")
    every = client.get("/api/deals/winnable/?count=50")
    relaxed = client.get("/api/deals/winnable/?rules=relaxed")

    assert response.status_code == every.status_code == relaxed.status_code == 200
    body = response.json()
    assert body["rules"] == "classic" and len(set(body["codes"])) == 2
    assert set(body["codes"]) <= set(WON_CLASSIC)
    assert every.json()["rules"] == "classic" and sorted(every.json()["codes"]) == sorted(WON_CLASSIC[:3])
    assert relaxed.json() == {"rules": "relaxed", "codes": []}


def test_without_a_beat_the_endpoint_searches_new_deals_first(client, settings, issue_known_deals):
    settings.SOLVER_POOL_REQUEST_SECONDS = 4.0  # eager mode's default is 1 s; these take < 0.1 s each
    issue_known_deals(UNWINNABLE_AT_ONCE, *WON_CLASSIC[:2])

    first = client.get("/api/deals/winnable/?rules=classic&count=3")

    assert first.status_code == 200
    assert sorted(first.json()["codes"]) == sorted(WON_CLASSIC[:2])  # the unwinnable one searched, not given
    pooled = dict(SolvedDeal.objects.filter(pooled=True).values_list("code", "result"))
    assert pooled == {UNWINNABLE_AT_ONCE: "unwinnable", WON_CLASSIC[0]: "won", WON_CLASSIC[1]: "won"}


def test_the_search_behind_the_endpoint_stops_when_the_pool_is_full_or_switched_off(
    client, settings, issue_known_deals
):
    pool(*WON_CLASSIC[:2])
    issue_known_deals(*WON_CLASSIC[2:])
    settings.SOLVER_POOL_REQUEST_SECONDS = 4.0
    settings.SOLVER_POOL_SIZE = 2

    assert sorted(client.get("/api/deals/winnable/").json()["codes"]) == sorted(WON_CLASSIC[:2])

    settings.SOLVER_POOL_SIZE = 200
    settings.SOLVER_POOL_REQUEST_SECONDS = 0
    assert sorted(client.get("/api/deals/winnable/").json()["codes"]) == sorted(WON_CLASSIC[:2])
    assert SolvedDeal.objects.count() == 2  # nothing searched either time


def test_the_winnable_endpoint_refuses_bad_parameters(client):
    response = client.get("/api/deals/winnable/?rules=easy&count=51")

    assert response.status_code == 400
    assert response.json() == {
        "rules": ['"easy" is not a valid choice.'],
        "count": ["Ensure this value is less than or equal to 50."],
    }


def test_the_winnable_endpoint_is_throttled(client, settings):
    settings.GAMES_THROTTLE_RATES = {**settings.GAMES_THROTTLE_RATES, "winnable_deals": "2/min"}

    statuses = [client.get("/api/deals/winnable/").status_code for _ in range(3)]

    assert statuses == [200, 200, 429]


# --- Par ------------------------------------------------------------------------------------------


def test_par_appears_on_the_deal_once_searched(client):
    code = WON_CLASSIC[1]
    before = client.get(f"/api/deals/{code}/").json()
    assert (before["par"], before["winnable"]) == (None, None)

    row = deal_par_solve(code=code, time_limit=0.3)
    response = client.get(f"/api/deals/{code}/")

    assert response.status_code == 200
    assert response.json()["par"] == row.par == deal_par(code=code)
    assert response.json()["winnable"] is True
    assert verify(code, row.solution).won


def test_an_unwinnable_deal_has_no_par_and_says_so(client):
    solved_deal_solve(code=UNWINNABLE, time_limit=5.0)

    answer = client.get(f"/api/deals/{UNWINNABLE}/").json()
    assert (answer["par"], answer["winnable"]) == (None, False)


def test_a_first_counted_win_has_its_par_searched_on_the_solver_queue(settings, submit, client):
    settings.SOLVER_PAR_AFTER_WIN = True
    settings.SOLVER_PAR_TIME_LIMIT = 0.3
    code = WON_CLASSIC[2]

    assert submit(body(log=WIN_LOGS[code], code=code)).status_code == 202

    row = SolvedDeal.objects.get(code=code)
    assert row.shortened and row.result == "won"
    assert client.get(f"/api/deals/{code}/").json()["par"] == row.par


def test_par_is_requested_once_and_not_at_all_when_switched_off(settings, django_capture_on_commit_callbacks):
    code = WON_CLASSIC[3]
    settings.SOLVER_PAR_TIME_LIMIT = 0.2
    settings.SOLVER_PAR_AFTER_WIN = False
    with django_capture_on_commit_callbacks() as off:
        deal_par_request(code=code)
    settings.SOLVER_PAR_AFTER_WIN = True
    with django_capture_on_commit_callbacks(execute=True) as on:
        deal_par_request(code=code)
    with django_capture_on_commit_callbacks() as done:
        deal_par_request(code=code)

    assert (len(off), len(on), len(done)) == (0, 1, 0)
    assert SolvedDeal.objects.get(code=code).shortened


# --- The daily deal's filter ----------------------------------------------------------------------


def test_the_daily_filter_accepts_won_deals_and_refuses_unwinnable_ones(settings):
    settings.SOLVER_DAILY_TIME_LIMIT = 5.0

    assert deal_is_winnable(WON_CLASSIC[0]) is True
    assert deal_is_winnable(UNWINNABLE) is False
    stored = dict(SolvedDeal.objects.values_list("code", "result"))
    assert stored == {WON_CLASSIC[0]: "won", UNWINNABLE: "unwinnable"}


def test_the_daily_filter_refuses_an_unknown_deal_and_searches_it_again_only_with_more_time(settings):
    stored = solved_deal_solve(code=UNDECIDED, time_limit=0.05)
    settings.SOLVER_DAILY_TIME_LIMIT = 0.05

    assert deal_is_winnable(UNDECIDED) is False
    assert SolvedDeal.objects.get(code=UNDECIDED).solved_at == stored.solved_at  # not searched again

    settings.SOLVER_DAILY_TIME_LIMIT = 0.1
    assert deal_is_winnable(UNDECIDED) is False
    assert SolvedDeal.objects.get(code=UNDECIDED).time_limit == 0.1


def test_the_daily_deal_is_picked_among_winnable_deals(settings, issue_known_deals):
    settings.DAILY_DEAL_WINNABLE_ONLY = True
    # Room for the win on a loaded machine (0.1 s once ran out under CI's three processes); the
    # undecided deal stays undecided, its 2 s spent.
    settings.SOLVER_DAILY_TIME_LIMIT = 2.0
    issue_known_deals(UNWINNABLE, UNDECIDED, WON_CLASSIC[0])  # dealt as whole shuffles (YU2)

    deal = daily_deal_pick(date=dt.date(2026, 11, 29), rules="classic")

    assert (deal.code, deal.attempt) == (str(GameCode.parse(WON_CLASSIC[0]).whole()), 2)


# --- Tasks and queues -----------------------------------------------------------------------------


@pytest.mark.parametrize("task", ["games.deal_pool_refill", "games.deal_par_solve"])
def test_solver_tasks_go_to_the_solver_queue_with_time_limits(task, settings):
    assert app.amqp.router.route({}, task)["queue"].name == "solver"
    options = app.tasks[task]
    assert options.soft_time_limit == settings.SOLVER_TASK_SOFT_TIME_LIMIT
    assert options.time_limit == settings.SOLVER_TASK_TIME_LIMIT > options.soft_time_limit
    assert options.reject_on_worker_lost is False  # a task that kills its worker is not redelivered forever


def test_verification_stays_on_the_default_queue():
    assert app.amqp.router.route({}, "games.submission_verify")["queue"].name == "celery"


def test_the_par_task_takes_a_code(settings):
    settings.SOLVER_PAR_TIME_LIMIT = 0.2

    par = deal_par_solve_task.apply((WON_CLASSIC[0],)).get()

    assert par == SolvedDeal.objects.get(code=WON_CLASSIC[0]).par


# --- The command ----------------------------------------------------------------------------------


def test_solve_deals_fills_the_pool_with_progress(issue_known_deals):
    issue_known_deals(WON_CLASSIC[0], UNWINNABLE)
    out = StringIO()

    call_command("solve_deals", "--rules", "classic", "--count", "2", "--time-limit", "2", stdout=out)

    lines = out.getvalue().splitlines()
    assert lines[0] == "classic: searching 2 random deals, up to 2 s each"
    assert lines[1].startswith(f"[1/2] {WON_CLASSIC[0]}: won, par ")
    assert lines[2].startswith(f"[2/2] {UNWINNABLE}: unwinnable (")
    assert lines[3] == "classic: 2 deals searched, 1 won; 1 winnable deals in the pool"


def test_solve_deals_par_searches_deals_that_have_a_board(submit):
    code = WON_CLASSIC[1]
    submit(body(log=WIN_LOGS[code], code=code))
    out = StringIO()

    call_command("solve_deals", "--par", "--time-limit", "0.2", stdout=out)

    assert SolvedDeal.objects.get(code=code).shortened
    assert f"[1/1] {code}: won, par " in out.getvalue()


def test_solve_deals_refuses_a_bad_count():
    with pytest.raises(CommandError, match="--count"):
        call_command("solve_deals", "--count", "0")


def test_a_code_is_stored_in_its_canonical_form():
    row = solved_deal_solve(code=GameCode.parse(WON_CLASSIC[0].lower()), time_limit=2.0)

    assert row.code == WON_CLASSIC[0]
