"""The Redis index of the boards: one sorted set per board, written after commits, rebuilt from SQL.

Key ``<prefix>:<board>`` (``lb:classic:all``). Score: the entry's sort key
(``score × 10^10 + (9,999,999,999 − epoch seconds)``, below 2^53, so exact as a double).
Member: the zero-padded complement of the user id (``10^19 − 1 − id``, 19 digits), so that
ZREVRANGE, which orders equal scores by descending member bytes, puts the lower user id first.

Beside each sorted set, the hash ``<key>:d`` holds every member's details (submission id,
moves, duration, deal code; the score and the time are in the sort key), written and removed
with it, so that a page needs nothing else from PostgreSQL than the players' names.

Every built key holds one sentinel member ``""`` with score −1 (always last): a key that
exists is complete, a missing key means "not built" (never "empty"), and writes only touch
keys that exist, so a key can never be half-filled by them. A rebuild fills ``<key>:build``
(and ``<key>:build:d``) and RENAMEs it over the key; writes arriving meanwhile go to both, and
removals made during the rebuild are remembered in ``<key>:removed`` so the loader does not
bring them back.

This module knows Redis only; leaderboard/index/wiring.py connects it to Django. The same interface
over boards split by score, for Redis Cluster: leaderboard/index/histogram/index.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import redis

from leaderboard.index.base import EntryDetails, IndexBuildLost, IndexChange, IndexItem, IndexSlice, batches
from leaderboard.index.locks import RebuildLock

SENTINEL = ""
SENTINEL_SCORE = -1
MEMBER_COMPLEMENT = 10**19 - 1
BUILD_KEY_TTL = 3600  # a crashed rebuild leaves nothing behind for long
LOAD_BATCH = 5000


def member_for(user_id: int) -> str:
    return f"{MEMBER_COMPLEMENT - user_id:019d}"


def user_for(member: bytes | str) -> int:
    return MEMBER_COMPLEMENT - int(member)


# KEYS: live, build, removed, live details, build details. ARGV: mode (gt | set | del), sort
# key, member, build TTL, details. A member's details change with its score, and only then.
_WRITE = """
local mode, score, member, details = ARGV[1], ARGV[2], ARGV[3], ARGV[5]
local function apply(key, hash)
  local changed = true
  if mode == 'del' then
    redis.call('zrem', key, member)
    redis.call('hdel', hash, member)
    return
  elseif mode == 'gt' then
    changed = redis.call('zadd', key, 'GT', 'CH', score, member) == 1
  else
    redis.call('zadd', key, score, member)
  end
  if changed then
    redis.call('hset', hash, member, details)
    local ttl = redis.call('pttl', key)
    if ttl > 0 then redis.call('pexpire', hash, ttl) end
  end
end
if redis.call('exists', KEYS[1]) == 1 then apply(KEYS[1], KEYS[4]) end
if redis.call('exists', KEYS[2]) == 1 then
  apply(KEYS[2], KEYS[5])
  if mode == 'del' then
    redis.call('sadd', KEYS[3], member)
    redis.call('expire', KEYS[3], ARGV[4])
  else
    redis.call('srem', KEYS[3], member)
  end
end
return 1
"""

# KEYS: build, removed, build details. ARGV: sort key, member, details, sort key, member, ...
# Returns 0 if the build key vanished (Redis flushed meanwhile): the rebuild must then stop.
_LOAD = """
if redis.call('exists', KEYS[1]) == 0 then return 0 end
local check = redis.call('exists', KEYS[2]) == 1
for i = 1, #ARGV, 3 do
  local member = ARGV[i + 1]
  if not (check and redis.call('sismember', KEYS[2], member) == 1)
      and redis.call('zadd', KEYS[1], 'NX', ARGV[i], member) == 1 then
    redis.call('hset', KEYS[3], member, ARGV[i + 2])
  end
end
return 1
"""

# The details of the members of a ZREVRANGE … WITHSCORES answer (false where missing).
_DETAILS = """
local function details(hash, found)
  local members = {}
  for i = 1, #found, 2 do members[#members + 1] = found[i] end
  if #members == 0 then return {} end
  return redis.call('hmget', hash, unpack(members))
end
"""

# KEYS: board, its details. ARGV: mode (first | after | before), sort key, member, limit.
# Returns false for a missing key, else {count, offset, {member, score, ...}, {details, ...}}.
_PAGE = (
    _DETAILS
    + """
local key = KEYS[1]
if redis.call('exists', key) == 0 then return false end
local count = redis.call('zcard', key) - 1
local limit = tonumber(ARGV[4])
local offset = 0
if ARGV[1] ~= 'first' then
  local score, member = ARGV[2], ARGV[3]
  local position = redis.call('zcount', key, '(' .. score, '+inf')
  local here = 0
  for _, m in ipairs(redis.call('zrangebyscore', key, score, score)) do
    if m > member then position = position + 1 elseif m == member then here = 1 end
  end
  if ARGV[1] == 'after' then
    offset = position + here
  else
    offset = position - limit
    if offset < 0 then limit = limit + offset; offset = 0 end
  end
end
if limit <= 0 or offset >= count then return {count, offset, {}, {}} end
local found = redis.call('zrevrange', key, offset, offset + limit - 1, 'WITHSCORES')
return {count, offset, found, details(KEYS[2], found)}
"""
)

# KEYS: board, its details. ARGV: member, span. Returns false for a missing key, else
# {count, rank0 (−1 when absent), offset, {member, score, ...}, {details, ...}}.
_AROUND = (
    _DETAILS
    + """
local key = KEYS[1]
if redis.call('exists', key) == 0 then return false end
local count = redis.call('zcard', key) - 1
local rank = redis.call('zrevrank', key, ARGV[1])
if not rank then return {count, -1, 0, {}, {}} end
local span = tonumber(ARGV[2])
local first = math.max(0, rank - span)
local last = math.min(rank + span, count - 1)
local found = redis.call('zrevrange', key, first, last, 'WITHSCORES')
return {count, rank, first, found, details(KEYS[2], found)}
"""
)

# KEYS: boards. ARGV, for each board in turn: q, q × (sort key, member) to rank, then w,
# w × (sort key, member) of entries written by the caller's open transaction (not in Redis
# yet). Returns per board false for a missing key, else the entries ahead of each query:
# members above it, corrected for the caller's written entries and a stale score of its own.
_AHEAD = """
local function before(s1, m1, s2, m2) return s1 > s2 or (s1 == s2 and m1 > m2) end
local out, i = {}, 1
for k = 1, #KEYS do
  local key, queries, written = KEYS[k], {}, {}
  for j = 1, tonumber(ARGV[i]) do queries[j] = {ARGV[i + 2 * j - 1], ARGV[i + 2 * j]} end
  i = i + 1 + 2 * #queries
  for j = 1, tonumber(ARGV[i]) do written[j] = {tonumber(ARGV[i + 2 * j - 1]), ARGV[i + 2 * j]} end
  i = i + 1 + 2 * #written
  if redis.call('exists', key) == 0 then
    out[k] = false
  else
    for _, w in ipairs(written) do w[3] = tonumber(redis.call('zscore', key, w[2])) end
    local ahead = {}
    for j, q in ipairs(queries) do
      local text, member = q[1], q[2]
      local score = tonumber(text)
      local n = redis.call('zcount', key, '(' .. text, '+inf')
      for _, m in ipairs(redis.call('zrangebyscore', key, text, text)) do
        if m > member then n = n + 1 end
      end
      local own = tonumber(redis.call('zscore', key, member))
      if own and own > score then n = n - 1 end
      for _, w in ipairs(written) do
        if w[2] ~= member then
          local now = before(w[1], w[2], score, member)
          local was = w[3] ~= nil and before(w[3], w[2], score, member)
          if now and not was then n = n + 1 elseif was and not now then n = n - 1 end
        end
      end
      ahead[j] = n
    end
    out[k] = ahead
  end
end
return out
"""


class RedisBoardIndex(RebuildLock):
    def __init__(self, client: redis.Redis, *, prefix: str = "lb") -> None:
        self.client = client
        self.prefix = prefix
        self._write = client.register_script(_WRITE)
        self._load = client.register_script(_LOAD)
        self._page = client.register_script(_PAGE)
        self._around = client.register_script(_AROUND)
        self._ahead = client.register_script(_AHEAD)

    # --- keys -------------------------------------------------------------------------------

    def key(self, board: str) -> str:
        return f"{self.prefix}:{board}"

    def board_of(self, key: str | bytes) -> str:
        text = key.decode() if isinstance(key, bytes) else key
        return text[len(self.prefix) + 1 :]

    def built_boards(self) -> list[str]:
        """Boards with a key in Redis (helper keys left out)."""
        boards = []
        for key in self.client.scan_iter(match=f"{self.prefix}:*", count=1000):
            board = self.board_of(key)
            if not board.endswith((":build", ":removed", ":lock", ":d")):
                boards.append(board)
        return sorted(boards)

    def exists(self, board: str) -> bool:
        return bool(self.client.exists(self.key(board)))

    # --- writes -----------------------------------------------------------------------------

    def apply(self, changes: Iterable[IndexChange]) -> None:
        pipe = self.client.pipeline(transaction=False)
        for change in changes:
            key = self.key(change.board)
            details = change.details.encode() if change.details else ""
            self._write(
                keys=[key, f"{key}:build", f"{key}:removed", f"{key}:d", f"{key}:build:d"],
                args=[change.mode, change.sort_key, member_for(change.user_id), BUILD_KEY_TTL, details],
                client=pipe,
            )
        pipe.execute()

    # --- reads: None when the board's key is missing ---------------------------------------

    def page(
        self, board: str, *, mode: str = "first", sort_key: int = 0, user_id: int = 0, limit: int = 50
    ) -> IndexSlice | None:
        """The first page, or `limit` items right after / before the entry (sort_key, user_id)."""
        member = member_for(user_id) if mode != "first" else ""
        key = self.key(board)
        answer = self._page(keys=[key, f"{key}:d"], args=[mode, sort_key, member, limit])
        if answer is None:
            return None
        count, offset, flat, details = answer
        return IndexSlice(int(count), int(offset), _items(flat, details))

    def around(self, board: str, *, user_id: int, span: int = 10) -> tuple[int | None, IndexSlice] | None:
        """(0-based rank or None when absent, the slice around it), or None for a missing key."""
        key = self.key(board)
        answer = self._around(keys=[key, f"{key}:d"], args=[member_for(user_id), span])
        if answer is None:
            return None
        count, rank, offset, flat, details = answer
        rank = int(rank)
        return (rank if rank >= 0 else None), IndexSlice(int(count), int(offset), _items(flat, details))

    def rank(self, board: str, *, user_id: int) -> int | None:
        """0-based rank, −1 when the player has no entry, or None for a missing key.

        One ZREVRANK on the common path; EXISTS only tells "no entry" from "no key"."""
        key = self.key(board)
        rank = self.client.zrevrank(key, member_for(user_id))
        if rank is not None:
            return int(rank)
        return -1 if self.client.exists(key) else None

    def place(self, board: str, *, user_id: int) -> tuple[int, int] | None:
        """(0-based rank or −1 without an entry, entries on the board), or None for a missing key:
        one round trip."""
        pipe = self.client.pipeline(transaction=False)
        pipe.zrevrank(self.key(board), member_for(user_id))
        pipe.zcard(self.key(board))
        rank, count = pipe.execute()
        if not count:
            return None
        return (-1 if rank is None else int(rank)), int(count) - 1  # the sentinel is no entry

    def sizes(
        self, boards: Iterable[str], *, written: dict[str, list[int]] | None = None
    ) -> dict[str, int | None]:
        """Entries on each board, None for a missing key: one round trip. `written` (board → user
        ids) are entries the caller's open transaction wrote, which reach Redis only after its
        commit: those not there yet count as if they were."""
        written = written or {}
        boards = list(boards)
        pipe = self.client.pipeline(transaction=False)
        for board in boards:
            pipe.zcard(self.key(board))
            for user_id in written.get(board, []):
                pipe.zscore(self.key(board), member_for(user_id))
        answers = iter(pipe.execute())
        sizes: dict[str, int | None] = {}
        for board in boards:
            count = int(next(answers))
            coming = sum(1 for _ in written.get(board, []) if next(answers) is None)
            sizes[board] = None if count == 0 else count - 1 + coming
        return sizes

    def entries_ahead(
        self, queries: dict[str, list[IndexItem]], *, written: dict[str, list[IndexItem]] | None = None
    ) -> dict[str, list[int] | None]:
        """For each board, how many entries are ahead of each queried (sort_key, user_id): one call.

        `written` are entries the caller's open transaction wrote, which reach Redis only after
        its commit: they count as if they were there. None for a board whose key is missing."""
        written = written or {}
        boards = list(queries)
        args: list = []
        for board in boards:
            asked, wrote = queries[board], written.get(board, [])
            args.append(len(asked))
            for item in asked:
                args += [item.sort_key, member_for(item.user_id)]
            args.append(len(wrote))
            for item in wrote:
                args += [item.sort_key, member_for(item.user_id)]
        answer = self._ahead(keys=[self.key(board) for board in boards], args=args)
        return {
            board: None if found is None else [int(n) for n in found]
            for board, found in zip(boards, answer, strict=True)
        }

    # --- rebuild ----------------------------------------------------------------------------

    def rebuild(
        self,
        board: str,
        rows: Callable[[], Iterable[tuple[int, int, EntryDetails]]],
        *,
        expire_at: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """Fill the build key from `rows()` — (sort_key, user_id, details), read after the build
        key exists — and RENAME it over the board's key. Returns the number of entries loaded."""
        key = self.key(board)
        build, removed = f"{key}:build", f"{key}:removed"
        pipe = self.client.pipeline()
        pipe.delete(build, f"{build}:d", removed)
        pipe.zadd(build, {SENTINEL: SENTINEL_SCORE})
        pipe.hset(f"{build}:d", SENTINEL, "")  # so that it exists, even for an empty board
        pipe.expire(build, BUILD_KEY_TTL)
        pipe.expire(f"{build}:d", BUILD_KEY_TTL)
        pipe.execute()
        loaded = 0
        for batch in batches(rows(), LOAD_BATCH):
            args = []
            for sort_key, user_id, details in batch:
                args += [sort_key, member_for(user_id), details.encode()]
            if not self._load(keys=[build, removed, f"{build}:d"], args=args):
                raise IndexBuildLost(f"the build key of {board} vanished during the rebuild")
            loaded += len(batch)
            if progress:
                progress(loaded)
        pipe = self.client.pipeline()
        pipe.rename(build, key)
        pipe.rename(f"{build}:d", f"{key}:d")
        pipe.delete(removed)
        for name in (key, f"{key}:d"):
            if expire_at is None:
                pipe.persist(name)
            else:
                pipe.expireat(name, expire_at)
        try:
            pipe.execute()
        except redis.ResponseError as error:  # "no such key": the build key vanished
            raise IndexBuildLost(f"could not swap in the rebuilt {board}: {error}") from error
        return loaded

    def drop(self, board: str) -> None:
        key = self.key(board)
        self.client.delete(key, f"{key}:d", f"{key}:build", f"{key}:build:d", f"{key}:removed", f"{key}:lock")


def _items(flat: list, details: list | None = None) -> list[IndexItem]:
    items = []
    for index in range(0, len(flat), 2):
        member = flat[index]
        if member in (b"", ""):
            continue  # the sentinel
        kept = details[index // 2] if details else None
        items.append(
            IndexItem(
                user_for(member), int(float(flat[index + 1])), EntryDetails.decode(kept) if kept else None
            )
        )
    return items
