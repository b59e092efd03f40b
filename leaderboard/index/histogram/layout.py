"""Where a board split by score (leaderboard.index.histogram.board) keeps what: its keys, sort keys, members.

- ``<prefix>:{<board>|s<score>}``: the score set, a sorted set of the entries with that score,
  ordered by receipt time (the set's score: epoch seconds) then user id (member: the id
  zero-padded to 12 digits, so equal seconds order by id); ``…:v``, beside it, its version;
  ``…:d``, beside it too, its members' details (submission id, moves, duration, deal code);
- ``<prefix>:{<board>}``: the head, a hash with the count of each score (``c<score>``, with the
  version it was read at, ``v<score>``), the total (``n``), a Fenwick tree over those counts
  (``f<i>``, best score first: "entries at better scores" is a sum of at most 17 fields), the
  board's ``state`` (``building`` or ``ready``) and, for a board that expires, when (``x``);
- ``<prefix>:{<board>|p<k>}``: the records of players k × 64 … k × 64 + 63 (``shard_size``), a
  hash: user id → the entry's sort key (``score × 10^10 + (9,999,999,999 − seconds)``, as in
  leaderboard.boards), which says which score set holds the player. 64 fields keep the hash a
  listpack (Redis's compact form up to 128 fields): ~16 bytes a record instead of ~80.

The part in braces is the hash tag: every score set, its version, the head and every shard sit
in a slot of their own, so a 100M board spreads over all the nodes, while each Lua script
(leaderboard/index/histogram/scripts.py) touches one slot.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import redis
from redis.cluster import RedisCluster
from redis.exceptions import NoScriptError

from leaderboard.boards import MAX_EPOCH_SECONDS, MAX_SCORE, SCORE_FACTOR  # noqa: F401  (for its users)
from leaderboard.boards import sort_key_of as sort_key  # noqa: F401  (the boards' sort key, by seconds)
from leaderboard.boards import sort_key_parts as key_parts  # noqa: F401
from leaderboard.index.histogram import scripts

POSITIONS = MAX_SCORE + 1  # Fenwick positions 1 … POSITIONS: score s sits at POSITIONS − s
TOP_STEP = 1 << (POSITIONS.bit_length() - 1)  # the highest power of 2 within POSITIONS
CLUSTER_SCHEME = "redis+cluster://"
MEMBER_DIGITS = 12  # user ids below 10^12; fewer digits, less memory in every score set
EXPIRE_GRACE = 60  # a board's other keys expire this long after its head
READY, BUILDING = "ready", "building"


def histogram_client(url: str, **options) -> redis.Redis | RedisCluster:
    """A cluster client for ``redis+cluster://host:port`` (any node), else a plain one."""
    if url.startswith(CLUSTER_SCHEME):
        return RedisCluster.from_url("redis://" + url[len(CLUSTER_SCHEME) :], **options)
    return redis.Redis.from_url(url, **options)


def member_for(user_id: int) -> str:
    if not 0 < user_id < 10**MEMBER_DIGITS:
        raise ValueError(f"user id {user_id} out of range")
    return f"{user_id:0{MEMBER_DIGITS}d}"


class BoardLayout:
    """A board's key names, and the scripts registered on its client (one Redis or a cluster)."""

    def __init__(self, client: redis.Redis | RedisCluster, *, prefix: str = "lbh", shard_size: int = 64):
        self.client = client
        self.prefix = prefix
        self.shard_size = shard_size
        self._claim = client.register_script(scripts.CLAIM)
        self._release = client.register_script(scripts.RELEASE)
        self._score_set = client.register_script(scripts.SCORE_SET)
        self._sync = client.register_script(scripts.SYNC)
        self._plan = client.register_script(scripts.PLAN)
        self._range = client.register_script(scripts.RANGE)
        self._near = client.register_script(scripts.NEAR)
        self._load = client.register_script(scripts.LOAD)
        self._ready = client.register_script(scripts.READY)

    def head_key(self, board: str) -> str:
        return f"{self.prefix}:{{{board}}}"

    def score_key(self, board: str, score: int | str) -> str:
        return f"{self.prefix}:{{{board}|s{score}}}"

    def shard_key(self, board: str, user_id: int) -> str:
        return f"{self.prefix}:{{{board}|p{user_id // self.shard_size}}}"

    def _pipeline(self):
        return self.client.pipeline(transaction=False)

    def _run_many(self, script, calls: list[tuple[list, list]], *, also: Callable | None = None) -> list:
        """Run a script once per (keys, args): pipelined on one Redis; one by one on a cluster,
        whose client pipelines no scripts (each call still goes straight to its node). The
        pipeline sends EVALSHA alone, not SCRIPT EXISTS first (one round trip less), and loads
        the script only when Redis does not know it (NOSCRIPT: then no call of the batch ran).
        `also(pipe)` queues plain commands sent with the last calls (on a cluster, in a pipeline
        of their own); their answers follow the scripts'."""
        if isinstance(self.client, RedisCluster) or (len(calls) == 1 and also is None):
            answers = [script(keys=keys, args=args) for keys, args in calls]
            if also is not None:
                pipe = self._pipeline()
                also(pipe)
                answers += pipe.execute()
            return answers
        answers = []
        for start in range(0, max(len(calls), 1), 1000):
            batch, last = calls[start : start + 1000], start + 1000 >= len(calls)
            for attempt in (1, 2):
                pipe = self._pipeline()
                for keys, args in batch:
                    pipe.evalsha(script.sha, len(keys), *keys, *args)
                if last and also is not None:
                    also(pipe)
                try:
                    answers += pipe.execute()
                    break
                except NoScriptError:
                    if attempt == 2:
                        raise
                    script.sha = self.client.script_load(script.script)
        return answers

    def _scan(self, tagged: str) -> Iterator[str]:
        for key in self.client.scan_iter(match=f"{self.prefix}:{tagged}", count=1000):
            yield text(key)

    def _each(self, queue: Callable, items: list) -> None:
        """`queue(pipe, item)` for every item, sent 500 at a time."""
        for start in range(0, len(items), 500):
            pipe = self._pipeline()
            for item in items[start : start + 500]:
                queue(pipe, item)
            pipe.execute()


class WriteBusy(redis.RedisError):
    """Another move of the same player holds its lease: try again later."""


def prefix_fields(position: int) -> list[str]:
    """The Fenwick fields whose sum counts positions 1 … position (entries at better scores)."""
    fields = []
    while position > 0:
        fields.append(f"f{position}")
        position -= position & -position
    return fields


def text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def record_key(record: bytes | None) -> int | None:
    """The sort key a player's record holds, or None (no record, or a removal's tombstone)."""
    key = text(record).split(" ", 1)[0] if record is not None else "d"
    return None if key == "d" else int(key)


def others_expire_at(expire_at) -> str:
    """When a board's keys other than its head expire ('' for never)."""
    return str(int(expire_at) + EXPIRE_GRACE) if expire_at else ""
