"""Writes of the games app: issuing ranked deals, storing submitted results, voiding them.

A submission is validated, stored in one transaction (nothing at all is stored for a refused
request), and its verification is enqueued when that transaction commits. The verification
itself lives in `games.verification`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import results
from games.dealing import hidden_deal_draw, open_deal_draw
from games.engine import GameCode, InvalidCodeError, InvalidMoveError, Rules, parse_log
from games.errors import (
    ClientIdConflict,
    GameAlreadyUsed,
    GameNotFound,
    GameNotYours,
    PrefixConflict,
    SubmissionInvalid,
    TooManyUnplayedGames,
)
from games.hidden_record import deal_commitment, deal_secret, prefix_conflict
from games.models import IssuedGame, RulesChoice, Submission
from games.selectors import game_expiry_cutoff

logger = logging.getLogger(__name__)


# --- Issuing ranked games -----------------------------------------------------------------------


def game_issue(
    *,
    user,
    rules: str = RulesChoice.CLASSIC,
    count: int = 1,
    hidden: bool = False,
    now: datetime | None = None,
    daily: tuple[date, GameCode] | None = None,
) -> list[IssuedGame]:
    """Issue up to `count` ranked deals to `user`, never past GAMES_MAX_UNPLAYED unplayed ones.

    `hidden`: hidden-card games, each a new whole shuffle (`games.dealing.hidden_deal_draw`) with
    a secret and a commitment (their answers never name the code), counted apart from the games
    issued with their code (an open deal number) while the page still plays those.
    `daily`: (the UTC day, its deal) for the one hidden-card game of that day's daily deal
    (leaderboard.services.daily_game_issue), outside the count; a second one for the same
    player, rules and day breaks a unique constraint (IntegrityError).
    Raises TooManyUnplayedGames when the player already holds the maximum.
    """
    from accounts.models import User

    if daily is not None and not (hidden and daily[1].is_whole):
        raise ValueError("a daily-deal game is a hidden-card game of the day's whole-shuffle deal")
    now = now or timezone.now()
    limit = settings.GAMES_MAX_UNPLAYED
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one issuance per player at a time
        # The player's stale games expire here too: in eager mode no beat runs the hourly task.
        IssuedGame.objects.filter(
            user=user, state=IssuedGame.State.ISSUED, issued_at__lt=game_expiry_cutoff(now=now)
        ).update(state=IssuedGame.State.EXPIRED)
        held = IssuedGame.objects.filter(
            user=user, state=IssuedGame.State.ISSUED, hidden=hidden, daily_date__isnull=True, contest=""
        ).count()
        room = 1 if daily is not None else limit - held
        if room <= 0:
            kind = "hidden-card ranked games" if hidden else "ranked games"
            raise TooManyUnplayedGames(f"you hold {held} unplayed {kind}; finish one first (at most {limit})")
        games = []
        for _ in range(min(count, room)):
            if daily is not None:
                code = daily[1]
            elif hidden:
                code = hidden_deal_draw(rules=Rules(rules))
            else:
                code = open_deal_draw(rules=Rules(rules))
            games.append(
                _game_of_deal(
                    user=user,
                    code=code,
                    secret=deal_secret() if hidden else "",
                    issued_at=now,
                    daily_date=None if daily is None else daily[0],
                )
            )
        return IssuedGame.objects.bulk_create(games)  # PostgreSQL and SQLite set the ids


def _game_of_deal(*, user, code: GameCode, secret: str, issued_at: datetime, **fields) -> IssuedGame:
    """An unsaved issued game of the deal `code`: a hidden-card game (its commitment made) when
    it has a `secret`, else a game issued with its code."""
    return IssuedGame(
        user=user,
        code=str(code),
        rules=code.rules.value,
        issued_at=issued_at,
        hidden=bool(secret),
        secret=secret,
        commitment=deal_commitment(code=str(code), secret=secret) if secret else "",
        **fields,
    )


def contest_games_issue(
    *, users, rules: str, contest: str, issued_at: datetime, like: IssuedGame | None = None
) -> list[IssuedGame]:
    """One hidden-card game of one new whole-shuffle deal for each of `users` (a race's seats):
    the same code, secret and commitment, issued at `issued_at` (the race's start, so every
    page's clock and the server's start together). `like`: the deal, secret and commitment of
    that game instead of a new deal (a challenge's second player, who starts later). Outside
    GAMES_MAX_UNPLAYED; their code stays sealed until the contest publishes it
    (`contest_games_unseal`)."""
    if like is not None:
        code, secret = GameCode.parse(like.code), like.secret
    else:
        code, secret = hidden_deal_draw(rules=Rules(rules)), deal_secret()
    games = [
        _game_of_deal(
            user=user,
            code=code,
            secret=secret,
            issued_at=issued_at,
            contest=contest,
            code_sealed=True,
        )
        for user in users
    ]
    return IssuedGame.objects.bulk_create(games)


def contest_games_unseal(*, game_ids: Iterable[int]) -> int:
    """Publish the deal of these contest games (their code and secret), finished or not."""
    return IssuedGame.objects.filter(pk__in=list(game_ids), code_sealed=True).update(code_sealed=False)


def games_expire(*, now: datetime | None = None) -> int:
    """Mark issued games untouched for GAMES_EXPIRE_AFTER_DAYS as expired; returns how many."""
    cutoff = game_expiry_cutoff(now=now)
    expired = IssuedGame.objects.filter(state=IssuedGame.State.ISSUED, issued_at__lt=cutoff).update(
        state=IssuedGame.State.EXPIRED
    )
    if expired:
        logger.info("issued games expired", extra={"count": expired})
    return expired


# --- Submissions --------------------------------------------------------------------------------


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
            from games.verification import submissions_verify_soon

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


EAGER_SWEEP_KEY = "games:eager-sweep"


def submissions_sweep_when_due(*, now: datetime | None = None) -> int:
    """Eager mode's sweeper (no beat runs there): a request that reads results (the page asks for
    its verdicts until they come) sends the sweep at most once a sweep interval, so a submission
    whose verification hit an infrastructure error is settled again without a restart. Returns
    how many were pending past SUBMISSION_SWEEP_AFTER_SECONDS; 0 with a broker (beat sweeps)."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        return 0
    interval = settings.CELERY_BEAT_SCHEDULE["games-submissions-sweep"]["schedule"]
    if not cache.add(EAGER_SWEEP_KEY, 1, interval):
        return 0
    from games.verification import submissions_sweep

    try:
        return submissions_sweep(now=now)
    except Exception:  # the database still failing: the reader gets its answer, a later sweep retries
        logger.exception("eager sweep failed")
        return 0


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
