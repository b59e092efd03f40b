"""Settling: verdicts stored exactly once, by conditional updates.

`submission_verify` settles one pending row (running it twice changes nothing) and hands a won
result to the boards (`games.results`) in the same transaction; `submissions_verify_pending`
(the task's) does the same for batches of pending rows, a batch in one transaction: the claimed
rows are locked, others' locked rows skipped. `submission_reverify` runs the judge again on a
settled row and repairs the boards when the verdict changed."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from games import results
from games.engine import ENGINE_VERSION
from games.models import HintUse, Submission
from games.solving.par import deals_par_request
from games.submissions.judge import Judgement, judge_locked, submission_judge
from games.submissions.queue import VERIFY_QUEUED_KEY, submissions_verify_soon
from games.task_queue import INFRASTRUCTURE_ERRORS

logger = logging.getLogger(__name__)

Status = Submission.Status


def submission_verify(*, submission_id: int, now: datetime | None = None) -> Submission | None:
    """Settle a pending submission once; a settled or missing one is left as it is."""
    settled = _settle(Submission.objects.filter(pk=submission_id), now=now)
    if settled:
        return settled[0]
    return Submission.objects.select_related("game").filter(pk=submission_id).first()


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
            .prefetch_related("game__reveals")  # hidden-card games' (games.hidden.checks)
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
            told = partial(results.results_settled, submission_ids=[s.pk for s in counted])
            transaction.on_commit(told, robust=True)
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
        judgement = judge_locked(submission)
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
