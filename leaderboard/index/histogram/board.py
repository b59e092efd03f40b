"""A board split by score, for Redis Cluster: a histogram of scores plus one ordered set a score.

Ranked scores are whole numbers 0 … 99,999, so a board is cut along them: a score set per score
(the entries with that score, in order), a head holding the count of each score (and a Fenwick
tree over them), and the players' records, sharded; leaderboard/index/histogram/layout.py names the
keys. Exact rank = the head's count at better scores + ZRANK within the score set.

Writes touch several slots, so a move is made in an order that is safe to interrupt and to repeat:

1. CLAIM (player's slot): the record becomes the new entry at once, remembering the score sets
   the player may still be in ("pending"), and a short lease (``…|p<k>}:w:<id>``) is taken so
   that two moves of one player never interleave (a second one waits, or retries later);
2. the player leaves the pending score sets, then enters the new one (with the entry's details):
   never in two sets at once, only briefly in none (a rank asked meanwhile answers None);
3. SYNC (head): each touched score's count, stamped with the score set's version: the head keeps
   the newest, so late or repeated syncs change nothing;
4. RELEASE (player's slot): the pending scores are forgotten and the lease given back.

A move cut short anywhere is finished by the player's next write (CLAIM hands the pending scores
back once the lease has expired) or by ``repair``; repeating a write is harmless. (A move stalled
past its lease, 10 s, is the one case the lease cannot order: its late steps may leave a stale
member in a score set until the next rebuild.) A removal leaves a tombstone ``"d"`` so that a
rebuild reading an older snapshot does not bring the entry back. The head may lag the score
sets for the moment between steps 2 and 3. Building and repairing: leaderboard/index/histogram/build.py.

A board that expires (``build(expire_at=…)``) keeps the moment in its head: every key a move or a
build writes expires EXPIRE_GRACE seconds after the head, so the head, whose absence means "not
built", always goes first.

This module knows Redis only (like leaderboard/index/sorted_sets.py). ``histogram_client(url)`` connects to a
cluster for ``redis+cluster://host:port`` and to a single Redis for ``redis://…``.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from leaderboard.index.histogram.build import BoardBuild
from leaderboard.index.histogram.layout import (  # noqa: F401  (histogram_client, READY: for its users)
    MAX_EPOCH_SECONDS,
    MAX_SCORE,
    POSITIONS,
    READY,
    SCORE_FACTOR,
    TOP_STEP,
    WriteBusy,
    histogram_client,
    key_parts,
    member_for,
    others_expire_at,
    prefix_fields,
    record_key,
    sort_key,
    text,
)

LEASE_MS = 10_000  # a move takes milliseconds; a crashed one blocks its player this long
BUSY_WAIT_SECONDS = 2.0


def percentile(*, rank: int, count: int) -> float:
    """The share of the board at or above a rank, in percent ("top 0.4 %")."""
    if not 1 <= rank <= count:
        raise ValueError(f"rank {rank} is not on a board of {count}")
    return 100.0 * rank / count


@dataclass(frozen=True)
class Row:
    rank: int  # 1-based
    user_id: int
    score: int
    seconds: int  # receipt time, epoch seconds
    details: str | None = None  # as written with the entry; None when it was written without


@dataclass(frozen=True)
class Place:
    """A player's place with the board's state and size, read together."""

    state: str | None  # READY, BUILDING, or None (not built)
    rank: int | None  # 1-based; None without an entry (or during the player's move)
    count: int


class HistogramBoard(BoardBuild):
    """One or many boards split by score on one client (a Redis or a cluster)."""

    # --- writes -----------------------------------------------------------------------------

    def write(
        self,
        board: str,
        *,
        user_id: int,
        score: int,
        seconds: int,
        only_better: bool = True,
        details: str = "",
    ) -> bool:
        """Enter or raise a player's entry (``only_better=False``: set it exactly, even lower, and
        its details even at the same sort key). True when written. Skipped (False) on a board
        that is not built."""
        mode = "gt" if only_better else "set"
        return self._move(board, user_id, mode, str(sort_key(score, seconds)), details)

    def remove(self, board: str, *, user_id: int) -> bool:
        return self._move(board, user_id, "del", "")

    def _move(self, board: str, user_id: int, mode: str, new: str, details: str = "") -> bool:
        state, expire_at = self.client.hmget(self.head_key(board), ["state", "x"])
        if state is None:
            return False
        later = others_expire_at(expire_at)
        shard = self.shard_key(board, user_id)
        lease, token = f"{shard}:w:{user_id}", secrets.token_hex(8)
        deadline = time.monotonic() + BUSY_WAIT_SECONDS
        while True:
            answer = self._claim(
                keys=[shard, lease, f"{shard}:loading"], args=[user_id, mode, new, token, LEASE_MS, later]
            )
            verdict = text(answer[0])
            if verdict != "busy":
                break
            if time.monotonic() > deadline:
                raise WriteBusy(f"player {user_id} of {board} is being moved by another write")
            time.sleep(0.005)
        if verdict == "same":
            return False
        enter, leave = text(answer[1]), [text(score) for score in answer[2:]]
        member = member_for(user_id)
        counts = []
        for score in leave:  # leave first: never in two score sets at once
            counts.append((score, *self._score_op(board, score, "leave", member, expire=later)))
        if enter:
            score, seconds = key_parts(enter)
            counts.append(
                (str(score), *self._score_op(board, score, "enter", member, seconds, details, later))
            )
        self._sync_counts(board, counts)
        self._release(keys=[shard, lease], args=[user_id, token])
        return True

    def _score_op(
        self,
        board: str,
        score,
        op: str,
        member: str = "",
        seconds: int = 0,
        details: str = "",
        expire: str = "",
    ) -> tuple[int, int]:
        key = self.score_key(board, score)
        count, version = self._score_set(
            keys=[key, f"{key}:v", f"{key}:d"], args=[op, member, seconds, details, expire]
        )
        return int(count), int(version)

    def _sync_counts(self, board: str, counts: list[tuple[str, int, int]]) -> None:
        if counts:
            args = [POSITIONS]
            for score, count, version in counts:
                args += [score, count, version]
            self._sync(keys=[self.head_key(board)], args=args)

    # --- reads ------------------------------------------------------------------------------

    def state(self, board: str) -> str | None:
        """The board's state: "ready", "building" (being loaded), or None (not built)."""
        value = self.client.hget(self.head_key(board), "state")
        return text(value) if value is not None else None

    def count(self, board: str) -> int:
        return int(self.client.hget(self.head_key(board), "n") or 0)

    def entry(self, board: str, *, user_id: int) -> tuple[int, int] | None:
        """The player's (score, seconds), or None without an entry."""
        key = self.records([(board, user_id)])[0]
        return None if key is None else key_parts(key)

    def records(self, players: list[tuple[str, int]]) -> list[int | None]:
        """The sort key of each (board, user id) as the player's record says (None without an
        entry): one round trip."""
        pipe = self._pipeline()
        for board, user_id in players:
            pipe.hget(self.shard_key(board, user_id), str(user_id))
        return [record_key(record) for record in pipe.execute()] if players else []

    def rank(self, board: str, *, user_id: int) -> int | None:
        """The player's 1-based rank, or None without an entry (or during their move)."""
        return self.place(board, user_id=user_id).rank

    def _record_and_head(self, board: str, user_id: int) -> tuple[str | None, int, int | None]:
        """(the board's state, its total, the player's sort key or None): one round trip."""
        pipe = self._pipeline()
        pipe.hget(self.shard_key(board, user_id), str(user_id))
        pipe.hmget(self.head_key(board), ["state", "n"])
        record, (state, total) = pipe.execute()
        return (text(state) if state else None), int(total or 0), record_key(record)

    def place(self, board: str, *, user_id: int) -> Place:
        """The player's rank with the board's state and size.

        One round trip for the record and the head's state and total; then, with an entry, one
        more: ZRANK in the score set and an HMGET of at most 17 Fenwick fields of the head (two
        slots, sent together)."""
        state, count, key = self._record_and_head(board, user_id)
        if key is None:
            return Place(state, None, count)
        score = key // SCORE_FACTOR
        fields = prefix_fields(POSITIONS - score - 1)
        pipe = self._pipeline()
        pipe.zrank(self.score_key(board, score), member_for(user_id))
        if fields:
            pipe.hmget(self.head_key(board), fields)
        answers = pipe.execute()
        if answers[0] is None:
            return Place(state, None, count)
        above = sum(int(value or 0) for value in answers[1]) if fields else 0
        return Place(state, above + int(answers[0]) + 1, count)

    def ahead(self, positions: list[tuple[str, int, int]]) -> list[tuple[int, bool, str | None]]:
        """For each (board, sort key, user id): the entries strictly ahead of that position,
        whether that very entry is there, and the board's state. One round trip for all: the
        head's state and Fenwick fields; in the score set, the earlier seconds and the equal ones."""
        pipe = self._pipeline()
        for board, key, _user_id in positions:
            score, seconds = key_parts(key)
            pipe.hmget(self.head_key(board), ["state", *prefix_fields(POSITIONS - score - 1)])
            pipe.zcount(self.score_key(board, score), "-inf", f"({seconds}")
            pipe.zrangebyscore(self.score_key(board, score), seconds, seconds)
        answers, found = iter(pipe.execute()), []
        for _board, _key, user_id in positions:
            (state, *fenwick), earlier, equal = next(answers), int(next(answers)), next(answers)
            member = member_for(user_id).encode()
            ahead = sum(int(value or 0) for value in fenwick) + earlier + sum(1 for m in equal if m < member)
            found.append((ahead, member in equal, text(state) if state else None))
        return found

    def top(self, board: str, *, limit: int = 50, offset: int = 0) -> list[Row]:
        """Rows offset + 1 … offset + limit (`window`'s rows)."""
        return self.window(board, offset=offset, limit=limit)[2]

    def window(self, board: str, *, offset: int, limit: int) -> tuple[str | None, int, list[Row]]:
        """(the board's state, its entries, rows offset + 1 … offset + limit): one script on the
        head (which score sets hold them), then one on each of those (usually one or two: the
        rows and their details), sent together on one Redis."""
        total, plan, state = self._plan(
            keys=[self.head_key(board)], args=[POSITIONS, TOP_STEP, offset, max(limit, 0)]
        )
        segments = [(int(plan[i]), int(plan[i + 1]), int(plan[i + 2])) for i in range(0, len(plan), 3)]
        calls = []
        for score, start, take in segments:
            key = self.score_key(board, score)
            calls.append(([key, f"{key}:d"], [start, start + take - 1]))
        rows = []
        for (score, _start, _take), (found, details) in zip(
            segments, self._run_many(self._range, calls), strict=True
        ):
            rows += _rows(found, details, score=score, offset=offset + len(rows))
        return (text(state) if state else None), int(total), rows

    def around(self, board: str, *, user_id: int, span: int = 10) -> list[Row] | None:
        """The player's row with up to `span` rows above and below, or None without an entry."""
        place, rows = self.neighbourhood(board, user_id=user_id, span=span)
        return None if place.rank is None else rows

    def neighbourhood(self, board: str, *, user_id: int, span: int) -> tuple[Place, list[Row]]:
        """The player's place, and the rows from `span` above to `span` below them (none without
        an entry). Two round trips when the player's score set holds all those rows, as it
        usually does: the record with the head's state and total; then one script on the score
        set (the player's position there and the rows around it) with the head's Fenwick fields.
        Two more (`window`) when the rows spill into the next score sets."""
        state, count, key = self._record_and_head(board, user_id)
        if key is None:
            return Place(state, None, count), []
        score = key // SCORE_FACTOR
        fields, score_set = prefix_fields(POSITIONS - score - 1), self.score_key(board, score)
        near, *fenwick = self._run_many(
            self._near,
            [([score_set, f"{score_set}:d"], [member_for(user_id), span])],
            also=(lambda pipe: pipe.hmget(self.head_key(board), fields)) if fields else None,
        )
        if not near:
            return Place(state, None, count), []  # in no score set: in the middle of a move
        position, size, found, details = int(near[0]), int(near[1]), near[2], near[3]
        above = sum(int(value or 0) for value in fenwick[0]) if fenwick else 0
        rank = above + position + 1
        first, last = max(0, rank - 1 - span), min(rank - 1 + span, count - 1)
        held_first, held_last = above + max(0, position - span), above + min(position + span, size - 1)
        if (held_first, held_last) != (first, last):  # more rows in the next score sets
            return Place(state, rank, count), self.window(board, offset=first, limit=last - first + 1)[2]
        return Place(state, rank, count), _rows(found, details, score=score, offset=held_first)


def _rows(found: list, details: list, *, score: int, offset: int) -> list[Row]:
    """Rows offset + 1, … of a score set's ZRANGE … WITHSCORES answer and its details."""
    rows = []
    for index in range(0, len(found), 2):
        kept = details[index // 2] if details else None
        rows.append(
            Row(
                offset + index // 2 + 1,
                int(found[index]),
                score,
                int(found[index + 1]),
                text(kept) if kept else None,
            )
        )
    return rows
