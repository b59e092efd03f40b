"""The analysis every player sees on a race's replay (/api/replays/<id>/analysis/,
fairplay/replay_analysis.py): where a game that was not won was lost, and a move that kept it,
from the game's real fair-play analysis, asked for by whoever watches once the race is over;
nothing before, nothing else."""

from __future__ import annotations

import pytest
from race_play import (
    BLUNDER,
    CLASSIC_WIN,
    LOST_AT,
    losing_log,
    play,
    seats_of,
    server_time,
    started_race,
    submit,
)
from rest_framework.test import APIClient

from fairplay.models import GameAnalysis
from games.models import Submission
from games.solver import Position, solve
from races import services

pytestmark = pytest.mark.django_db

WIN = CLASSIC_WIN["log"].split()
FIELDS = {"state", "deal", "ended_winnable", "first_lost_move", "keeping_move"}


def analysis_of(result_id: int, client: APIClient | None = None):
    return (client or APIClient()).get(f"/api/replays/{result_id}/analysis/")


def ask(result_id: int, client: APIClient | None = None):
    return (client or APIClient()).post(f"/api/replays/{result_id}/analysis/")


@pytest.fixture
def finished(make_player, known_deal, django_capture_on_commit_callbacks, settings):
    """A race over: its winner's result and its loser's, who blundered at LOST_AT then left. The
    analysis asked for is the real one, as the embedded default ships it (FAIRPLAY_ASKED_VERDICT_BUDGET
    lab: the same solver, smaller limits)."""
    settings.RACE_GRACE_SECONDS = 24 * 3600
    race = started_race(make_player)
    winner, loser = seats_of(race)
    lost = " ".join(losing_log())
    with django_capture_on_commit_callbacks(execute=True):
        times = play(loser, lost)
        won = submit(winner, " ".join(WIN), play(winner, " ".join(WIN)))
    for hidden in (analysis_of(won.pk), ask(won.pk)):
        assert (hidden.status_code, hidden.json()["code"]) == (403, "replay_not_yet")  # the race is not over
    with django_capture_on_commit_callbacks(execute=True):
        services.race_leave(
            user=loser.user, public_id=race.public_id, now=server_time(loser, times[-1] + 1000)
        )
    lost_result = Submission.objects.get(game=loser.game)
    return {"won": won, "lost": lost_result, "code": known_deal["code"]}


def test_the_first_move_that_lost_a_race_game_and_a_move_that_kept_it(
    finished, django_capture_on_commit_callbacks
):
    assert (
        solve(Position.from_log(CLASSIC_WIN["code"], " ".join([*WIN[:LOST_AT], BLUNDER]))).result
        == "unwinnable"
    )
    assert analysis_of(finished["lost"].pk).json() == {field: None for field in FIELDS} | {"state": "none"}
    with django_capture_on_commit_callbacks() as sent:
        asked = ask(finished["lost"].pk)
    assert (asked.status_code, asked.json()["state"]) == (202, "queued")
    assert GameAnalysis.objects.get(submission=finished["lost"]).reason == GameAnalysis.Reason.ASKED
    for callback in sent:
        callback()  # the worker's turn (eager here)
    answer = ask(finished["lost"].pk)  # asked again: the same analysis, done
    assert answer.status_code == 200, answer.json()
    assert GameAnalysis.objects.filter(submission=finished["lost"]).count() == 1
    analysis = answer.json()
    assert set(analysis) == FIELDS  # nothing of the fair-play scores
    assert analysis["state"] == "done" and analysis["deal"] == "won"
    assert (analysis["first_lost_move"], analysis["ended_winnable"]) == (LOST_AT, False)
    keeping = analysis["keeping_move"]
    assert keeping != BLUNDER
    assert solve(Position.from_log(finished["code"], " ".join([*WIN[:LOST_AT], keeping]))).result == "won"
    assert finished["lost"].log.split()[LOST_AT] == BLUNDER  # the index is the replay log's


def test_a_win_was_winnable_all_along(finished):
    analysis = analysis_of(finished["won"].pk).json()
    assert analysis == {
        "state": "done", "deal": "won", "ended_winnable": True, "first_lost_move": None, "keeping_move": None,
    }  # fmt: skip


def test_a_win_needs_no_analysis(finished):
    answer = ask(finished["won"].pk)
    assert answer.status_code == 200 and answer.json()["state"] == "done"
    assert not GameAnalysis.objects.filter(
        submission=finished["won"], reason=GameAnalysis.Reason.ASKED
    ).exists()


def test_without_the_solver_there_is_nothing_to_ask_for(
    finished, settings, django_capture_on_commit_callbacks
):
    settings.FAIRPLAY_ASKED_VERDICT_BUDGET = "off"  # an operator's choice: no solver for asked analyses
    assert analysis_of(finished["lost"].pk).json()["state"] == "unavailable"
    assert ask(finished["lost"].pk).json()["state"] == "unavailable"
    assert not GameAnalysis.objects.filter(submission=finished["lost"]).exists()
    settings.FAIRPLAY_ASKED_VERDICT_BUDGET = "lab"
    with django_capture_on_commit_callbacks(execute=True):
        ask(finished["lost"].pk)
    GameAnalysis.objects.filter(submission=finished["lost"]).update(features={"moves": 11})  # failed verdicts
    assert analysis_of(finished["lost"].pk).json() == {field: None for field in FIELDS} | {
        "state": "unavailable"
    }


def test_asking_is_rate_limited(finished, settings):
    settings.FAIRPLAY_REPLAY_ANALYSIS_RATE = "3/hour"
    client = APIClient()  # from the same address as the fixture's, which asked once already
    assert [ask(finished["won"].pk, client).status_code for _ in range(3)] == [200, 200, 429]
    assert analysis_of(finished["won"].pk, client).status_code == 200  # reading is not limited


def test_a_game_no_one_may_watch_has_no_analysis_either(finished):
    for answer in (analysis_of(finished["lost"].pk + 1000), ask(finished["lost"].pk + 1000)):
        assert (answer.status_code, answer.json()["code"]) == (404, "replay_not_found")
    Submission.objects.filter(pk=finished["lost"].pk).update(voided=True)
    assert analysis_of(finished["lost"].pk).status_code == ask(finished["lost"].pk).status_code == 404
    assert not GameAnalysis.objects.filter(submission=finished["lost"]).exists()
