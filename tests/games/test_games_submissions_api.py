"""POST /api/submissions/ and GET /api/submissions/[<id>/]: flows, idempotency, cheating, bad input."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from games_helpers import CLASSIC_WIN, RELAXED_WIN, body, expected_score
from rest_framework.test import APIClient

from accounts.services import user_suspend
from games.models import IssuedGame, Submission

pytestmark = pytest.mark.django_db

WIN_LOG = CLASSIC_WIN["log"]
LOST_LOG = " ".join(WIN_LOG.split()[:30])  # legal, far from won


def detail(api, submission_id):
    response = api.get(f"/api/submissions/{submission_id}/")
    assert response.status_code == 200, response.json()
    return response.json()


def nothing_stored():
    return Submission.objects.count() == 0


# --- Flows --------------------------------------------------------------------------------------


def test_a_won_ranked_game_is_verified_with_the_servers_score(api, player, issue_game, submit):
    game = issue_game(player)

    response = submit(body(log=WIN_LOG, game=game.pk))

    assert response.status_code == 202, response.json()
    submission_id = response.json()["id"]
    assert response.json() == {"id": submission_id, "status": "pending"}
    result = detail(api, submission_id)
    assert result["status"] == "verified"
    assert result["won"] is True
    assert result["ranked"] is True
    assert result["moves"] == CLASSIC_WIN["moves"]
    assert result["score"] == 7200 - CLASSIC_WIN["moves"] == expected_score(WIN_LOG, CLASSIC_WIN["code"])
    assert result["points"] == 625
    assert result["reason"] is None
    assert result["engine_version"] == "1"
    assert result["code"] == CLASSIC_WIN["code"] and result["game"] == game.pk
    game.refresh_from_db()
    assert game.state == IssuedGame.State.FINISHED


def test_a_lost_game_is_verified_as_played_not_won_and_enters_no_board(api, player, issue_game, submit):
    game = issue_game(player)

    response = submit(body(log=LOST_LOG, game=game.pk))

    assert response.status_code == 202
    result = detail(api, response.json()["id"])
    assert result["status"] == "verified"
    assert result["won"] is False
    assert result["moves"] == 30
    assert result["ranks"] == {}
    game.refresh_from_db()
    assert game.state == IssuedGame.State.FINISHED


@pytest.mark.parametrize("win", [CLASSIC_WIN, RELAXED_WIN], ids=["classic", "relaxed"])
def test_a_game_from_a_typed_code_is_verified_unranked(api, submit, win):
    response = submit(body(log=win["log"], code=win["code"].lower()))

    assert response.status_code == 202
    result = detail(api, response.json()["id"])
    assert result["status"] == "verified" and result["won"] is True
    assert result["ranked"] is False
    assert result["game"] is None
    assert result["code"] == win["code"]
    assert result["rules"] == ("classic" if "-C-" in win["code"] else "relaxed")


def test_the_same_client_id_again_returns_the_same_submission(api, submit):
    data = body(log=WIN_LOG, code=CLASSIC_WIN["code"])
    first = submit(data)

    again = submit(data)

    assert first.status_code == 202
    assert again.status_code == 200
    assert again.json() == {"id": first.json()["id"], "status": "verified"}
    assert Submission.objects.count() == 1


def test_the_same_client_id_with_another_body_is_a_conflict(api, submit):
    data = body(log=WIN_LOG, code=CLASSIC_WIN["code"])
    submit(data)

    response = submit({**data, "duration_ms": data["duration_ms"] + 1})

    assert response.status_code == 409
    assert response.json()["code"] == "client_id_conflict"
    assert Submission.objects.count() == 1


def test_history_is_the_players_own_newest_first_and_paginated(api, player, other_player, submit):
    ids = [submit(body(log=LOST_LOG, code=CLASSIC_WIN["code"])).json()["id"] for _ in range(3)]
    stranger = APIClient()
    stranger.force_login(other_player)
    submit(body(log=LOST_LOG, code=CLASSIC_WIN["code"]), client=stranger)

    page = api.get("/api/submissions/?page_size=2")

    assert page.status_code == 200
    assert page.json()["count"] == 3
    assert [row["id"] for row in page.json()["results"]] == ids[::-1][:2]
    assert page.json()["next"] and page.json()["previous"] is None
    rest = api.get(page.json()["next"])
    assert [row["id"] for row in rest.json()["results"]] == ids[:1]


def test_another_players_submission_answers_404(api, other_player, submit):
    submission_id = submit(body(log=LOST_LOG, code=CLASSIC_WIN["code"])).json()["id"]
    stranger = APIClient()
    stranger.force_login(other_player)

    response = stranger.get(f"/api/submissions/{submission_id}/")

    assert response.status_code == 404
    assert response.json() == {"detail": "Not found.", "code": "not_found"}


# --- Cheating -----------------------------------------------------------------------------------


def test_a_forged_score_moves_and_won_are_ignored(api, submit):
    response = submit(
        body(log=LOST_LOG, code=CLASSIC_WIN["code"], score=99_999, moves=1, won=True, points=625)
    )

    assert response.status_code == 202
    result = detail(api, response.json()["id"])
    assert result["won"] is False
    assert result["moves"] == 30
    assert result["score"] == expected_score(LOST_LOG, CLASSIC_WIN["code"])


def test_an_illegal_move_is_rejected_with_its_index_token_and_reason(api, submit):
    log = "7S>5"  # YU1-C-AAAAEDW: one rank higher but the same colour
    response = submit(body(log=log, code="YU1-C-AAAAEDW"))

    result = detail(api, response.json()["id"])
    assert result["status"] == "rejected"
    assert result["won"] is False
    assert result["reason"] == {
        "code": "wrong_colour",
        "message": "move 1 `7S>5`: 7♠ needs a red 8",
        "params": {"move": 1, "token": "7S>5", "variant": "red", "card": "7♠", "rank": "8"},
    }


def test_another_players_game_is_refused_and_nothing_is_stored(api, other_player, issue_game, submit):
    game = issue_game(other_player)

    response = submit(body(log=WIN_LOG, game=game.pk))

    assert response.status_code == 403
    assert response.json()["code"] == "game_not_yours"
    assert nothing_stored()
    game.refresh_from_db()
    assert game.state == IssuedGame.State.ISSUED


def test_a_game_used_twice_is_refused(api, player, issue_game, submit):
    game = issue_game(player)
    first = submit(body(log=WIN_LOG, game=game.pk))

    second = submit(body(log=WIN_LOG, game=game.pk))

    assert first.status_code == 202
    assert second.status_code == 409
    assert second.json()["code"] == "game_used"
    assert Submission.objects.count() == 1


def test_an_invented_game_id_is_refused(api, submit):
    response = submit(body(log=WIN_LOG, game=987_654))

    assert response.status_code == 404
    assert response.json() == {"detail": "no game 987654 was issued", "code": "game_not_found"}
    assert nothing_stored()


def test_an_expired_game_accepts_no_result(api, player, issue_game, submit):
    game = issue_game(player)
    IssuedGame.objects.filter(pk=game.pk).update(state=IssuedGame.State.EXPIRED)

    response = submit(body(log=WIN_LOG, game=game.pk))

    assert response.status_code == 409
    assert nothing_stored()


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"step_ms": 30}, "timing_move"),  # every move 30 ms apart
        ({"step_ms": 100}, "timing_average"),  # 100 ms a move on average
        ({"duration_ms": 3 * 3600 * 1000}, "timing_duration"),  # longer than the hour since issue
    ],
)
def test_impossible_timings_are_rejected(api, player, issue_game, submit, change, code):
    game = issue_game(player)

    response = submit(body(log=WIN_LOG, game=game.pk, **change))

    assert response.status_code == 202
    result = detail(api, response.json()["id"])
    assert result["status"] == "rejected"
    assert result["reason"]["code"] == code


def test_a_quick_undo_is_no_timing_problem(api, submit):
    tokens = WIN_LOG.split()
    log = " ".join([*tokens[:10], "U", tokens[9], *tokens[10:]])
    data = body(log=log, code=CLASSIC_WIN["code"])
    data["move_times_ms"][10] = data["move_times_ms"][9] + 5  # the undo 5 ms after the move
    response = submit(data)

    result = detail(api, response.json()["id"])
    assert (result["status"], result["won"]) == ("verified", True)


def test_thresholds_come_from_settings(api, submit, settings):
    settings.SUBMISSION_MIN_MOVE_MS = 1
    settings.SUBMISSION_MIN_AVERAGE_MOVE_MS = 1

    response = submit(body(log=WIN_LOG, code=CLASSIC_WIN["code"], step_ms=5))

    assert detail(api, response.json()["id"])["status"] == "verified"


def test_a_suspended_player_is_refused_with_a_clear_reason(api, player, submit):
    user_suspend(user=player, reason="bot play")

    response = submit(body(log=WIN_LOG, code=CLASSIC_WIN["code"]))

    result = detail(api, response.json()["id"])
    assert result["status"] == "rejected"
    assert result["reason"] == {
        "code": "suspended",
        "message": "the player is suspended: bot play",
        "params": {"note": "bot play"},
    }


def test_finished_at_in_the_future_is_refused(api, submit):
    future = (timezone.now() + timedelta(days=1)).isoformat()

    response = submit(body(log=WIN_LOG, code=CLASSIC_WIN["code"], finished_at=future))

    assert response.status_code == 400
    assert response.json() == {"finished_at": ["finished_at is in the future"]}
    assert nothing_stored()


def test_finished_at_before_the_game_was_issued_is_refused(api, player, issue_game, submit):
    game = issue_game(player)
    backdated = (game.issued_at - timedelta(days=1)).isoformat()

    response = submit(body(log=WIN_LOG, game=game.pk, finished_at=backdated))

    assert response.status_code == 400
    assert response.json() == {"finished_at": ["finished_at is before the game was issued"]}
    assert nothing_stored()
    game.refresh_from_db()
    assert game.state == IssuedGame.State.ISSUED


# --- Bad input ----------------------------------------------------------------------------------


def bad(submit, data, field):
    response = submit(data)
    assert response.status_code == 400, response.json()
    assert field in response.json(), response.json()
    assert nothing_stored()
    return response.json()[field]


def test_a_missing_field_is_a_field_error(submit):
    data = body(log=WIN_LOG, code=CLASSIC_WIN["code"])
    del data["move_times_ms"]

    assert bad(submit, data, "move_times_ms") == ["This field is required."]


@pytest.mark.parametrize(
    ("field", "value"),
    [("duration_ms", "12000"), ("log", 42), ("move_times_ms", "1 2 3"), ("move_times_ms", [170, "340"]),
     ("move_times_ms", [-1]), ("client_id", "not-a-uuid"), ("finished_at", "yesterday"), ("game", "7"),
     ("duration_ms", True), ("code", ["YU1-C-AAAAAAA"])],
)  # fmt: skip
def test_wrong_types_are_field_errors(submit, field, value):
    data = body(log=WIN_LOG, code=CLASSIC_WIN["code"])
    data[field] = value

    bad(submit, data, field)


def test_both_game_and_code_is_refused(player, issue_game, submit):
    game = issue_game(player)

    errors = bad(submit, body(log=WIN_LOG, game=game.pk, code=game.code), "non_field_errors")

    assert errors == ["send either `game` (an issued game's id) or `code`, not both"]


def test_neither_game_nor_code_is_refused(submit):
    bad(submit, body(log=WIN_LOG), "non_field_errors")


def test_a_bad_code_is_refused(submit):
    errors = bad(submit, body(log=WIN_LOG, code="YU1-X-AAAAAAA"), "code")

    assert errors == ["unknown rule letter 'X': expected C (Classic) or R (Relaxed)"]


def test_an_unreadable_token_is_refused_with_its_index_and_engine_code(submit):
    errors = bad(submit, body(log="AS>F 9X>2 KC>1", code=CLASSIC_WIN["code"]), "log")

    assert errors == [
        {
            "index": 1,
            "token": "9X>2",
            "code": "bad_token",
            "message": "`9X>2` is not a move: write a card and a destination like TD>5, or U to undo",
        }
    ]


def test_a_log_over_5000_tokens_is_refused(submit):
    log = " ".join(["U"] * 5001)

    assert bad(submit, body(log=log, code=CLASSIC_WIN["code"]), "log") == [
        "the log has 5001 tokens; at most 5000"
    ]


def test_a_log_over_64_kilobytes_is_refused(submit):
    log = "AS>F" + " " * 70_000 + "KC>1"

    assert bad(submit, body(log=log, code=CLASSIC_WIN["code"]), "log") == [
        "the log is longer than 65536 bytes"
    ]


def test_an_empty_log_is_refused(submit):
    data = body(log="AS>F", code=CLASSIC_WIN["code"])
    data.update(log=" ", move_times_ms=[])

    bad(submit, data, "log")


def test_times_of_the_wrong_length_are_refused(submit):
    data = body(log=WIN_LOG, code=CLASSIC_WIN["code"])
    data["move_times_ms"] = data["move_times_ms"][:-1]

    assert bad(submit, data, "move_times_ms") == [
        f"expected {CLASSIC_WIN['moves']} times, one per token; got 94"
    ]


def test_decreasing_times_are_refused(submit):
    data = body(log=WIN_LOG, code=CLASSIC_WIN["code"])
    data["move_times_ms"][5] = 1

    assert bad(submit, data, "move_times_ms") == ["the times must not decrease"]


def test_a_duration_shorter_than_the_last_move_is_refused(submit):
    data = body(log=WIN_LOG, code=CLASSIC_WIN["code"])
    data["duration_ms"] = data["move_times_ms"][-1] - 1

    assert bad(submit, data, "duration_ms") == ["the duration must be at least the last move's time"]


def test_a_body_that_is_not_json_is_refused(api):
    response = api.post("/api/submissions/", "{not json", content_type="application/json")

    assert response.status_code == 400
    assert "JSON parse error" in response.json()["detail"]
    assert nothing_stored()


def test_a_body_over_djangos_limit_is_refused(api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100_000
    data = body(log=WIN_LOG, code=CLASSIC_WIN["code"], client_version="x" * 200_000)

    response = api.post("/api/submissions/", data, format="json")

    assert response.status_code == 413
    assert response.json()["code"] == "request_too_large"
    assert nothing_stored()


# --- Who may submit -----------------------------------------------------------------------------


def test_signed_out_is_refused(db):
    response = APIClient().post(
        "/api/submissions/", body(log=WIN_LOG, code=CLASSIC_WIN["code"]), format="json"
    )

    assert response.status_code == 403
    assert response.json() == {
        "detail": "Authentication credentials were not provided.",
        "code": "not_authenticated",
    }
    assert nothing_stored()


def test_a_missing_csrf_token_is_refused(player):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(player)

    response = client.post("/api/submissions/", body(log=WIN_LOG, code=CLASSIC_WIN["code"]), format="json")

    assert response.status_code == 403
    assert response.json()["detail"].startswith("CSRF Failed")
    assert nothing_stored()


def test_with_the_csrf_token_the_session_may_submit(player, django_capture_on_commit_callbacks):
    client = APIClient(enforce_csrf_checks=True)
    client.get("/accounts/login/")  # any page with a form sets the csrftoken cookie
    client.force_login(player)
    token = client.cookies["csrftoken"].value

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/api/submissions/",
            body(log=WIN_LOG, code=CLASSIC_WIN["code"]),
            format="json",
            HTTP_X_CSRFTOKEN=token,
        )

    assert response.status_code == 202


def test_submissions_are_throttled_per_player_with_retry_after(api, submit, settings):
    settings.GAMES_THROTTLE_RATES = {**settings.GAMES_THROTTLE_RATES, "submission_create": "2/min"}
    for _ in range(2):
        assert submit(body(log=LOST_LOG, code=CLASSIC_WIN["code"])).status_code == 202

    response = submit(body(log=LOST_LOG, code=CLASSIC_WIN["code"]))

    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert api.get("/api/submissions/").status_code == 200  # reading is not throttled


def test_an_unknown_client_id_format_is_a_field_error_not_a_crash(submit):
    data = body(log=WIN_LOG, code=CLASSIC_WIN["code"])
    data["client_id"] = str(uuid.uuid4()).upper()

    assert submit(data).status_code == 202
