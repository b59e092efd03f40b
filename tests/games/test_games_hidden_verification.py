"""The verification of hidden-card games' results: the reveal clock (`timing_reveals`), cards
played before they were revealed (`unrevealed_card`), the recorded prefix (`prefix_conflict`)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from games_helpers import CLASSIC_WIN, PACE_MS, body, paced
from hidden_helpers import LATENCY_MS, LOOK_MS, exposing_prefixes, issue_hidden, reveal_along, steady_receipt

from games.engine import CARD_NAMES, Game
from games.hidden.checks import hidden_log_problem
from games.log_input import SubmissionInput
from games.submissions.intake import submission_create
from games.submissions.settle import submission_reverify, submission_verify

pytestmark = pytest.mark.django_db

WIN_LOG = CLASSIC_WIN["log"]
TOKENS = WIN_LOG.split()
TIMES = paced(WIN_LOG)
EXPOSING = exposing_prefixes(CLASSIC_WIN["code"], WIN_LOG)  # [11, 14, 15, 16, …, 52]
DURATION_MS = TIMES[-1] + 400


def settle(game, *, received_after_last_ms: int | None = None, log: str = WIN_LOG, step_ms: int = PACE_MS):
    """Submit the game's result through the service, received `received_after_last_ms` after its
    last reveal's receipt (a steady player's time by default), and verify it."""
    times = paced(log, step_ms)
    duration = times[-1] + 400
    last = game.reveals.order_by("-prefix_length").first()
    if received_after_last_ms is None:
        received = steady_receipt(game, duration)
    else:
        received = last.received_at + timedelta(milliseconds=received_after_last_ms)
    data = SubmissionInput(
        client_id=uuid.uuid4(),
        game_id=game.pk,
        log=log,
        move_times_ms=times,
        duration_ms=duration,
        finished_at=received,
    )
    submission, _ = submission_create(user=game.user, data=data, now=received)
    return submission_verify(submission_id=submission.pk)


def reason(submission) -> tuple[str, str, str]:
    return submission.status, submission.reason_code, submission.reason


@pytest.fixture
def game(player):
    return issue_hidden(player, CLASSIC_WIN["code"])


# --- The reveal clock -------------------------------------------------------------------------------


def test_a_steady_player_is_verified(game):
    reveal_along(game, WIN_LOG)

    submission = settle(game)

    assert (submission.status, submission.won, submission.reason_code) == ("verified", True, "")


@pytest.mark.parametrize(
    ("early_ms", "tolerance_ms", "status"),
    [(1500, 2000, "verified"), (2000, 2000, "verified"), (2001, 2000, "rejected"), (1500, 1000, "rejected")],
)
def test_play_counted_beyond_the_servers_clock_is_rejected_past_the_tolerance(
    game, settings, early_ms, tolerance_ms, status
):
    """The reveal at move 49 (11 moves after the one before it, 400 ms apart) reaches the server
    `early_ms` before a steady player's would: the page counted that much more play than the
    server saw pass, since any earlier reveal."""
    settings.REVEAL_CLOCK_TOLERANCE_MS = tolerance_ms
    late = EXPOSING.index(49)
    reveal_along(game, WIN_LOG, step_ms=400, early_ms=lambda number: early_ms if number == late else 0)

    submission = settle(game, step_ms=400)

    assert submission.status == status
    if status == "rejected":
        played = 400 * (49 - EXPOSING[0])  # from the first reveal: every one before was as late
        assert reason(submission) == (
            "rejected",
            "timing_reveals",
            f"the page counted {played} ms of play between the reveal at move {EXPOSING[0]} and the "
            f"reveal at move 49, but only {played - early_ms} ms passed on the server "
            f"(tolerance {tolerance_ms} ms)",
        )


def test_the_tolerance_is_granted_once_not_once_a_reveal(game):
    """Each reveal 1 s sooner than the one before it would allow: every step is within the 2 s
    tolerance, but from the first reveal to the fourth the page invented 3 s of play."""
    reveal_along(game, WIN_LOG, step_ms=1500, early_ms=lambda number: 1000 * number)

    submission = settle(game, step_ms=1500)

    played = 1500 * (EXPOSING[3] - EXPOSING[0])
    assert reason(submission) == (
        "rejected",
        "timing_reveals",
        f"the page counted {played} ms of play between the reveal at move {EXPOSING[0]} and the "
        f"reveal at move {EXPOSING[3]}, but only {played - 3000} ms passed on the server (tolerance 2000 ms)",
    )
    assert submission.reason_params == {
        "played_ms": played,
        "passed_ms": played - 3000,
        "tolerance_ms": 2000,
        "since_move": EXPOSING[0],
        "until_move": EXPOSING[3],
    }


def test_the_result_itself_is_a_mark_of_the_servers_clock(game):
    reveal_along(game, WIN_LOG)
    after_last = DURATION_MS - TIMES[EXPOSING[-1] - 1]  # the page's play from the last reveal to the end

    late_enough = settle(game, received_after_last_ms=after_last)

    assert late_enough.status == "verified"


def test_a_result_received_too_soon_after_the_last_reveal_is_rejected(game):
    reveal_along(game, WIN_LOG)
    after_last = DURATION_MS - TIMES[EXPOSING[-1] - 1]

    submission = settle(game, received_after_last_ms=after_last - 2500)

    # Measured from the first reveal: the page's clock was as far behind the server's at each.
    played = DURATION_MS - TIMES[EXPOSING[0] - 1]
    assert reason(submission) == (
        "rejected",
        "timing_reveals",
        f"the page counted {played} ms of play between the reveal at move {EXPOSING[0]} and this result, "
        f"but only {played - 2500} ms passed on the server (tolerance 2000 ms)",
    )
    marks = submission.reason_params["since_move"], submission.reason_params["until_move"]
    assert marks == (EXPOSING[0], None)  # from the first reveal to this result


def test_the_first_reveal_is_measured_from_the_issue(game):
    # 10 moves a second apart before the first card (10 s on the page's clock), asked for 7.5 s
    # after the issue.
    log = " ".join(TOKENS[: EXPOSING[0]])
    reveal_along(game, log, step_ms=1000, early_ms=lambda number: LOOK_MS + LATENCY_MS + 2500)

    submission = settle(game, log=log, step_ms=1000)

    assert reason(submission) == (
        "rejected",
        "timing_reveals",
        f"the page counted 10000 ms of play between the game's issue and the reveal at move {EXPOSING[0]}, "
        "but only 7500 ms passed on the server (tolerance 2000 ms)",
    )


# --- What the page could not have known ---------------------------------------------------------


def test_a_result_played_past_a_card_never_revealed_is_rejected(api, game, submit):
    reveal_along(game, WIN_LOG, upto=EXPOSING[2])  # the fourth card (move EXPOSING[3]) is never asked for
    column = next(
        index
        for index, (was, now) in enumerate(
            zip(face_down_after(EXPOSING[3] - 1), face_down_after(EXPOSING[3]), strict=True)
        )
        if now < was
    )

    response = submit(body(log=WIN_LOG, game=game.pk))

    assert response.status_code == 202  # it extends the recorded prefix: refused by the verification
    result = api.get(f"/api/submissions/{response.json()['id']}/").json()
    token = TOKENS[EXPOSING[3]]
    assert (result["status"], result["won"]) == ("rejected", False)
    assert result["reason"] == {
        "code": "unrevealed_card",
        "message": f"move {EXPOSING[3] + 1} `{token}`: the card turned up in column {column + 1} is not "
        "known yet; the server never revealed it to this game",
        "params": {"move": EXPOSING[3] + 1, "token": token, "column": column + 1},
    }


def test_no_refusal_tells_whether_a_guessed_card_was_right(api, player, submit):
    """The guess oracle: turn a card up without asking for it, then move a card named by a guess.
    Before, a right guess was refused `unrevealed_card` and a wrong one `face_down` (the whole
    deal was replayed first); now both stop at the same move with the same answer, figures and
    all, whatever the log holds after it."""
    code = CLASSIC_WIN["code"]
    turn_up = EXPOSING[0]  # the log's first move that turns a card up: never asked for
    place = next(
        (column, now) for column, (was, now) in
        enumerate(zip(face_down_after(turn_up - 1), face_down_after(turn_up), strict=True)) if now < was
    )  # fmt: skip
    hidden_card = Game(code).known_deal().columns[place[0]][place[1]]
    column_7 = Game(code).known_deal().columns[6]
    wrong_card = next(card for card in column_7[:6] if card != hidden_card)  # another face-down card
    answers = []
    for guess in (hidden_card, wrong_card):
        game = issue_hidden(player, code)
        guessed = f"{CARD_NAMES[guess]}>{1 + (place[0] + 1) % 7}"
        log = " ".join([*TOKENS[:turn_up], guessed, *TOKENS[turn_up + 1 : turn_up + 5]])
        response = submit(body(log=log, game=game.pk))
        assert response.status_code == 202
        result = api.get(f"/api/submissions/{response.json()['id']}/").json()
        answers.append({key: result[key] for key in ("status", "won", "reason", "moves", "score")})

    assert answers[0]["reason"]["code"] == "unrevealed_card"
    assert answers[0]["reason"]["params"]["move"] == turn_up + 1
    # The token itself differs (it names the guessed card); nothing else does.
    for answer in answers:
        answer["reason"]["params"].pop("token")
        before, _token, after = answer["reason"]["message"].split("`")
        answer["reason"]["message"] = before + after
    assert answers[0] == answers[1]


def face_down_after(length: int) -> tuple[int, ...]:
    game = Game(CLASSIC_WIN["code"])
    for token in TOKENS[:length]:
        game.play(token)
    return game.face_down


def test_a_log_that_does_not_extend_the_record_is_a_prefix_conflict_for_the_judge(game):
    reveal_along(game, WIN_LOG, upto=EXPOSING[0])
    game.refresh_from_db()
    times = TIMES.copy()
    times[3] += 1

    problem = hidden_log_problem(game=game, tokens=TOKENS, times=times)

    assert problem == (
        "prefix_conflict",
        f"the time of move 4 ({times[3]} ms) differs from the server's record of this game ({TIMES[3]} ms)",
        {"variant": "time", "move": 4, "time_ms": times[3], "recorded_ms": TIMES[3]},
    )
    assert hidden_log_problem(game=game, tokens=TOKENS[:14], times=TIMES[:14]) is None


def test_a_verified_hidden_game_stays_verified_when_judged_again(game):
    reveal_along(game, WIN_LOG)
    submission = settle(game)

    again = submission_reverify(submission=submission)

    assert (again.changed, again.after["status"]) == (False, "verified")


def test_games_issued_with_their_code_have_no_reveal_clock(player, issue_game, submit, api, settings):
    settings.REVEAL_CLOCK_TOLERANCE_MS = 0
    game = issue_game(player)

    response = submit(body(log=WIN_LOG, game=game.pk, step_ms=PACE_MS))

    assert api.get(f"/api/submissions/{response.json()['id']}/").json()["status"] == "verified"
