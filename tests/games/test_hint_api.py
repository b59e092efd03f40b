"""Hints: POST /api/hint/ answers a legal next move of a win, refuses ranked games in play, and
makes every later result of the player on that code assisted, off every board."""

from __future__ import annotations

import pytest
from django.utils import timezone
from games_helpers import WINS, body
from rest_framework.test import APIClient

from daily.services import daily_deal_pick
from games.engine import GameCode, verify
from games.issuing.services import game_issue
from games.models import HintUse, Submission
from games.submissions.settle import submission_verify
from leaderboard.models import BoardEntry
from leaderboard.services import result_boards

pytestmark = pytest.mark.django_db

CODE = "YU1-C-AAAAAAC"  # won by the solver in milliseconds
LOG = next(win["log"] for win in WINS if win["code"] == CODE)
MIDWAY = " ".join(LOG.split()[:30])
# Proven unwinnable before any search, by the deadlock test: the answer is the proof on any machine.
UNWINNABLE = "YU1-C-AKHIIHV"
UNDECIDED = "YU1-C-VNNJRBA"  # unsettled by the 60 s census (docs/winnability.md): no answer within seconds


def ask(client: APIClient, code: str = CODE, log: str = MIDWAY):
    return client.post("/api/hint/", {"code": code, "log": log}, format="json")


def boards(user) -> list[str]:
    return sorted(BoardEntry.objects.filter(user=user).values_list("board", flat=True))


# --- Answers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("log", ["", MIDWAY, f"{MIDWAY} {LOG.split()[30]} U"])
def test_a_hint_is_a_legal_move_that_keeps_a_win(api, player, log):
    response = ask(api, log=log)

    assert response.status_code == 200
    move = response.json()["move"]
    assert response.json() == {"move": move}
    verdict = verify(CODE, f"{log} {move}")
    assert verdict.legal, verdict.error
    assert HintUse.objects.filter(user=player, code=CODE).count() == 1


def test_an_unwinnable_position_gets_no_move(api):
    response = ask(api, code=UNWINNABLE, log="")

    assert response.status_code == 200
    assert response.json() == {"move": None, "code": "no_win", "reason": "there is no win from here"}


def test_no_move_when_no_win_is_found_within_the_budget(api, settings):
    settings.SOLVER_HINT_TIME_LIMIT = 0.05

    response = ask(api, code=UNDECIDED, log="")

    assert response.status_code == 200
    assert response.json() == {"move": None, "code": "no_win_found", "reason": "no win found from here"}


def test_a_won_game_gets_no_hint_and_is_not_marked(api):
    response = ask(api, log=LOG)

    assert response.status_code == 200
    assert response.json() == {"move": None, "code": "game_won", "reason": "the game is already won"}
    assert not HintUse.objects.exists()


def test_the_code_is_written_in_any_case(api):
    response = ask(api, code=CODE.lower(), log="")

    assert response.status_code == 200
    assert HintUse.objects.get().code == CODE


# --- Refusals ------------------------------------------------------------------------------------


def test_bad_codes_and_illegal_logs_are_field_errors(api):
    bad_code = ask(api, code="YU1-X-AAAAAAA")
    illegal = ask(api, log="AS>F 2H>4 AS>F")
    missing = api.post("/api/hint/", {"log": 12}, format="json")

    assert bad_code.status_code == illegal.status_code == missing.status_code == 400
    assert list(bad_code.json()) == ["code"]
    assert illegal.json() == {
        "log": [{"index": 2, "token": "AS>F", "code": "same_column",
                 "message": "move 3 `AS>F`: A♠ is already on its foundation"}]
    }  # fmt: skip
    assert missing.json() == {"code": ["This field is required."], "log": ["Not a valid string."]}
    assert not HintUse.objects.exists()


def test_the_players_own_ranked_game_in_play_gets_no_hint(api, player, issue_game, submit):
    game = issue_game(player, code=CODE)

    refused = ask(api)

    assert refused.status_code == 403
    assert refused.json() == {
        "detail": f"no hints on a ranked game: game {game.pk} is not finished",
        "code": "ranked_game_in_play",
    }
    assert not HintUse.objects.exists()

    submit(body(log=LOG, game=game.pk))
    assert ask(api).status_code == 200  # finished: it is an ordinary deal again


def test_a_hint_for_a_code_answers_alike_whether_or_not_anyone_plays_that_deal(
    api, player, other_player, issue_game, issue_known_deals
):
    """A refusal for a deal in play would confirm a guessed code (before: 403
    `ranked_game_in_play` for a code of someone's hidden-card game, 200 for any other code)."""
    issue_known_deals(UNWINNABLE)
    (in_play,) = game_issue(user=other_player, hidden=True)  # someone's hidden-card game
    nobody_plays = str(GameCode.parse(CODE).whole())
    issue_game(other_player, code=CODE)  # and someone's game issued with its code

    for code in (in_play.code, nobody_plays, CODE):
        answer = ask(api, code=code, log="")
        assert answer.status_code in (200, 202), (code, answer.json())
        assert "code" not in answer.json() or answer.json()["code"] != "ranked_game_in_play"


def test_signed_out_gets_no_hint(db):
    response = ask(APIClient())

    assert response.status_code == 403
    assert response.json() == {
        "detail": "Authentication credentials were not provided.",
        "code": "not_authenticated",
    }


def test_hints_are_throttled_per_player(api, settings, make_player):
    settings.GAMES_THROTTLE_RATES = {**settings.GAMES_THROTTLE_RATES, "hint": "2/min"}
    other = APIClient()
    other.force_login(make_player("carol"))

    statuses = [ask(api).status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    assert "throttled" in ask(api).json()["detail"]
    assert ask(other).status_code == 200
    assert HintUse.objects.count() == 3


# --- Assisted results ----------------------------------------------------------------------------


def test_a_win_after_a_hint_is_assisted_and_enters_no_board(api, player, submit):
    ask(api)

    submission_id = submit(body(log=LOG, code=CODE)).json()["id"]
    result = api.get(f"/api/submissions/{submission_id}/").json()

    assert (result["status"], result["won"], result["assisted"], result["ranks"]) == (
        "verified",
        True,
        True,
        {},
    )
    assert boards(player) == []


def test_a_hint_keeps_even_a_ranked_win_of_that_deal_off_every_board(api, player, issue_game, submit):
    ask(api)  # before the deal was issued to the player as a ranked game
    game = issue_game(player, code=CODE)

    submission_id = submit(body(log=LOG, game=game.pk, assisted=False)).json()["id"]

    submission = Submission.objects.get(pk=submission_id)
    assert (submission.ranked, submission.won, submission.assisted) == (True, True, True)
    assert boards(player) == []


def test_a_hinted_daily_deal_win_stays_off_its_board(api, player, submit, issue_known_deals):
    issue_known_deals(CODE)
    daily = daily_deal_pick(date=timezone.now().date(), rules="classic")
    assert daily.code == str(GameCode.parse(CODE).whole())
    ask(api, code=daily.code)

    submit(body(log=LOG, code=daily.code))

    assert boards(player) == []
    assert api.get(f"/api/deals/{daily.code}/").json()["players"] == 0


def test_a_hint_on_another_code_or_after_the_result_arrived_changes_nothing(
    api, player, django_capture_on_commit_callbacks
):
    ask(api, code=UNWINNABLE, log="")
    with django_capture_on_commit_callbacks(execute=False):  # stored, not verified yet
        submission_id = api.post("/api/submissions/", body(log=LOG, code=CODE), format="json").json()["id"]
    ask(api)  # received before this hint

    submission = submission_verify(submission_id=submission_id)

    assert (submission.won, submission.assisted) == (True, False)
    assert Submission.objects.get(pk=submission_id).assisted is False
    assert boards(player) == sorted(result_boards(submission=submission))  # counted
    assert f"deal:{CODE}" in boards(player)


def test_the_pages_own_assisted_flag_is_honoured(api, player, submit):
    submission_id = submit(body(log=LOG, code=CODE, assisted=True)).json()["id"]

    assert Submission.objects.get(pk=submission_id).assisted is True
    assert boards(player) == []
