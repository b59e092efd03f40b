"""Writes of the leaderboard: entries from verified wins, a player's rebuild.

`results_record` and `player_entries_rebuild` listen to games' results (games/results.py,
registered in LeaderboardConfig.ready()), inside the transaction that changes the results.
PostgreSQL is written at once; Redis after the commit.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from games.models import ReplayFlag, Submission
from games.selectors import code_is_whole
from leaderboard.boards import boards_for_result, open_board_of, sort_key, truncate_to_second
from leaderboard.index.base import EntryDetails, IndexChange
from leaderboard.index.wiring import index_changes_schedule
from leaderboard.models import BoardEntry, LogFingerprint
from leaderboard.selectors import board_sizes, entry_ranks

logger = logging.getLogger(__name__)

ENTRY_FIELDS = ("submission_id", "code", "score", "moves", "duration_ms", "achieved_at", "sort_key")


def result_counts(submission: Submission) -> bool:
    """True for a result that enters boards: verified, won, not assisted, not voided, scored, and
    not a contest's (a race ranks its own results: two accounts in one race could pass cards)."""
    return (
        submission.status == Submission.Status.VERIFIED
        and submission.won is True
        and not submission.assisted
        and not submission.voided
        and not submission.withheld
        and submission.score is not None
        and submission.user_id is not None
        and not (submission.game_id is not None and submission.game.contest)
    )


def counted_results():
    """Verified, won, non-assisted, non-voided, scored results, as a query (`result_counts` asks
    the same of one row, and a player besides)."""
    return Submission.objects.filter(
        status=Submission.Status.VERIFIED,
        won=True,
        assisted=False,
        voided=False,
        score__isnull=False,
        withheld=False,
    ).exclude(game__contest__gt="")


def player_may_rank(user) -> bool:
    return user is not None and user.is_active and not getattr(user, "is_suspended", False)


def result_hidden(submission: Submission) -> bool:
    """True for the result of a hidden-card game dealt from a whole shuffle (docs/security.md): the
    only games whose player could not know the deal before playing it, so the only ones the
    global and daily boards rank. A hidden-card game dealt from a YU1 deal number (before whole
    shuffles) could be solved from its face-up cards: it ranks as an open deal."""
    return submission.game_id is not None and submission.game.hidden and code_is_whole(submission.code)


def result_boards(*, submission: Submission) -> list[str]:
    """The boards a counted result enters (leaderboard/boards.py)."""
    hidden = result_hidden(submission)
    return boards_for_result(
        rules=submission.rules,
        code=submission.code,
        hidden=hidden,
        received_at=submission.received_at,
        daily_date=submission.game.daily_date if hidden else None,
    )


def result_record(*, submission: Submission) -> dict[str, tuple[int, int]]:
    """`results_record` of one result: the player's (rank, entries) on each board it entered."""
    return results_record(submissions=[submission]).get(submission.pk, {})


@dataclass(frozen=True)
class _Candidate:
    submission: Submission
    achieved_at: dt.datetime
    key: int


def results_record(*, submissions: Sequence[Submission]) -> dict[int, dict[str, tuple[int, int]]]:
    """Enter verified wins on every board they qualify for, keeping each player's best.

    Runs inside the transaction that settles `submissions`; the same as recording them one by
    one in id order, in a few statements: an entry is replaced only by a better result (higher
    score, or the same score reached in an earlier second). Returns, per counted result, the
    player's place on each of its boards and the entries on it then, for a percentile
    (submission id → {board key → (rank, entries)}).
    """
    counted = sorted((s for s in submissions if result_counts(s)), key=lambda s: s.pk)
    if not counted:
        return {}
    players = (
        get_user_model().objects.only("id", "is_active", "is_suspended").in_bulk({s.user_id for s in counted})
    )
    counted = [s for s in counted if player_may_rank(players.get(s.user_id))]
    best: dict[tuple[str, int], _Candidate] = {}
    boards_of: dict[int, list[str]] = {}
    for submission in counted:
        achieved_at = truncate_to_second(submission.received_at)
        key = sort_key(score=submission.score, achieved_at=achieved_at)
        boards_of[submission.pk] = result_boards(submission=submission)
        for board in boards_of[submission.pk]:
            held = best.get((board, submission.user_id))
            if held is None or key > held.key:  # an equal key: the earlier result stays
                best[(board, submission.user_id)] = _Candidate(submission, achieved_at, key)
    if not best:
        return {}
    written = {pair: best[pair].key for pair in _entries_upsert_if_better(best)}
    index_changes_schedule(
        [
            IndexChange(board, user, "gt", key, _details(best[(board, user)].submission))
            for (board, user), key in written.items()
        ]
    )
    _identical_logs_flag(submissions=counted)
    ranks = entry_ranks(entries=set(best), written=written)
    sizes = board_sizes(boards={board for board, _ in best}, written=written)

    def place(board: str, user_id: int) -> tuple[int, int]:
        rank = ranks[(board, user_id)]
        return rank, max(sizes[board], rank)  # Redis may miss the last milliseconds' entries

    return {
        submission.pk: {board: place(board, submission.user_id) for board in boards_of[submission.pk]}
        for submission in counted
    }


def _details(submission: Submission) -> EntryDetails:
    return EntryDetails(submission.pk, submission.moves, submission.duration_ms, submission.code)


def _entries_upsert_if_better(candidates: dict[tuple[str, int], _Candidate]) -> list[tuple[str, int]]:
    """INSERT … ON CONFLICT DO UPDATE … WHERE better, one row per (board, user): the rows written."""
    table = connection.ops.quote_name(BoardEntry._meta.db_table)
    updates = ", ".join(f"{field} = excluded.{field}" for field in ENTRY_FIELDS)
    row = f"({', '.join(['%s'] * (2 + len(ENTRY_FIELDS)))})"
    sql = (
        f"INSERT INTO {table} (board, user_id, {', '.join(ENTRY_FIELDS)}) "
        f"VALUES {', '.join([row] * len(candidates))} "
        f"ON CONFLICT (board, user_id) DO UPDATE SET {updates} "
        f"WHERE excluded.sort_key > {table}.sort_key RETURNING board, user_id"
    )
    params = []
    for (board, user_id), candidate in candidates.items():
        submission = candidate.submission
        params += [
            board,
            user_id,
            submission.pk,
            submission.code,
            submission.score,
            submission.moves,
            submission.duration_ms,
            connection.ops.adapt_datetimefield_value(candidate.achieved_at),
            candidate.key,
        ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [(board, user_id) for board, user_id in cursor.fetchall()]


def _log_digest(log: str) -> str:
    return hashlib.sha256(" ".join(log.split()).encode()).hexdigest()


def _identical_logs_flag(*, submissions: Sequence[Submission]) -> None:
    """Flag each winning log identical to another player's earlier one on the same deal, for review."""
    digests = {s.pk: _log_digest(s.log) for s in submissions}
    earlier: dict[tuple[str, str], list[tuple[int, int | None]]] = defaultdict(list)
    known = LogFingerprint.objects.filter(
        code__in={s.code for s in submissions}, digest__in=set(digests.values())
    ).values_list("code", "digest", "submission_id", "user_id")
    for code, digest, submission_id, user_id in known.order_by("submission_id"):
        earlier[(code, digest)].append((submission_id, user_id))
    LogFingerprint.objects.bulk_create(
        [
            LogFingerprint(submission=s, code=s.code, digest=digests[s.pk], user_id=s.user_id)
            for s in submissions
        ],
        ignore_conflicts=True,
    )
    flags = []
    for submission in sorted(submissions, key=lambda s: s.pk):
        same = earlier[(submission.code, digests[submission.pk])]
        flags += [
            ReplayFlag(submission=submission, matches_id=match, user_id=submission.user_id)
            for match, user_id in same
            if match != submission.pk and user_id != submission.user_id
        ]
        if (submission.pk, submission.user_id) not in same:
            same.append((submission.pk, submission.user_id))
    if flags:
        ReplayFlag.objects.bulk_create(flags, ignore_conflicts=True)
        for flag in flags:
            logger.warning(
                "identical winning log flagged",
                extra={"submission_id": flag.submission_id, "matches": flag.matches_id,
                       "code": flag.submission.code},
            )  # fmt: skip


def player_entries_rebuild(*, user_id: int) -> int:
    """Recompute every entry of a player from their remaining counted results; the number of
    entries written or removed (0 when they were right already).

    Called inside the transaction after a void, a suspension, a deletion or anything else that
    changes which results count or which boards they enter. A suspended, inactive or missing
    player ends with no entry.
    """
    user = get_user_model().objects.filter(pk=user_id).first()
    existing = {
        entry.board: entry for entry in BoardEntry.objects.select_for_update().filter(user_id=user_id)
    }
    wanted: dict[str, tuple[Submission, dt.datetime, int]] = {}
    if player_may_rank(user):
        results = (
            counted_results()
            .filter(user_id=user_id)
            .select_related("game")
            .only("id", "code", "rules", "received_at", "score", "moves", "duration_ms", "game__hidden")
        )
        for result in results:
            achieved_at = truncate_to_second(result.received_at)
            key = sort_key(score=result.score, achieved_at=achieved_at)
            for board in result_boards(submission=result):
                best = wanted.get(board)
                if best is None or (key, -result.pk) > (best[2], -best[0].pk):
                    wanted[board] = (result, achieved_at, key)
    changes = []
    gone = [board for board in existing if board not in wanted]
    if gone:
        BoardEntry.objects.filter(user_id=user_id, board__in=gone).delete()
        changes += [IndexChange(board, user_id, "del") for board in gone]
    for board, (result, achieved_at, key) in wanted.items():
        entry = existing.get(board)
        if entry is not None and entry.submission_id == result.pk and entry.sort_key == key:
            continue
        values = {
            "submission_id": result.pk,
            "code": result.code,
            "score": result.score,
            "moves": result.moves,
            "duration_ms": result.duration_ms,
            "achieved_at": achieved_at,
            "sort_key": key,
        }
        BoardEntry.objects.update_or_create(board=board, user_id=user_id, defaults=values)
        changes.append(IndexChange(board, user_id, "set", key, _details(result)))
    index_changes_schedule(changes)
    return len(changes)


def players_with_entries_or_wins() -> list[int]:
    """The ids of every player who holds an entry or has a counted win, ascending."""
    counted = counted_results().filter(user__isnull=False).values_list("user_id", flat=True)
    holding = BoardEntry.objects.values_list("user_id", flat=True)
    return sorted(set(counted.distinct()) | set(holding.distinct()))


def player_boards_regroup(*, user_id: int) -> tuple[int, int]:
    """Put a player's results on the boards they enter today, in one transaction: the entries
    recomputed (`player_entries_rebuild`; Redis follows after the commit), and each stored place
    (`Submission.ranks`, `ranks_of`) that names a global board for a result not a hidden-card game's
    renamed to the open-deal board of the same period, where such results rank now. The number
    kept is the place reached when the result was settled. Safe to run again: (entries written
    or removed, results whose places were renamed), both 0 the second time."""
    with transaction.atomic():
        entries = player_entries_rebuild(user_id=user_id)
        results = (
            Submission.objects.filter(user_id=user_id, ranked=True, status=Submission.Status.VERIFIED)
            .select_related("game")
            .only("id", "ranks", "ranks_of", "game__hidden")
        )
        renamed = 0
        for result in results:
            places = {open_board_of(board): rank for board, rank in (result.ranks or {}).items()}
            if not result_hidden(result) and places != result.ranks:
                sizes = {open_board_of(board): count for board, count in (result.ranks_of or {}).items()}
                Submission.objects.filter(pk=result.pk).update(ranks=places, ranks_of=sizes)
                renamed += 1
    return entries, renamed
