"""Intake of results: a submission is validated, stored in one transaction (nothing at all is
stored for a refused request), and its verification is enqueued when that transaction commits
(`games.submissions.queue`); voiding a result. The judge and the settling: `judge`, `settle`."""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import results
from games.engine import GameCode, InvalidCodeError
from games.errors import (
    ClientIdConflict,
    GameAlreadyUsed,
    GameNotFound,
    GameNotYours,
    PrefixConflict,
    SubmissionInvalid,
)
from games.hidden.record import prefix_conflict
from games.log_input import SubmissionInput, log_and_times_errors
from games.models import IssuedGame, Submission
from games.selectors import game_expiry_cutoff
from games.submissions.queue import submissions_verify_soon

logger = logging.getLogger(__name__)


def submission_validate(*, data: SubmissionInput, now: datetime) -> tuple[GameCode | None, list[str]]:
    """Check what can be checked without the database; raises SubmissionInvalid with field errors."""
    errors: dict[str, list] = {}
    game_code = None
    if (data.game_id is None) == (data.code is None):
        errors["non_field_errors"] = ["send either `game` (an issued game's id) or `code`, not both"]
    elif data.code is not None:
        try:
            game_code = GameCode.parse(data.code)
        except InvalidCodeError as error:
            errors["code"] = [str(error)]
    times = data.move_times_ms
    tokens, log_errors = log_and_times_errors(log=data.log, times=times)
    errors.update(log_errors)
    if times and data.duration_ms < times[-1]:
        errors["duration_ms"] = ["the duration must be at least the last move's time"]
    skew = timedelta(milliseconds=settings.SUBMISSION_CLOCK_SKEW_MS)
    if data.finished_at > now + skew:
        errors["finished_at"] = ["finished_at is in the future"]
    if errors:
        raise SubmissionInvalid(errors)
    return game_code, tokens


def _body_hash(*, user_id: int, data: SubmissionInput) -> str:
    body = {
        "user": user_id,
        "game": data.game_id,
        "code": data.code.strip().upper() if data.code else None,
        "log": " ".join(data.log.split()),
        "move_times_ms": data.move_times_ms,
        "duration_ms": data.duration_ms,
        "finished_at": data.finished_at.isoformat(),
        "client_version": data.client_version,
        "assisted": data.assisted,
    }
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _existing(*, client_id: uuid.UUID, body_hash: str) -> Submission | None:
    """The submission already stored under `client_id` (same body), or None; 409 for another body."""
    existing = Submission.objects.filter(client_id=client_id).first()
    if existing is not None and existing.body_hash != body_hash:
        raise ClientIdConflict("this client_id was already used for another submission")
    return existing


def submission_create(*, user, data: SubmissionInput, now: datetime | None = None) -> tuple[Submission, bool]:
    """Store a finished game as a pending submission and enqueue its verification.

    Returns (submission, created). The same client_id with the same body returns the stored
    row (created False); with another body it raises ClientIdConflict. A ranked game must be
    issued to `user` and unused (GameNotFound, GameNotYours, GameAlreadyUsed).
    """
    now = now or timezone.now()
    game_code, tokens = submission_validate(data=data, now=now)
    body_hash = _body_hash(user_id=user.pk, data=data)
    # No look-up first: a client_id sent again is rare, and its INSERT (or its game) refuses it.
    try:
        with transaction.atomic():
            submission = _store(user=user, data=data, game_code=game_code, body_hash=body_hash, now=now)
            # robust: a broker outage must not undo a stored result; the sweeper enqueues it later.
            transaction.on_commit(submissions_verify_soon, robust=True)
    except (IntegrityError, GameAlreadyUsed) as error:
        # This client_id was stored before, or by a parallel request (or the game was used).
        if existing := _existing(client_id=data.client_id, body_hash=body_hash):
            return existing, False
        if isinstance(error, GameAlreadyUsed):
            raise
        raise GameAlreadyUsed("this game already has a result") from None
    logger.info(
        "submission stored",
        extra={"submission_id": submission.pk, "user_id": user.pk, "ranked": submission.ranked},
    )
    return submission, True


def _store(*, user, data: SubmissionInput, game_code: GameCode | None, body_hash: str, now) -> Submission:
    if data.game_id is not None:
        code, rules, hidden, contest = _game_take(
            game_id=data.game_id, user=user, finished_at=data.finished_at, now=now
        )
        if hidden:
            _recorded_prefix_check(game_id=data.game_id, data=data)
        if contest:
            game_ids = [data.game_id]
            transaction.on_commit(lambda: results.contest_results_changed(game_ids=game_ids), robust=True)
    else:
        code, rules = str(game_code), game_code.rules.value
    return Submission.objects.create(
        client_id=data.client_id,
        user=user,
        game_id=data.game_id,
        code=code,
        rules=rules,
        ranked=data.game_id is not None,
        assisted=data.assisted,
        log=" ".join(data.log.split()),
        move_times_ms=data.move_times_ms,
        duration_ms=data.duration_ms,
        client_finished_at=data.finished_at,
        client_version=data.client_version,
        body_hash=body_hash,
        received_at=now,
    )


def _recorded_prefix_check(*, game_id: int, data: SubmissionInput) -> None:
    """A hidden-card game's result must extend the prefix its reveals recorded (PrefixConflict).
    Read after the UPDATE that took the game: a reveal can no longer change it."""
    game = IssuedGame.objects.only("recorded_log", "recorded_times_ms").get(pk=game_id)
    if problem := prefix_conflict(game, tokens=data.log.split(), times=data.move_times_ms, must_extend=True):
        raise PrefixConflict(problem)


def _game_take(*, game_id: int, user, finished_at: datetime, now: datetime) -> tuple[str, str, bool, str]:
    """Mark the player's issued, unused game finished; its (code, rules, hidden, contest). One
    UPDATE … RETURNING (it locks the row until the commit); only a refusal reads the game to say why."""
    skew = timedelta(milliseconds=settings.SUBMISSION_CLOCK_SKEW_MS)
    state = IssuedGame.State
    sql = (
        f"UPDATE {connection.ops.quote_name(IssuedGame._meta.db_table)} SET state = %s, finished_at = %s "
        "WHERE id = %s AND user_id = %s AND state = %s AND issued_at <= %s AND issued_at >= %s "
        "RETURNING code, rules, hidden, contest"
    )
    adapt = connection.ops.adapt_datetimefield_value
    cutoff = game_expiry_cutoff(now=now)  # expired, even before the hourly task marks it so
    with connection.cursor() as cursor:
        latest_issue = adapt(finished_at + skew)
        cursor.execute(
            sql, [state.FINISHED, adapt(now), game_id, user.pk, state.ISSUED, latest_issue, adapt(cutoff)]
        )
        taken = cursor.fetchone()
    if taken is not None:
        code, rules, hidden, contest = taken
        return code, rules, bool(hidden), contest  # SQLite answers 0 or 1 for hidden
    game = IssuedGame.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(f"no game {game_id} was issued")
    if game.user_id != user.pk:
        raise GameNotYours(f"game {game_id} was issued to another player")
    if game.state != state.ISSUED:
        raise GameAlreadyUsed(f"game {game_id} is {game.state}: it accepts no result")
    if game.issued_at < cutoff:
        raise GameAlreadyUsed(f"game {game_id} is {state.EXPIRED}: it accepts no result")
    if finished_at < game.issued_at - skew:
        raise SubmissionInvalid({"finished_at": ["finished_at is before the game was issued"]})
    raise GameAlreadyUsed(f"game {game_id} already has a result")


def submission_void(*, submission: Submission, voided: bool = True) -> Submission:
    """Void (or restore) one result: it leaves (or re-enters) the boards; the player's are rebuilt."""
    with transaction.atomic():
        Submission.objects.filter(pk=submission.pk).update(voided=voided)
        submission.voided = voided
        if submission.user_id is not None:
            results.player_results_changed(user_id=submission.user_id)
    logger.info(
        "submission voided" if voided else "submission restored", extra={"submission_id": submission.pk}
    )
    return submission
