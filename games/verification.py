"""Verification: replay a submission's log on the server and settle it exactly once.

`submission_judge` decides (pure: reads the row, its game and its player); `submission_verify`
stores the verdict with a conditional update (only a pending row changes, so running it twice
changes nothing) and hands a won result to the leaderboard in the same transaction.
`submissions_verify_pending` (the task's) does the same for batches of pending rows, a batch in
one transaction: the claimed rows are locked, others' locked rows skipped; intake sends a task
by `submissions_verify_soon` when none is waiting.
`submissions_sweep` re-enqueues rows a lost task left pending; `submission_reverify` runs the
judge again on a settled row and repairs the boards when the verdict changed.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from dataclasses import field as dataclass_field
from datetime import datetime, timedelta
from functools import partial

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import InterfaceError, OperationalError, connection, transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from games import results
from games.engine import ENGINE_VERSION, InvalidCodeError, verify
from games.engine.errors import REFUSAL_CODES
from games.engine.move import MOVES_BY_TEXT, UNDO
from games.engine.verify import replay
from games.hidden_games import hidden_game_problem, unrevealed_card_problem
from games.models import HintUse, Submission
from games.solving import deals_par_request

logger = logging.getLogger(__name__)

Status = Submission.Status


@dataclass(frozen=True)
class Judgement:
    status: str
    won: bool | None = None
    moves: int | None = None
    foundation_cards: int | None = None
    score: int | None = None
    points: int | None = None
    reason_code: str = ""
    reason: str = ""
    reason_params: dict = dataclass_field(default_factory=dict)

    @property
    def counts(self) -> bool:
        """Whether the result may enter boards (the leaderboard decides which)."""
        return self.status == Status.VERIFIED and bool(self.won)

    def fields(self) -> dict:
        return asdict(self)


# Every code of a rejected result (`Submission.reason_code`): the engine's refusal of a move
# (its figures those of refusals.js, with `move` and `token`), then the server's own checks.
# The page words each from the code and `reason_params` (docs/api.md, "Rejected").
SERVER_REJECTION_PARAMS = {
    "suspended": ("note",),
    "game_not_issued": (),
    "game_used": (),
    "bad_code": ("code",),
    "timing_duration": ("duration_ms", "available_ms"),
    "timing_move": ("move", "token", "gap_ms", "minimum_ms"),
    "timing_average": ("moves", "span_ms", "average_ms", "minimum_ms"),
    "prefix_conflict": ("variant", "move", "token", "recorded", "time_ms", "recorded_ms", "tokens", "sent"),
    "unrevealed_card": ("move", "token", "column"),
    "timing_reveals": ("played_ms", "passed_ms", "tolerance_ms", "since_move", "until_move"),
}
REJECTION_CODES = (*REFUSAL_CODES, *SERVER_REJECTION_PARAMS)

Problem = tuple[str, str, dict]  # (code, the English reason, its figures)


def _rejected(code: str, reason: str, params: dict | None = None, **figures) -> Judgement:
    return Judgement(
        status=Status.REJECTED,
        won=False,
        reason_code=code,
        reason=reason[:300],
        reason_params=params or {},
        **figures,
    )


def _refused_move_params(code: str, tokens: list[str], error) -> dict:
    """The figures of the log's refused move: its number and token, and the refusal's own."""
    position, _ = replay(code, tokens[: error.index])
    move = MOVES_BY_TEXT.get(error.token)
    params = position.refusal_params(error.code, move) if move is not None else {}
    return {"move": error.index + 1, "token": error.token, **params}


def timing_problem(*, submission: Submission, tokens: list[str], moves: int) -> Problem | None:
    """(code, reason, figures) when the times are beyond a human, else None. Thresholds are settings.

    The times are the page's clock at each token: it starts with the first move, so the first
    time is 0 (pages that counted from the deal being shown send more; both are judged alike).
    Only what lies between tokens is measured: the gap from one token to the next (move 1 has
    no predecessor; an undo may come at once), and the average gap between the first move and
    the last. The active time may not exceed what passed between the game's issue and receipt.
    """
    times = submission.move_times_ms
    game = submission.game
    if game is not None:
        available_ms = (submission.received_at - game.issued_at).total_seconds() * 1000
        if submission.duration_ms > available_ms:
            figures = {"duration_ms": submission.duration_ms, "available_ms": int(available_ms)}
            return (
                "timing_duration",
                (
                    f"the game lasted {submission.duration_ms} ms, but only {int(available_ms)} ms passed "
                    "between its issue and this result"
                ),
                figures,
            )
    minimum = settings.SUBMISSION_MIN_MOVE_MS
    for index in range(1, len(tokens)):
        token, gap = tokens[index], times[index] - times[index - 1]
        if token != UNDO and gap < minimum:
            figures = {"move": index + 1, "token": token, "gap_ms": gap, "minimum_ms": minimum}
            return (
                "timing_move",
                (
                    f"move {index + 1} `{token}` came {gap} ms after the previous one; "
                    f"no one plays faster than {minimum} ms"
                ),
                figures,
            )
    average_minimum = settings.SUBMISSION_MIN_AVERAGE_MOVE_MS
    gaps = moves - 1  # the first move is not timed
    if gaps > 0 and times:
        span = times[-1] - times[0]
        if span / gaps < average_minimum:
            figures = {
                "moves": moves,
                "span_ms": span,
                "average_ms": span // gaps,
                "minimum_ms": average_minimum,
            }
            return (
                "timing_average",
                (
                    f"{moves} moves in {span} ms from the first to the last: {span // gaps} ms a move "
                    f"on average, under the human minimum of {average_minimum} ms"
                ),
                figures,
            )
    return None


def submission_judge(
    *,
    submission: Submission,
    player_suspended: bool,
    suspension_reason: str = "",
    game_used: bool | None = None,
) -> Judgement:
    """The verdict on one submission; reads nothing but the row, its game (a hidden-card game's
    reveals too) and the given flags.

    `game_used`: whether another submission holds the row's game (looked up when not given)."""
    if player_suspended:
        note = suspension_reason
        return _rejected("suspended", f"the player is suspended: {note or 'by the staff'}", {"note": note})
    game = submission.game
    if submission.ranked:
        if game is None or game.user_id != submission.user_id:
            return _rejected("game_not_issued", "this game was not issued to this player")
        if game_used is None:
            game_used = Submission.objects.filter(game_id=game.pk).exclude(pk=submission.pk).exists()
        if game_used:
            return _rejected("game_used", "this game already has a result")
    tokens = submission.log.split()
    if game is not None and game.hidden and (unrevealed := unrevealed_card_problem(game=game, tokens=tokens)):
        code, reason, params, figures = unrevealed  # docs/security.md, "No refusal confirms a guess"
        return _rejected(code, reason, params, **figures)
    try:
        verdict = verify(submission.code, tokens)
    except InvalidCodeError as error:
        return _rejected("bad_code", str(error), {"code": submission.code})
    figures = {
        "moves": verdict.moves,
        "foundation_cards": verdict.foundation_cards,
        "score": verdict.score,
        "points": verdict.points,
    }
    if verdict.error is not None:
        params = _refused_move_params(submission.code, tokens, verdict.error)
        return _rejected(verdict.error.code, str(verdict.error), params, **figures)
    if problem := timing_problem(submission=submission, tokens=tokens, moves=verdict.moves):
        return _rejected(*problem, **figures)
    if game is not None and game.hidden and (problem := hidden_game_problem(submission=submission)):
        return _rejected(*problem, **figures)  # docs/security.md, "Hidden-card games"
    return Judgement(status=Status.VERIFIED, won=verdict.won, **figures)


def _judge_locked(submission: Submission) -> Judgement:
    """Judge inside a transaction, with the player's row locked against a concurrent suspension."""
    from accounts.models import User

    player = None
    if submission.user_id is not None:
        player = User.objects.select_for_update().filter(pk=submission.user_id).first()
    return submission_judge(
        submission=submission,
        player_suspended=bool(player and player.is_suspended),
        suspension_reason=player.suspension_reason if player else "",
    )


def submission_verify(*, submission_id: int, now: datetime | None = None) -> Submission | None:
    """Settle a pending submission once; a settled or missing one is left as it is."""
    settled = _settle(Submission.objects.filter(pk=submission_id), now=now)
    if settled:
        return settled[0]
    return Submission.objects.select_related("game").filter(pk=submission_id).first()


# Errors of the infrastructure (database, Redis): a task retries them; anything else is a bug
# of one row, which must not hold back the others.
INFRASTRUCTURE_ERRORS = (OperationalError, InterfaceError, redis.ConnectionError, redis.TimeoutError)
# What sending a task raises while the broker does not answer (kombu wraps connection errors).
BROKER_ERRORS = (KombuOperationalError, redis.ConnectionError, redis.TimeoutError, ConnectionError)
VERIFY_QUEUED_KEY = "games:verify-queued"
VERIFY_QUEUED_SECONDS = 30  # after that, a task still waiting in the queue gets company


def submissions_verify_soon() -> None:
    """Make sure a verification task starts after this moment (intake calls it on commit).

    One is sent unless one is already waiting in the queue (a flag set when it is sent and
    cleared when it starts), since a task settles every pending row it finds. The rows are the
    record: if a task is lost anyway, the sweeper finds its rows still pending.
    """
    from games.tasks import submission_verify_task

    if not cache.add(VERIFY_QUEUED_KEY, 1, VERIFY_QUEUED_SECONDS):
        return
    try:
        submission_verify_task.delay()
    except BROKER_ERRORS as error:
        # Redis (the broker) is down: the row is stored, the sweeper sends it once Redis is back.
        cache.delete(VERIFY_QUEUED_KEY)
        logger.warning(
            "verification not enqueued: the broker is not answering", extra={"error": repr(error)[:300]}
        )
    except Exception:
        cache.delete(VERIFY_QUEUED_KEY)
        raise


def submissions_verify_resume() -> None:
    """At a worker's start: settle what a crashed worker left. A worker killed whole (its main
    process too) leaves its task unacknowledged in Redis until the visibility timeout (an hour),
    and may leave the "queued" flag set, which holds new tasks back: the flag is cleared and a
    run sent. Safe beside any other run: rows are claimed with skip_locked and settled by a
    conditional update."""
    cache.delete(VERIFY_QUEUED_KEY)
    submissions_verify_soon()


def submissions_verify_pending(
    *, batches: int | None = None, now: datetime | None = None
) -> tuple[list[Submission], bool]:
    """Settle pending submissions, SUBMISSION_VERIFY_BATCH at a time in one transaction each,
    until a batch comes short or after `batches` (SUBMISSION_VERIFY_DRAIN_BATCHES) batches.

    Returns (the rows settled here, whether more may be pending). Rows another run holds
    locked are skipped (it settles them); a full first batch sends another task, so that the
    worker's processes share a backlog. When a batch fails, its rows are settled one by one; a
    row that fails alone too is logged and left pending (the sweeper sends it again).
    """
    cache.delete(VERIFY_QUEUED_KEY)  # rows committed from now on send a task of their own
    limit = settings.SUBMISSION_VERIFY_BATCH
    settled: list[Submission] = []
    failed: set[int] = set()
    for _ in range(batches or settings.SUBMISSION_VERIFY_DRAIN_BATCHES):
        rows = Submission.objects.exclude(pk__in=failed)
        try:
            batch = _settle(rows, limit=limit, skip_locked=True, now=now)
            tried = len(batch)
        except INFRASTRUCTURE_ERRORS:
            raise
        except Exception:
            logger.exception("a verification batch failed: its rows are settled one by one")
            pending = rows.filter(status=Status.PENDING).order_by("pk").values_list("pk", flat=True)
            batch, tried = [], 0
            for submission_id in pending[:limit]:
                tried += 1
                try:
                    batch += _settle(Submission.objects.filter(pk=submission_id), skip_locked=True, now=now)
                except INFRASTRUCTURE_ERRORS:
                    raise
                except Exception:
                    logger.exception("submission not verifiable", extra={"submission_id": submission_id})
                    failed.add(submission_id)
        settled += batch
        if tried < limit:
            return settled, False
        if len(settled) == tried and not settings.CELERY_TASK_ALWAYS_EAGER:
            submissions_verify_soon()  # a backlog: a task on another worker process may help
    return settled, True


SETTLED_FIELDS = (
    *(field for field in Judgement.__dataclass_fields__),
    "assisted",
    "settled_at",
    "engine_version",
    "ranks",
    "ranks_of",
)


def _settle(
    rows, *, limit: int | None = None, skip_locked: bool = False, now: datetime | None = None
) -> list[Submission]:
    """Judge the pending rows of `rows` (locked, in id order) and store their verdicts; won results
    enter the boards in the same transaction. Exactly once: only pending rows are written, and
    the whole transaction is undone if any of them was settled meanwhile."""
    with transaction.atomic():
        claimed = (
            rows.filter(status=Status.PENDING)
            .select_related("game")
            .prefetch_related("game__reveals")  # hidden-card games' (games.hidden_games)
            .select_for_update(skip_locked=skip_locked, of=("self",))
            .order_by("pk")
        )
        submissions = list(claimed[:limit] if limit else claimed)
        if not submissions:
            return []
        now = now or timezone.now()
        players = _players_locked({s.user_id for s in submissions if s.user_id is not None})
        games_used = _games_used(submissions)
        hinted = _hinted(submissions)
        counted = []
        for submission in submissions:
            player = players.get(submission.user_id)
            judgement = submission_judge(
                submission=submission,
                player_suspended=bool(player and player.is_suspended),
                suspension_reason=player.suspension_reason if player else "",
                game_used=submission.pk in games_used,
            )
            settled_fields = {
                **judgement.fields(),
                # A hint on this code before the result arrived makes it assisted, whatever the page said.
                "assisted": submission.assisted or submission.pk in hinted,
                "settled_at": now,
                "engine_version": ENGINE_VERSION,
            }
            for field, value in settled_fields.items():  # the row as stored, without reading it again
                setattr(submission, field, value)
            if judgement.counts and not submission.assisted and not submission.voided and submission.user_id:
                counted.append(submission)
        if counted:
            by_id = {submission.pk: submission for submission in counted}
            for submission_id, places in results.results_record(submissions=counted).items():
                results.places_store_on(by_id[submission_id], places)
            deals_par_request(codes=[submission.code for submission in counted])
        _verdicts_store(submissions)
        if contest_games := [s.game_id for s in submissions if s.game_id is not None and s.game.contest]:
            told = partial(results.contest_results_changed, game_ids=contest_games)
            transaction.on_commit(told, robust=True)
    for submission in submissions:
        logger.info(
            "submission settled",
            extra={
                "submission_id": submission.pk,
                "status": submission.status,
                "reason_code": submission.reason_code,
            },
        )
    return submissions


def _players_locked(user_ids: set[int]) -> dict:
    """The players, locked in id order (no deadlock between batches) against a concurrent suspension."""
    from accounts.models import User

    if not user_ids:
        return {}
    locked = User.objects.select_for_update().filter(pk__in=user_ids).order_by("pk")
    return {player.pk: player for player in locked.only("id", "is_suspended", "suspension_reason")}


def _games_used(submissions: list[Submission]) -> set[int]:
    """Ids of ranked submissions whose game another submission holds."""
    games = {s.game_id for s in submissions if s.ranked and s.game_id is not None}
    if not games:
        return set()
    holders = Submission.objects.filter(game_id__in=games).values_list("game_id", "pk")
    held_by: dict[int, set[int]] = {}
    for game_id, holder in holders:
        held_by.setdefault(game_id, set()).add(holder)
    return {s.pk for s in submissions if s.game_id in held_by and held_by[s.game_id] - {s.pk}}


def _hinted(submissions: list[Submission]) -> set[int]:
    """Ids of the submissions whose player was given a hint on the code before it was received
    (`games.selectors.hint_used`, for many in one query)."""
    players = {s.user_id for s in submissions if s.user_id is not None}
    if not players:
        return set()
    hints: dict[tuple[int, str], datetime] = {}
    found = HintUse.objects.filter(user_id__in=players, code__in={s.code for s in submissions})
    for user_id, code, created_at in found.values_list("user_id", "code", "created_at"):
        first = hints.get((user_id, code))
        hints[(user_id, code)] = created_at if first is None else min(first, created_at)
    first_hint = {s.pk: hints.get((s.user_id, s.code)) for s in submissions}
    return {s.pk for s in submissions if first_hint[s.pk] is not None and first_hint[s.pk] < s.received_at}


def _verdicts_store(submissions: list[Submission]) -> None:
    """UPDATE each row to its verdict if still pending: one statement sent for all (executemany)."""
    fields = [Submission._meta.get_field(name) for name in SETTLED_FIELDS]
    quote = connection.ops.quote_name
    sql = (
        f"UPDATE {quote(Submission._meta.db_table)} SET "
        + ", ".join(f"{quote(field.column)} = %s" for field in fields)
        + f" WHERE {quote('id')} = %s AND {quote('status')} = %s"
    )
    params = [
        [field.get_db_prep_save(getattr(row, field.attname), connection) for field in fields]
        + [row.pk, Status.PENDING]
        for row in submissions
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)
        if cursor.rowcount != len(submissions):  # cannot happen while the rows are locked
            raise RuntimeError(f"{len(submissions) - cursor.rowcount} submission(s) were settled meanwhile")


def submissions_pending_stale(*, now: datetime | None = None) -> list[int]:
    cutoff = (now or timezone.now()) - timedelta(seconds=settings.SUBMISSION_SWEEP_AFTER_SECONDS)
    return list(
        Submission.objects.filter(status=Status.PENDING, received_at__lt=cutoff)
        .order_by("received_at")
        .values_list("pk", flat=True)[:10_000]
    )


def submissions_sweep(*, now: datetime | None = None) -> int:
    """Send a verification task when submissions are pending longer than
    SUBMISSION_SWEEP_AFTER_SECONDS (their task was lost); returns how many are."""
    from games.tasks import submission_verify_task

    ids = submissions_pending_stale(now=now)
    if ids:
        submission_verify_task.delay()  # whatever the flag says: the task it stands for may be lost
        logger.warning("pending submissions re-enqueued", extra={"count": len(ids)})
    return len(ids)


VERDICT_FIELDS = ("status", "won", "moves", "score", "reason_code")


@dataclass(frozen=True)
class Reverification:
    submission_id: int
    changed: bool
    before: dict
    after: dict


def submission_reverify(*, submission: Submission, now: datetime | None = None) -> Reverification:
    """Judge a submission again with this engine; store the new verdict and fix the boards if it changed."""
    if submission.status == Status.PENDING:
        settled = submission_verify(submission_id=submission.pk, now=now)
        after = {field: getattr(settled, field) for field in VERDICT_FIELDS}
        return Reverification(submission.pk, True, {"status": Status.PENDING}, after)
    before = {field: getattr(submission, field) for field in VERDICT_FIELDS}
    with transaction.atomic():
        judgement = _judge_locked(submission)
        after = {field: getattr(judgement, field) for field in VERDICT_FIELDS}
        changed = after != before
        Submission.objects.filter(pk=submission.pk).update(
            **judgement.fields(),
            engine_version=ENGINE_VERSION,
            **({"settled_at": now or timezone.now(), "ranks": {}, "ranks_of": {}} if changed else {}),
        )
        if changed and submission.user_id is not None:
            results.player_results_changed(user_id=submission.user_id)
            if judgement.counts and not submission.assisted and not submission.voided:
                _ranks_store(submission, judgement)
    if changed:
        logger.warning(
            "verdict changed", extra={"submission_id": submission.pk, "before": before, "after": after}
        )
    return Reverification(submission.pk, changed, before, after)


def _ranks_store(submission: Submission, judgement: Judgement) -> None:
    """A result that counts since its new verdict gets its places, as at its first settling: its
    boards are those of its receipt time (a week or day board of the past, for an old result)."""
    for field, value in judgement.fields().items():
        setattr(submission, field, value)
    places = results.results_record(submissions=[submission]).get(submission.pk, {})
    if places:
        results.places_store_on(submission, places)
        stored = {"ranks": submission.ranks, "ranks_of": submission.ranks_of}
        Submission.objects.filter(pk=submission.pk).update(**stored)
