"""The players a board shows: their public names by id, and a player's id by name.

A page read from Redis needs the names of its players, and "around a player" needs the id of a
name: each would be a PostgreSQL query every time, so both are kept in the index's Redis beside
the boards, in two hashes (outside ``<prefix>:*``, where only boards live): ``<prefix>-names``,
member → name, and ``<prefix>-named``, name in lower case → member (the member is the user id's
form in the sorted sets: leaderboard.index.member_for). Around a player is one script
(`index_around`): the name's member, its rank, the entries either side, their details and their
names, in one round trip. Names not kept are read from PostgreSQL and kept (one HSET). Each hash
expires NAME_SECONDS after it was started, then fills again. A rename, in the account's API or
the admin, and a deletion forget the player's fields at once. An unknown name is not kept: a
new player's name answers at once. Without Redis (or while it fails) both come from PostgreSQL.

On boards split by score (leaderboard.index.histogram.index, Redis Cluster) the two hashes are keys of
their own too, but no script may span their slots and the board's: around a player is there the
name's member (HGET), the neighbourhood (the index's `around`) and their names (HMGET).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import connection

from accounts.models import public_name_of
from leaderboard.index.base import BoardIndex, EntryDetails, IndexItem, IndexSlice
from leaderboard.index.histogram.index import HistogramBoardIndex
from leaderboard.index.sorted_sets import member_for, user_for
from leaderboard.index.wiring import INDEX_ERRORS, board_index, index_failed

NAME_SECONDS = 3600  # each hash, from its first field: an hour, then it fills again
_USER = get_user_model()._meta.db_table


def _rows(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _names_key(prefix: str) -> str:
    return f"{prefix}-names"


def _named_key(prefix: str) -> str:
    return f"{prefix}-named"


def _keep(index: BoardIndex, key: str, fields: dict) -> None:
    """Add fields to a hash that expires NAME_SECONDS after it was started."""
    try:
        pipe = index.client.pipeline(transaction=False)
        pipe.hset(key, mapping=fields)
        pipe.expire(key, NAME_SECONDS, nx=True)
        pipe.execute()
    except INDEX_ERRORS as error:
        index_failed(error)


def player_names(user_ids: list[int]) -> dict[int, str]:
    """The public names of players, by id (players gone from PostgreSQL left out)."""
    if not user_ids:
        return {}
    index = board_index()
    names: dict[int, str] = {}
    if index is not None:
        try:
            kept = index.client.hmget(_names_key(index.prefix), [member_for(user_id) for user_id in user_ids])
        except INDEX_ERRORS as error:
            index_failed(error)
            index = None
        else:
            names = {user_id: name.decode() for user_id, name in zip(user_ids, kept, strict=True) if name}
    missing = [user_id for user_id in user_ids if user_id not in names]
    if not missing:
        return names
    marks = ", ".join(["%s"] * len(missing))
    sql = f"SELECT id, display_name, username FROM {_USER} WHERE id IN ({marks})"
    found = {
        user_id: public_name_of(display_name=display_name, username=username)
        for user_id, display_name, username in _rows(sql, missing)
    }
    names.update(found)
    if index is not None and found:
        _keep(index, _names_key(index.prefix), {member_for(user_id): name for user_id, name in found.items()})
    return names


def player_id_by_name(name: str) -> int | None:
    """The id of the active player the boards show as `name` (a display name in any case, or
    the username of a player without one, as written), or None."""
    index = board_index()
    if index is not None:
        try:
            kept = index.client.hget(_named_key(index.prefix), name.lower())
        except INDEX_ERRORS as error:
            index_failed(error)
            index = None
        else:
            if kept is not None:
                return user_for(kept)
    # lower(display_name) where it is not blank: the unique index display_name_unique_ignoring_case.
    found = _rows(
        f"SELECT id FROM {_USER} WHERE lower(display_name) = %s AND NOT (display_name = '') AND is_active",
        [name.lower()],
    ) or _rows(f"SELECT id FROM {_USER} WHERE username = %s AND display_name = '' AND is_active", [name])
    if not found:
        return None
    if index is not None:
        _keep(index, _named_key(index.prefix), {name.lower(): member_for(found[0][0])})
    return found[0][0]


def player_names_forget(*, user_id: int, names: list[str]) -> None:
    """Forget what is kept of a player whose name changes: their name, and the names given."""
    index = board_index()
    if index is None:
        return
    try:
        pipe = index.client.pipeline(transaction=False)
        pipe.hdel(_names_key(index.prefix), member_for(user_id))
        named = [name.lower() for name in names if name]
        if named:
            pipe.hdel(_named_key(index.prefix), *named)
        pipe.execute()
    except INDEX_ERRORS as error:
        index_failed(error)


# --- Around a player, in one round trip ---------------------------------------------------------

# KEYS: board, its details, the names (member → name), the named (name → member). ARGV: member
# ('': the one the named hash holds for ARGV[3]), span, a name in lower case. Returns -2 when the
# name is not kept (or no one's), false for a missing board, else one text (one reply to parse,
# not ~90): "<count> <rank0, −1 when absent> <offset> <member>", then a line per entry,
# "<member>\t<score>\t<details>\t<name>" (details and name empty where not kept).
_AROUND_NAMED = r"""
local member = ARGV[1]
if member == '' then
  member = redis.call('hget', KEYS[4], ARGV[3])
  if not member then return -2 end
end
local key = KEYS[1]
if redis.call('exists', key) == 0 then return false end
local count = redis.call('zcard', key) - 1
local rank = redis.call('zrevrank', key, member)
if not rank then return table.concat({count, -1, 0, member}, ' ') end
local span = tonumber(ARGV[2])
local first = math.max(0, rank - span)
local last = math.min(rank + span, count - 1)
local found = redis.call('zrevrange', key, first, last, 'WITHSCORES')
local members = {}
for i = 1, #found, 2 do members[#members + 1] = found[i] end
local details = redis.call('hmget', KEYS[2], unpack(members))
local names = redis.call('hmget', KEYS[3], unpack(members))
local lines = {table.concat({count, rank, first, member}, ' ')}
for i, m in ipairs(members) do
  lines[#lines + 1] = table.concat({m, found[2 * i], details[i] or '', names[i] or ''}, '\t')
end
return table.concat(lines, '\n')
"""
NAME_NOT_KEPT = "not kept"


@dataclass(frozen=True)
class AroundSlice:
    """A player's neighbourhood on a board: `rank` None when the player has no entry there;
    `names` those kept in Redis (the others are read by `player_names`)."""

    user_id: int
    rank: int | None
    slice: IndexSlice
    names: dict[int, str]


_script = None  # registered once; each call names the client it runs on


def index_around(
    index: BoardIndex, board: str, *, span: int, user_id: int | None = None, name: str | None = None
) -> AroundSlice | str | None:
    """Around the player `user_id`, or the one named `name`: an AroundSlice; NAME_NOT_KEPT when
    Redis does not know the name (ask `player_id_by_name`); None for a missing board key."""
    global _script
    if isinstance(index, HistogramBoardIndex):
        return _around_split(index, board, span=span, user_id=user_id, name=name)
    if _script is None:
        _script = index.client.register_script(_AROUND_NAMED)
    key = index.key(board)
    member = member_for(user_id) if user_id is not None else ""
    answer = _script(
        keys=[key, f"{key}:d", _names_key(index.prefix), _named_key(index.prefix)],
        args=[member, span, (name or "").lower()],
        client=index.client,
    )
    if answer is None:
        return None
    if answer == -2:
        return NAME_NOT_KEPT
    head, *lines = answer.decode().split("\n")
    count, rank, offset, member = head.split(" ")
    items, names = [], {}
    for line in lines:
        entry, score, details, name = line.split("\t")
        user_id = user_for(entry)
        items.append(IndexItem(user_id, int(float(score)), EntryDetails.decode(details) if details else None))
        if name:
            names[user_id] = name
    rank = int(rank)
    found = IndexSlice(int(count), int(offset), items)
    return AroundSlice(user_for(member), rank if rank >= 0 else None, found, names)


def _around_split(
    index: HistogramBoardIndex, board: str, *, span: int, user_id: int | None, name: str | None
) -> AroundSlice | str | None:
    """`index_around` on boards split by score: the same answers, in a few round trips."""
    if user_id is None:
        member = index.client.hget(_named_key(index.prefix), (name or "").lower())
        if member is None:
            return NAME_NOT_KEPT
        user_id = user_for(member)
    found = index.around(board, user_id=user_id, span=span)
    if found is None:
        return None
    rank, near = found
    names = {}
    if near.items:
        kept = index.client.hmget(_names_key(index.prefix), [member_for(item.user_id) for item in near.items])
        names = {item.user_id: name.decode() for item, name in zip(near.items, kept, strict=True) if name}
    return AroundSlice(user_id, rank, near, names)
