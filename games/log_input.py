"""A finished game's log and move times as the API and the race socket send them: their shape
(`SubmissionInput`) and the checks that need no database (`log_and_times_errors`)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings

from games.engine import InvalidMoveError, parse_log


@dataclass(frozen=True)
class SubmissionInput:
    client_id: uuid.UUID
    log: str
    move_times_ms: list[int]
    duration_ms: int
    finished_at: datetime
    game_id: int | None = None
    code: str | None = None
    client_version: str = ""
    assisted: bool = False


def _log_errors(log: str) -> tuple[list[str], list]:
    """The log's tokens, and its errors (size, then the first unreadable token)."""
    if len(log.encode("utf-8")) > settings.SUBMISSION_MAX_LOG_BYTES:
        return [], [f"the log is longer than {settings.SUBMISSION_MAX_LOG_BYTES} bytes"]
    tokens = log.split()
    if len(tokens) > settings.SUBMISSION_MAX_TOKENS:
        return tokens, [f"the log has {len(tokens)} tokens; at most {settings.SUBMISSION_MAX_TOKENS}"]
    try:
        parse_log(log)
    except InvalidMoveError as error:
        return tokens, [
            {"index": error.index, "token": error.token, "code": error.code, "message": error.message}
        ]
    return tokens, []


def log_and_times_errors(*, log: str, times: list[int]) -> tuple[list[str], dict[str, list]]:
    """The log's tokens, and the field errors of a log and its times (one a token, never decreasing)."""
    errors: dict[str, list] = {}
    tokens, log_errors = _log_errors(log)
    if log_errors:
        errors["log"] = log_errors
    elif not tokens:
        errors["log"] = ["the log is empty"]
    if not log_errors and len(times) != len(tokens):
        errors["move_times_ms"] = [f"expected {len(tokens)} times, one per token; got {len(times)}"]
    elif any(b < a for a, b in zip(times, times[1:], strict=False)):
        errors["move_times_ms"] = ["the times must not decrease"]
    return tokens, errors
