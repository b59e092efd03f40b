"""The players a board shows: their public names by id, and a player's id by name.

A page read from Redis needs the names of its players, and "around a player" needs the id of a
name: each would be a PostgreSQL query every time, so both are kept in the index's Redis beside
the boards, for NAME_SECONDS: ``<prefix>-player:<member>`` holds a name and ``<prefix>-named:<name
in lower case>`` a member (the user id's form in the sorted sets: leaderboard.index.member_for),
outside ``<prefix>:*``, where only boards live. Around a player is one script (`index_around`):
the name's member, its rank, the entries either side, their details and their names, in one
round trip; names not kept are read from PostgreSQL and kept. A rename forgets both at once
(`player_names_forget`); a change the staff make in the admin shows within NAME_SECONDS. An
unknown name is not kept: a new player's name answers at once. Without Redis (or while it
fails) both come from PostgreSQL.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis
from django.contrib.auth import get_user_model
from django.db import connection

from leaderboard.index import EntryDetails, IndexItem, IndexSlice, RedisBoardIndex, member_for, user_for
from leaderboard.indexing import board_index, index_failed

NAME_SECONDS = 300
_USER = get_user_model()._meta.db_table


def _rows(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _player_key(prefix: str, user_id: int) -> str:
    return f"{prefix}-player:{member_for(user_id)}"


def _named_key(prefix: str, name: str) -> str:
    return f"{prefix}-named:{name.lower()}"


def player_names(user_ids: list[int]) -> dict[int, str]:
    """The public names of players, by id (players gone from PostgreSQL left out)."""
    if not user_ids:
        return {}
    index = board_index()
    names: dict[int, str] = {}
    if index is not None:
        try:
            kept = index.client.mget([_player_key(index.prefix, user_id) for user_id in user_ids])
        except redis.RedisError as error:
            index_failed(error)
            index = None
        else:
            names = {user_id: name.decode() for user_id, name in zip(user_ids, kept, strict=True) if name}
    missing = [user_id for user_id in user_ids if user_id not in names]
    if not missing:
        return names
    marks = ", ".join(["%s"] * len(missing))
    sql = f"SELECT id, display_name, username FROM {_USER} WHERE id IN ({marks})"
    found = {user_id: display_name or username for user_id, display_name, username in _rows(sql, missing)}
    names.update(found)
    if index is not None and found:
        try:
            pipe = index.client.pipeline(transaction=False)
            for user_id, name in found.items():
                pipe.set(_player_key(index.prefix, user_id), name, ex=NAME_SECONDS)
            pipe.execute()
        except redis.RedisError as error:
            index_failed(error)
    return names


def player_id_by_name(name: str) -> int | None:
    """The id of the active player the boards show as `name` (a display name in any case, or
    the username of a player without one, as written), or None."""
    index = board_index()
    if index is not None:
        try:
            kept = index.client.get(_named_key(index.prefix, name))
        except redis.RedisError as error:
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
        try:
            index.client.set(_named_key(index.prefix, name), member_for(found[0][0]), ex=NAME_SECONDS)
        except redis.RedisError as error:
            index_failed(error)
    return found[0][0]


def player_names_forget(*, user_id: int, names: list[str]) -> None:
    """Forget what is kept of a player whose name changes: their name, and the names given."""
    index = board_index()
    if index is None:
        return
    keys = [_player_key(index.prefix, user_id), *(_named_key(index.prefix, name) for name in names if name)]
    try:
        index.client.delete(*keys)
    except redis.RedisError as error:
        index_failed(error)


# --- Around a player, in one round trip ---------------------------------------------------------

# KEYS: board, its details, the name's key. ARGV: member ('': the one the name's key holds),
# span, the prefix of the players' keys. Returns -2 when the name's key is missing (not kept, or
# no such player), false for a missing board, else one text (one reply to parse, not ~90):
# "<count> <rank0, −1 when absent> <offset> <member>", then a line per entry,
# "<member>\t<score>\t<details>\t<name>" (details and name empty where not kept).
_AROUND_NAMED = r"""
local member = ARGV[1]
if member == '' then
  member = redis.call('get', KEYS[3])
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
local members, names = {}, {}
for i = 1, #found, 2 do
  members[#members + 1] = found[i]
  names[#names + 1] = ARGV[3] .. found[i]
end
local details = redis.call('hmget', KEYS[2], unpack(members))
local kept = redis.call('mget', unpack(names))
local lines = {table.concat({count, rank, first, member}, ' ')}
for i, m in ipairs(members) do
  lines[#lines + 1] = table.concat({m, found[2 * i], details[i] or '', kept[i] or ''}, '\t')
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
    index: RedisBoardIndex, board: str, *, span: int, user_id: int | None = None, name: str | None = None
) -> AroundSlice | str | None:
    """Around the player `user_id`, or the one named `name`: an AroundSlice; NAME_NOT_KEPT when
    Redis does not know the name (ask `player_id_by_name`); None for a missing board key."""
    global _script
    if _script is None:
        _script = index.client.register_script(_AROUND_NAMED)
    key = index.key(board)
    member = member_for(user_id) if user_id is not None else ""
    named = _named_key(index.prefix, name) if name is not None else key
    answer = _script(
        keys=[key, f"{key}:d", named], args=[member, span, f"{index.prefix}-player:"], client=index.client
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
