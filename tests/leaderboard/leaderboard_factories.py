"""Players and verified wins for the leaderboard tests.

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
from django.db import transaction
from django.test import TestCase

from games.engine import Game, verify
from games.models import Submission
from leaderboard.services import result_record

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
    """A verified win of `user`, received at `at`, recorded on the boards (Redis after commit)."""
    code = code or WINNING_CODES[rules][0]
    log = log or padded_log(code, extra_moves)
    tokens = log.split()
    verdict = verify(code, tokens)
    assert verdict.legal and verdict.won, verdict
    with TestCase.captureOnCommitCallbacks(execute=True), transaction.atomic():
        submission = Submission.objects.create(
            client_id=uuid.uuid4(),
            user=user,
            code=code,
            rules=rules,
            ranked=ranked,
            assisted=assisted,
            log=log,
            move_times_ms=[MOVE_MS * (i + 1) for i in range(len(tokens))],
            duration_ms=MOVE_MS * len(tokens),
            client_finished_at=at,
            body_hash="0" * 64,
            received_at=at,
            status=Submission.Status.VERIFIED,
            won=True,
            moves=verdict.moves,
            foundation_cards=verdict.foundation_cards,
            score=verdict.score,
            points=verdict.points,
            settled_at=at,
            engine_version="1",
        )
        if not assisted:
            result_record(submission=submission)
    return submission
