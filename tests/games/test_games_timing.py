"""The timing model: the page's clock starts with the first move (its time is 0); the server
measures the gaps between tokens and their average, on the shipped thresholds; results refused
for move 1 by the earlier rule are judged again, and re-admitted wins get their places."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from games_helpers import CLASSIC_WIN, body, paced

from games.models import Submission
from leaderboard.selectors import leaderboard_page
from leaderboard.services import player_entries_rebuild, result_boards

pytestmark = pytest.mark.django_db

WIN_LOG = CLASSIC_WIN["log"]
MOVES = len(WIN_LOG.split())


def detail(api, submission_id: int) -> dict:
    response = api.get(f"/api/submissions/{submission_id}/")
    assert response.status_code == 200
    return response.json()


def boards_of(submission_id: int) -> list[str]:
    """The boards a counted result enters: of its rule set and kind of deal, the week and day it
    was received, its deal."""
    return result_boards(submission=Submission.objects.get(pk=submission_id))


def settled(api, submit, data: dict) -> dict:
    response = submit(data)
    assert response.status_code == 202, response.json()
    return detail(api, response.json()["id"])


def test_the_shipped_thresholds_are_kept(settings):
    assert (settings.SUBMISSION_MIN_MOVE_MS, settings.SUBMISSION_MIN_AVERAGE_MOVE_MS) == (40, 150)


def test_a_win_timed_by_the_pages_clock_is_verified(api, player, issue_game, submit):
    game = issue_game(player)
    data = body(log=WIN_LOG, game=game.pk, step_ms=200)
    assert data["move_times_ms"][0] == 0  # the clock starts with the first move

    result = settled(api, submit, data)

    assert (result["status"], result["won"], result["reason"]) == ("verified", True, None)
    assert set(result["ranks"]) == set(boards_of(result["id"]))


def test_times_counted_from_the_deal_being_shown_are_judged_alike(api, player, issue_game, submit):
    """A page that started its clock with the deal sends a first time above 0: accepted too."""
    game = issue_game(player)
    data = body(log=WIN_LOG, game=game.pk)
    data["move_times_ms"] = paced(WIN_LOG, first_ms=4_000)
    data["duration_ms"] = data["move_times_ms"][-1]

    assert settled(api, submit, data)["status"] == "verified"


def test_a_game_of_one_move_left_unfinished_has_no_timing_problem(api, player, issue_game, submit):
    game = issue_game(player)
    first = WIN_LOG.split()[0]

    data = {**body(log=first, game=game.pk), "move_times_ms": [0], "duration_ms": 2_500}

    result = settled(api, submit, data)

    assert (result["status"], result["won"], result["moves"]) == ("verified", False, 1)


def test_the_gap_after_the_previous_move_is_measured(api, submit):
    data = body(log=WIN_LOG, code=CLASSIC_WIN["code"], step_ms=200)
    times = data["move_times_ms"]
    data["move_times_ms"] = times[:4] + [times[3] + 30] + [time + 30 - 200 for time in times[5:]]
    token = WIN_LOG.split()[4]

    result = settled(api, submit, data)

    assert (result["status"], result["reason"]["code"]) == ("rejected", "timing_move")
    assert result["reason"]["message"] == (
        f"move 5 `{token}` came 30 ms after the previous one; no one plays faster than 40 ms"
    )


def test_a_long_first_think_does_not_hide_machine_speed(api, submit):
    """A minute before the first move, then 50 ms a move: the average is taken between moves."""
    data = body(log=WIN_LOG, code=CLASSIC_WIN["code"])
    data["move_times_ms"] = paced(WIN_LOG, 50, first_ms=60_000)
    data["duration_ms"] = data["move_times_ms"][-1]

    result = settled(api, submit, data)

    assert (result["status"], result["reason"]["code"]) == ("rejected", "timing_average")
    span = 50 * (MOVES - 1)
    assert result["reason"]["message"] == (
        f"{MOVES} moves in {span} ms from the first to the last: 50 ms a move on average, "
        "under the human minimum of 150 ms"
    )


def refused_for_move_one(submission_id: int) -> None:
    """The row as the earlier rule left it: move 1 at 0 ms measured from 0, refused."""
    first = Submission.objects.get(pk=submission_id).log.split()[0]
    Submission.objects.filter(pk=submission_id).update(
        status=Submission.Status.REJECTED, won=False, ranks={}, reason_code="timing_move",
        reason=f"move 1 `{first}` came 0 ms after the previous one; no one plays faster than 40 ms",
    )  # fmt: skip


def test_wins_refused_for_move_one_are_judged_again_and_get_their_places(api, player, issue_game, submit):
    game = issue_game(player)
    ranked = settled(api, submit, body(log=WIN_LOG, game=game.pk, step_ms=200))
    unranked = settled(api, submit, body(log=WIN_LOG, code=CLASSIC_WIN["code"], step_ms=200))
    too_fast = settled(api, submit, body(log=WIN_LOG, code=CLASSIC_WIN["code"], step_ms=30))
    for result in (ranked, unranked):
        refused_for_move_one(result["id"])
    player_entries_rebuild(user_id=player.pk)  # the boards as the refusals left them: empty
    assert leaderboard_page(board="open:classic:all").entries == []
    out = io.StringIO()

    call_command("reverify", "--status", "rejected", "--reason", "timing_move", "--no-progress", stdout=out)

    score = 7200 - MOVES
    assert out.getvalue().splitlines()[-1] == "re-verified 3 submission(s); 2 verdict(s) changed"
    again = detail(api, ranked["id"])
    assert (again["status"], again["won"], again["score"]) == ("verified", True, score)
    assert again["ranks"] == dict.fromkeys(boards_of(ranked["id"]), 1)  # all time, week, day, deal
    assert detail(api, unranked["id"])["ranks"] == dict.fromkeys(boards_of(unranked["id"]), 1)
    assert f"deal:{CLASSIC_WIN['code']}" in boards_of(unranked["id"])
    assert detail(api, too_fast["id"])["reason"]["code"] == "timing_move"  # still beyond a human
    (entry,) = leaderboard_page(board="open:classic:all").entries
    assert (entry.name, entry.score) == (player.display_name, score)

    again_out = io.StringIO()
    call_command(
        "reverify", "--status", "rejected", "--reason", "timing_move", "--no-progress", stdout=again_out
    )
    assert again_out.getvalue().splitlines() == ["re-verified 1 submission(s); 0 verdict(s) changed"]
