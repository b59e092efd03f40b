"""A board split by score, for Redis Cluster: a histogram of scores plus one ordered set a score.

Ranked scores are whole numbers 0 … 99,999, so a board is cut along them:

- ``<prefix>:{<board>|s<score>}``: the score set, a sorted set of the entries with that score,
  ordered by receipt time (the set's score: epoch seconds) then user id (member: the id
  zero-padded to 12 digits, so equal seconds order by id); ``…:v``, beside it, its version;
- ``<prefix>:{<board>}``: the head, a hash with the count of each score (``c<score>``, with the
  version it was read at, ``v<score>``), the total (``n``), a Fenwick tree over those counts
  (``f<i>``, best score first: "entries at better scores" is a sum of at most 17 fields) and the
  board's ``state`` (``building`` or ``ready``);
- ``<prefix>:{<board>|p<k>}``: the records of players k × 64 … k × 64 + 63 (``shard_size``), a
  hash: user id → the entry's sort key (``score × 10^10 + (9,999,999,999 − seconds)``, as in
  leaderboard.boards), which says which score set holds the player. 64 fields keep the hash a
  listpack (Redis's compact form up to 128 fields): ~16 bytes a record instead of ~80.

The part in braces is the hash tag: every score set, its version, the head and every shard sit
in a slot of their own, so a 100M board spreads over all the nodes, while each Lua script below
touches one slot. Exact rank = the head's count at better scores + ZRANK within the score set.

Writes touch several slots, so a move is made in an order that is safe to interrupt and to repeat:

1. CLAIM (player's slot): the record becomes the new entry at once, remembering the score sets
   the player may still be in ("pending"), and a short lease (``…|p<k>}:w:<id>``) is taken so
   that two moves of one player never interleave (a second one waits, or retries later);
2. the player leaves the pending score sets, then enters the new one: never in two sets at
   once, only briefly in none (a rank asked meanwhile answers None);
3. SYNC (head): each touched score's count, stamped with the score set's version: the head keeps
   the newest, so late or repeated syncs change nothing;
4. RELEASE (player's slot): the pending scores are forgotten and the lease given back.

A move cut short anywhere is finished by the player's next write (CLAIM hands the pending scores
back once the lease has expired) or by ``repair``; repeating a write is harmless. (A move stalled
past its lease, 10 s, is the one case the lease cannot order: its late steps may leave a stale
member in a score set until the next rebuild.) A removal leaves a tombstone ``"d"`` so that a
rebuild reading an older snapshot does not bring the entry back. The head may lag the score
sets for the moment between steps 2 and 3.

This module knows Redis only (like leaderboard/index.py). ``histogram_client(url)`` connects to a
cluster for ``redis+cluster://host:port`` and to a single Redis for ``redis://…``.
"""

from __future__ import annotations

import secrets
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice

import redis
from redis.cluster import RedisCluster

from leaderboard import histogram_scripts as scripts

MAX_SCORE = 99_999
POSITIONS = MAX_SCORE + 1  # Fenwick positions 1 … POSITIONS: score s sits at POSITIONS − s
TOP_STEP = 1 << (POSITIONS.bit_length() - 1)  # the highest power of 2 within POSITIONS
SCORE_FACTOR = 10**10
MAX_EPOCH_SECONDS = 9_999_999_999
CLUSTER_SCHEME = "redis+cluster://"
LEASE_MS = 10_000  # a move takes milliseconds; a crashed one blocks its player this long
BUSY_WAIT_SECONDS = 2.0
LOAD_BATCH = 200_000
MEMBER_DIGITS = 12  # user ids below 10^12; fewer digits, less memory in every score set


def histogram_client(url: str, **options) -> redis.Redis | RedisCluster:
    """A cluster client for ``redis+cluster://host:port`` (any node), else a plain one."""
    if url.startswith(CLUSTER_SCHEME):
        return RedisCluster.from_url("redis://" + url[len(CLUSTER_SCHEME) :], **options)
    return redis.Redis.from_url(url, **options)


def sort_key(score: int, seconds: int) -> int:
    if not 0 <= score <= MAX_SCORE or not 0 <= seconds <= MAX_EPOCH_SECONDS:
        raise ValueError(f"score {score} or time {seconds} out of range")
    return score * SCORE_FACTOR + (MAX_EPOCH_SECONDS - seconds)


def member_for(user_id: int) -> str:
    if not 0 < user_id < 10**MEMBER_DIGITS:
        raise ValueError(f"user id {user_id} out of range")
    return f"{user_id:0{MEMBER_DIGITS}d}"


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


class WriteBusy(redis.RedisError):
    """Another move of the same player holds its lease: try again later."""


class HistogramBoard:
    def __init__(self, client: redis.Redis | RedisCluster, *, prefix: str = "lbh", shard_size: int = 64):
        self.client = client
        self.prefix = prefix
        self.shard_size = shard_size
        self._claim = client.register_script(scripts.CLAIM)
        self._release = client.register_script(scripts.RELEASE)
        self._score_set = client.register_script(scripts.SCORE_SET)
        self._sync = client.register_script(scripts.SYNC)
        self._plan = client.register_script(scripts.PLAN)
        self._load = client.register_script(scripts.LOAD)

    # --- keys -------------------------------------------------------------------------------

    def head_key(self, board: str) -> str:
        return f"{self.prefix}:{{{board}}}"

    def score_key(self, board: str, score: int | str) -> str:
        return f"{self.prefix}:{{{board}|s{score}}}"

    def shard_key(self, board: str, user_id: int) -> str:
        return f"{self.prefix}:{{{board}|p{user_id // self.shard_size}}}"

    def _pipeline(self):
        return self.client.pipeline(transaction=False)

    # --- writes -----------------------------------------------------------------------------

    def write(self, board: str, *, user_id: int, score: int, seconds: int, only_better: bool = True) -> bool:
        """Enter or raise a player's entry (``only_better=False``: set it exactly, even lower).
        True when the board changed. Skipped (False) on a board that is not built."""
        mode = "gt" if only_better else "set"
        return self._move(board, user_id, mode, str(sort_key(score, seconds)))

    def remove(self, board: str, *, user_id: int) -> bool:
        return self._move(board, user_id, "del", "")

    def _move(self, board: str, user_id: int, mode: str, new: str) -> bool:
        if self.state(board) is None:
            return False
        shard = self.shard_key(board, user_id)
        lease, token = f"{shard}:w:{user_id}", secrets.token_hex(8)
        deadline = time.monotonic() + BUSY_WAIT_SECONDS
        while True:
            answer = self._claim(
                keys=[shard, lease, f"{shard}:loading"], args=[user_id, mode, new, token, LEASE_MS]
            )
            verdict = _text(answer[0])
            if verdict != "busy":
                break
            if time.monotonic() > deadline:
                raise WriteBusy(f"player {user_id} of {board} is being moved by another write")
            time.sleep(0.005)
        if verdict == "same":
            return False
        enter, leave = _text(answer[1]), [_text(score) for score in answer[2:]]
        member = member_for(user_id)
        counts = []
        for score in leave:  # leave first: never in two score sets at once
            counts.append((score, *self._score_op(board, score, "leave", member)))
        if enter:
            score, rest = divmod(int(enter), SCORE_FACTOR)
            counts.append(
                (str(score), *self._score_op(board, score, "enter", member, MAX_EPOCH_SECONDS - rest))
            )
        self._sync_counts(board, counts)
        self._release(keys=[shard, lease], args=[user_id, token])
        return True

    def _score_op(self, board: str, score, op: str, member: str = "", seconds: int = 0) -> tuple[int, int]:
        key = self.score_key(board, score)
        count, version = self._score_set(keys=[key, f"{key}:v"], args=[op, member, seconds])
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
        return _text(value) if value is not None else None

    def count(self, board: str) -> int:
        return int(self.client.hget(self.head_key(board), "n") or 0)

    def entry(self, board: str, *, user_id: int) -> tuple[int, int] | None:
        """The player's (score, seconds), or None without an entry."""
        record = self.client.hget(self.shard_key(board, user_id), str(user_id))
        if record is None:
            return None
        key = _text(record).split(" ", 1)[0]
        if key == "d":
            return None
        score, rest = divmod(int(key), SCORE_FACTOR)
        return score, MAX_EPOCH_SECONDS - rest

    def rank(self, board: str, *, user_id: int) -> int | None:
        """The player's 1-based rank, or None without an entry (or during their move).

        An HGET of the record, then one round trip: ZRANK in the score set and an HMGET of at
        most 17 Fenwick fields of the head (two slots, sent together)."""
        found = self.entry(board, user_id=user_id)
        if found is None:
            return None
        score = found[0]
        fields = _prefix_fields(POSITIONS - score - 1)
        pipe = self._pipeline()
        pipe.zrank(self.score_key(board, score), member_for(user_id))
        if fields:
            pipe.hmget(self.head_key(board), fields)
        answers = pipe.execute()
        if answers[0] is None:
            return None
        above = sum(int(value or 0) for value in answers[1]) if fields else 0
        return above + int(answers[0]) + 1

    def top(self, board: str, *, limit: int = 50, offset: int = 0) -> list[Row]:
        """Rows offset + 1 … offset + limit: one script on the head (which score sets hold
        them), then a ZRANGE on each of those (usually one or two), sent together."""
        if limit <= 0:
            return []
        _total, plan = self._plan(keys=[self.head_key(board)], args=[POSITIONS, TOP_STEP, offset, limit])
        segments = [(int(plan[i]), int(plan[i + 1]), int(plan[i + 2])) for i in range(0, len(plan), 3)]
        if not segments:
            return []
        pipe = self._pipeline()
        for score, start, take in segments:
            pipe.zrange(self.score_key(board, score), start, start + take - 1, withscores=True)
        rows, rank = [], offset
        for (score, _start, _take), found in zip(segments, pipe.execute(), strict=True):
            for member, seconds in found:
                rank += 1
                rows.append(Row(rank, int(member), score, int(seconds)))
        return rows

    def around(self, board: str, *, user_id: int, span: int = 10) -> list[Row] | None:
        """The player's row with up to `span` rows above and below, or None without an entry."""
        rank = self.rank(board, user_id=user_id)
        if rank is None:
            return None
        first = max(0, rank - 1 - span)
        return self.top(board, offset=first, limit=rank - first + span)

    # --- rebuild and repair -----------------------------------------------------------------

    def build(self, board: str, rows: Iterable[tuple[int, int, int]]) -> int:
        """Load a board from (user_id, score, seconds) rows, read after this call started (a
        snapshot). Writes made meanwhile are kept: a player written during the build keeps that
        write. One build of a board at a time (the caller's lock). Returns the entries loaded."""
        self._clear(board)
        self.client.hset(self.head_key(board), "state", "building")
        loaded, scores = 0, set()
        for batch in _batches(rows, LOAD_BATCH):
            by_shard = defaultdict(list)
            for row in batch:
                by_shard[row[0] // self.shard_size].append(row)
            calls = []
            for shard_rows in by_shard.values():
                shard = self.shard_key(board, shard_rows[0][0])
                args = []
                for user_id, score, seconds in shard_rows:
                    args += [user_id, sort_key(score, seconds)]
                calls.append(([shard, f"{shard}:loading"], args))
            by_score = defaultdict(dict)
            for shard_rows, taken in zip(by_shard.values(), self._run_many(self._load, calls), strict=True):
                for index in taken:
                    user_id, score, seconds = shard_rows[int(index) - 1]
                    by_score[score][member_for(user_id)] = seconds
            pipe = self._pipeline()
            for score, members in by_score.items():
                pipe.zadd(self.score_key(board, score), members)
            for shard_rows in by_shard.values():
                pipe.delete(f"{self.shard_key(board, shard_rows[0][0])}:loading")
            pipe.execute()
            loaded += sum(len(members) for members in by_score.values())
            scores.update(by_score)
        self._stamp(board, scores)
        self.client.hset(self.head_key(board), "state", "ready")
        return loaded

    def repair(self, board: str) -> int:
        """Finish moves cut short (records still naming pending scores, lease expired) and set
        the head from every score set's count. Returns the players settled."""
        settled = 0
        for key in list(self._scan(f"{{{board}|p*}}")):
            for user_id, record in self.client.hscan_iter(key, count=1000):
                words = _text(record).split()
                if len(words) > 1:
                    try:
                        mode = "del" if words[0] == "d" else "set"
                        settled += self._move(board, int(user_id), mode, "" if mode == "del" else words[0])
                    except WriteBusy:
                        pass  # a move in progress finishes itself
        scores = {key.rsplit("|s", 1)[1].rstrip("}") for key in self._scan(f"{{{board}|s*}}")}
        for field, count in self.client.hscan_iter(self.head_key(board), match="c*", count=1000):
            if int(count):  # counted by the head, though its set may be gone
                scores.add(_text(field)[1:])
        self._stamp(board, scores)
        return settled

    def _stamp(self, board: str, scores: Iterable) -> None:
        """Give the head each score's count as it is now (a new version: older syncs lose)."""
        scores = [str(score) for score in scores]
        calls = []
        for score in scores:
            key = self.score_key(board, score)
            calls.append(([key, f"{key}:v"], ["stamp", "", 0]))
        answers = self._run_many(self._score_set, calls)
        counts = [
            (score, int(count), int(version)) for score, (count, version) in zip(scores, answers, strict=True)
        ]
        for start in range(0, len(counts), 500):
            self._sync_counts(board, counts[start : start + 500])

    def _run_many(self, script, calls: list[tuple[list, list]]) -> list:
        """Run a script once per (keys, args): pipelined on one Redis; one by one on a cluster,
        whose client pipelines no scripts (each call still goes straight to its node)."""
        if isinstance(self.client, RedisCluster):
            return [script(keys=keys, args=args) for keys, args in calls]
        answers = []
        for start in range(0, len(calls), 1000):
            pipe = self._pipeline()
            for keys, args in calls[start : start + 1000]:
                script(keys=keys, args=args, client=pipe)
            answers += pipe.execute()
        return answers

    def _scan(self, tagged: str) -> Iterator[str]:
        for key in self.client.scan_iter(match=f"{self.prefix}:{tagged}", count=1000):
            yield _text(key)

    def _clear(self, board: str) -> None:
        """Every key of the board but the score sets' versions (they keep growing across builds)."""
        keys = [key for key in self._scan(f"{{{board}|*") if not key.endswith(":v")]
        keys.append(self.head_key(board))
        for start in range(0, len(keys), 500):
            pipe = self._pipeline()
            for key in keys[start : start + 500]:
                pipe.delete(key)
            pipe.execute()

    def drop(self, board: str) -> None:
        """Forget the board entirely."""
        self._clear(board)
        keys = list(self._scan(f"{{{board}|s*}}:v"))
        for start in range(0, len(keys), 500):
            pipe = self._pipeline()
            for key in keys[start : start + 500]:
                pipe.delete(key)
            pipe.execute()


def _prefix_fields(position: int) -> list[str]:
    """The Fenwick fields whose sum counts positions 1 … position (entries at better scores)."""
    fields = []
    while position > 0:
        fields.append(f"f{position}")
        position -= position & -position
    return fields


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _batches(iterable: Iterable, size: int) -> Iterator[list]:
    iterator = iter(iterable)
    while batch := list(islice(iterator, size)):
        yield batch
