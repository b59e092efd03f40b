"""Players and verified wins for the leaderboard tests, made through the real services.

Wins are real games: a known winning log from the engine's vectors, optionally lengthened by
"move, undo" pairs (each adds one move, so the ranked score drops by one), verified by the
engine. Scores in tests are therefore `best − extra_moves`.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from functools import cache
from pathlib import Path

from django.contrib.auth import get_user_model
from django.test import TestCase

from games.engine import Game, GameCode, verify
from games.models import Submission
from games.services import SubmissionInput, game_issue, submission_create
from games.verification import submission_verify

VECTORS = Path(__file__).resolve().parents[2] / "games" / "engine" / "vectors" / "logs.json"
# Codes with a known winning log, per rule set; the first is the default.
WINNING_CODES = {
    "classic": ["YU1-C-AAAAAAA", "YU1-C-AAAAAAC", "YU1-C-AAAAAAF", "YU1-C-AAAAAAH"],
    "relaxed": ["YU1-R-AAAAAAB", "YU1-R-AAAAAAD", "YU1-R-AAAAAAG"],
}
MOVE_MS = 300


@cache
def winning_log(code: str) -> str:
    """The shortest legal winning log of the vectors for `code`."""
    cases = json.loads(VECTORS.read_text())["cases"]
    logs = [
        case["log"]
        for case in cases
        if case["code"] == code and case["verdict"]["won"] and case["verdict"]["legal"]
    ]
    return min(logs, key=lambda log: len(log.split()))


@cache
def padded_log(code: str, extra_moves: int) -> str:
    """The winning log of `code` with `extra_moves` "move, undo" pairs first: score − extra_moves."""
    first = next(iter(Game(code).legal_moves))
    return " ".join([f"{first} U"] * extra_moves + [winning_log(code)])


def best_score(code: str) -> int:
    return verify(code, winning_log(code)).score


def player(name: str):
    return get_user_model().objects.create_user(username=name, email=f"{name}@example.com", password=None)


def win(
    user,
    *,
    at: dt.datetime,
    rules: str = "classic",
    code: str | None = None,
    extra_moves: int = 0,
    ranked: bool = True,
    assisted: bool = False,
    log: str | None = None,
) -> Submission:
    """A win of `user` received at `at`, through the real services: issued (when ranked),
    submitted, verified by replay and recorded on the boards (Redis after the commit)."""
    code = code or WINNING_CODES[rules][0]
    log = log or padded_log(code, extra_moves)
    times = [MOVE_MS * (index + 1) for index in range(len(log.split()))]
    game_id = None
    if ranked:
        number = GameCode.parse(code).number
        game_id = game_issue(user=user, rules=rules, deal_numbers=[number], now=at - dt.timedelta(hours=1))[
            0
        ].pk
    data = SubmissionInput(
        client_id=uuid.uuid4(), log=log, move_times_ms=times, duration_ms=times[-1], finished_at=at,
        game_id=game_id, code=None if ranked else code, assisted=assisted,
    )  # fmt: skip
    with TestCase.captureOnCommitCallbacks(execute=True):
        submission, _ = submission_create(user=user, data=data, now=at)
        # Eager Celery has settled it already; with a broker and no worker, settle it here.
        submission = submission_verify(submission_id=submission.pk)
    assert (submission.status, submission.won) == (Submission.Status.VERIFIED, True), submission.reason
    return submission
