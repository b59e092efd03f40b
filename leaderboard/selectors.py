"""Reads of the boards: pages, around-me and ranks, from Redis when it can answer, else SQL.

Both paths order a board by (sort_key DESC, user_id ASC) and return the same pages, ties
included. Ranks are exact positions: 1 + the number of entries ahead.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count
from django.utils.dateparse import parse_datetime

from accounts.models import public_name_of
from games.models import Submission
from leaderboard.boards import RULES, sort_key_parts
from leaderboard.hot_pages import hot_page
from leaderboard.index.base import BoardIndex, IndexItem, IndexSlice
from leaderboard.index.wiring import INDEX_ERRORS, board_index, index_failed, index_read
from leaderboard.models import BoardEntry
from leaderboard.players import NAME_NOT_KEPT, AroundSlice, index_around, player_id_by_name, player_names


@dataclass(frozen=True)
class Cursor:
    """A position on a board: the entry (sort_key, user_id); pages go after or before it."""

    sort_key: int
    user_id: int


class RankedEntry(NamedTuple):  # a NamedTuple: made fast (leaderboard.index.EntryDetails)
    rank: int
    user_id: int
    name: str
    score: int
    moves: int
    duration_ms: int
    achieved_at: dt.datetime
    submission_id: int
    code: str
    sort_key: int

    @property
    def cursor(self) -> Cursor:
        return Cursor(self.sort_key, self.user_id)


@dataclass(frozen=True)
class BoardPage:
    count: int  # entries on the board
    entries: list[RankedEntry]
    has_next: bool
    has_previous: bool
    source: str = "sql"  # or "redis": which index ordered it


# --- SQL (raw: these run on every page, and the ORM would cost more than PostgreSQL) ------------

_ENTRY = BoardEntry._meta.db_table
_USER = get_user_model()._meta.db_table
_SELECT = (
    f"SELECT e.user_id, e.score, e.moves, e.duration_ms, e.achieved_at, e.submission_id, e.code, e.sort_key, "
    f"u.display_name, u.username FROM {_ENTRY} e JOIN {_USER} u ON u.id = e.user_id WHERE e.board = %s"
)
# Board order and its reverse. "After" is written as a range plus a small exclusion, so that
# PostgreSQL scans the board_order index (board, sort_key DESC, user_id) from the cursor on.
_AFTER = " AND e.sort_key <= %s AND NOT (e.sort_key = %s AND e.user_id <= %s)"
_BEFORE = " AND e.sort_key >= %s AND NOT (e.sort_key = %s AND e.user_id >= %s)"
_ORDER = " ORDER BY e.sort_key DESC, e.user_id ASC LIMIT %s"
_REVERSED = " ORDER BY e.sort_key ASC, e.user_id DESC LIMIT %s"


def _rows(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _moment(value) -> dt.datetime:
    if isinstance(value, str):  # SQLite through a raw cursor
        value = parse_datetime(value)
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def _entry(row: tuple, rank: int) -> RankedEntry:
    user_id, score, moves, duration_ms, achieved_at, submission_id, code, sort_key, display_name, username = (
        row
    )
    return RankedEntry(
        rank=rank, user_id=user_id, name=public_name_of(display_name=display_name, username=username),
        score=score, moves=moves,
        duration_ms=duration_ms, achieved_at=_moment(achieved_at), submission_id=submission_id, code=code,
        sort_key=sort_key,
    )  # fmt: skip


def _cursor_of(row: tuple) -> Cursor:
    return Cursor(row[7], row[0])


def _count_sql(board: str) -> int:
    """Entries on the board. A COUNT is linear (≈0.1 s at 1M rows), so it is kept as briefly
    as a hot page (LEADERBOARD_HOT_PAGE_SECONDS)."""
    return hot_page(
        f"count {board}", lambda: _rows(f"SELECT COUNT(*) FROM {_ENTRY} WHERE board = %s", [board])[0][0]
    )


def _rank_sql(board: str, cursor: Cursor) -> int:
    """1 + entries ahead of `cursor`: a COUNT, linear in the rank (fine as the fallback)."""
    sql = f"SELECT COUNT(*) FROM {_ENTRY} e WHERE e.board = %s{_BEFORE}"
    return 1 + _rows(sql, [board, cursor.sort_key, cursor.sort_key, cursor.user_id])[0][0]


def _after_sql(board: str, cursor: Cursor, limit: int) -> list[tuple]:
    return _rows(_SELECT + _AFTER + _ORDER, [board, cursor.sort_key, cursor.sort_key, cursor.user_id, limit])


def _before_sql(board: str, cursor: Cursor, limit: int) -> list[tuple]:
    rows = _rows(
        _SELECT + _BEFORE + _REVERSED, [board, cursor.sort_key, cursor.sort_key, cursor.user_id, limit]
    )
    return rows[::-1]


def _page_sql(board: str, *, after: Cursor | None, before: Cursor | None, limit: int) -> BoardPage:
    if before is not None:
        found = _before_sql(board, before, limit)
    elif after is not None:
        found = _after_sql(board, after, limit)
    else:
        found = _rows(_SELECT + _ORDER, [board, limit])
    count = _count_sql(board)
    if not found:
        return BoardPage(count, [], has_next=False, has_previous=count > 0 and after is not None)
    first_rank = 1 if after is None and before is None else _rank_sql(board, _cursor_of(found[0]))
    entries = [_entry(row, first_rank + index) for index, row in enumerate(found)]
    return BoardPage(count, entries, has_next=entries[-1].rank < count, has_previous=first_rank > 1)


def _own_sql(board: str, user_id: int) -> tuple | None:
    found = _rows(_SELECT + " AND e.user_id = %s", [board, user_id])
    return found[0] if found else None


def _around_sql(board: str, *, user_id: int, span: int) -> BoardPage | None:
    own = _own_sql(board, user_id)
    if own is None:
        return None
    cursor = _cursor_of(own)
    above = _before_sql(board, cursor, span)
    below = _after_sql(board, cursor, span)
    first_rank = _rank_sql(board, cursor) - len(above)
    entries = [_entry(row, first_rank + index) for index, row in enumerate([*above, own, *below])]
    count = _count_sql(board)
    return BoardPage(count, entries, has_next=entries[-1].rank < count, has_previous=first_rank > 1)


def entry_rank_sql(*, board: str, user_id: int) -> int | None:
    """The player's rank on a board, by SQL."""
    own = _rows(f"SELECT sort_key FROM {_ENTRY} WHERE board = %s AND user_id = %s", [board, user_id])
    return None if not own else _rank_sql(board, Cursor(own[0][0], user_id))


def _entry_keys_sql(entries: set[tuple[str, int]], *, ranked: bool) -> dict[tuple[str, int], tuple]:
    """(sort_key,) or (sort_key, rank) of each (board, user_id) that has an entry: one query."""
    boards, users = sorted({board for board, _ in entries}), sorted({user for _, user in entries})
    rank = (
        f", 1 + (SELECT COUNT(*) FROM {_ENTRY} e WHERE e.board = q.board"
        " AND e.sort_key >= q.sort_key AND NOT (e.sort_key = q.sort_key AND e.user_id >= q.user_id))"
    )
    marks = ", ".join(["%s"] * len(boards)), ", ".join(["%s"] * len(users))
    sql = (
        f"SELECT q.board, q.user_id, q.sort_key{rank if ranked else ''} FROM {_ENTRY} q "
        f"WHERE q.board IN ({marks[0]}) AND q.user_id IN ({marks[1]})"
    )
    found = {(row[0], row[1]): row[2:] for row in _rows(sql, [*boards, *users])}
    return {pair: values for pair, values in found.items() if pair in entries}


def entry_ranks(
    *, entries: set[tuple[str, int]], written: dict[tuple[str, int], int]
) -> dict[tuple[str, int], int]:
    """The ranks of players' entries, (board, user_id) → rank, inside the transaction that wrote them.

    `written` are the entries (→ sort key) this transaction wrote. From Redis (O(log N) each,
    with the written entries counted as if they were there) for boards whose key is built,
    else by SQL counts (linear in the rank). Both see the results committed before; Redis may
    miss the last milliseconds' ones, still on their way to it. Entries not found are left out.
    """
    if not entries:
        return {}
    index = board_index()
    if index is None:
        return {pair: values[1] for pair, values in _entry_keys_sql(entries, ranked=True).items()}
    keys = {pair: values[0] for pair, values in _entry_keys_sql(entries, ranked=False).items()}
    queries: dict[str, list[IndexItem]] = {}
    for (board, user_id), key in keys.items():
        queries.setdefault(board, []).append(IndexItem(user_id, key))
    wrote: dict[str, list[IndexItem]] = {}
    for (board, user_id), key in written.items():
        wrote.setdefault(board, []).append(IndexItem(user_id, key))
    try:
        ahead = index.entries_ahead(queries, written=wrote)
    except INDEX_ERRORS as error:
        index_failed(error)
        ahead = dict.fromkeys(queries)
    ranks = {}
    for board, items in queries.items():
        if ahead[board] is not None:
            ranks.update({(board, item.user_id): 1 + n for item, n in zip(items, ahead[board], strict=True)})
    missing = {pair for pair in keys if pair not in ranks}
    if missing:
        ranks.update({pair: values[1] for pair, values in _entry_keys_sql(missing, ranked=True).items()})
    return ranks


# --- Redis ------------------------------------------------------------------------------------------


def _page_from_slice(board: str, found: IndexSlice, *, names: dict[int, str] | None = None) -> BoardPage:
    """Entries of the slice with ranks and details from Redis, the players' names as given, or
    kept beside the boards, or from PostgreSQL (by primary key; leaderboard.players). Details
    missing in Redis (a key built before they were kept there) come from the entries' rows
    instead; a player gone from PostgreSQL is a removal on its way to Redis."""
    kept = [item for item in found.items if item.details is not None]
    names = dict(names or {})
    names.update(player_names([item.user_id for item in kept if item.user_id not in names]))
    rows = {}
    if len(kept) < len(found.items):
        missing = [item.user_id for item in found.items if item.details is None]
        marks = ", ".join(["%s"] * len(missing))
        rows = {row[0]: row for row in _rows(_SELECT + f" AND e.user_id IN ({marks})", [board, *missing])}
    entries = []
    for rank, item in enumerate(found.items, start=found.offset + 1):
        if item.details is not None and item.user_id in names:
            entries.append(_entry_of_item(item, names[item.user_id], rank))
        elif item.user_id in rows:
            entries.append(_entry(rows[item.user_id], rank))
    last = found.offset + len(found.items)
    return BoardPage(
        found.count, entries, has_next=last < found.count, has_previous=found.offset > 0, source="redis"
    )


def _entry_of_item(item: IndexItem, name: str, rank: int) -> RankedEntry:
    score, seconds = sort_key_parts(item.sort_key)
    details = item.details
    return RankedEntry(
        rank=rank, user_id=item.user_id, name=name, score=score, moves=details.moves,
        duration_ms=details.duration_ms, achieved_at=dt.datetime.fromtimestamp(seconds, dt.UTC),
        submission_id=details.submission_id, code=details.code, sort_key=item.sort_key,
    )  # fmt: skip


def _page_redis(
    index: BoardIndex, board: str, *, after: Cursor | None, before: Cursor | None, limit: int
) -> BoardPage | None:
    cursor = before or after
    mode = "before" if before else "after" if after else "first"
    found = index.page(
        board,
        mode=mode,
        sort_key=cursor.sort_key if cursor else 0,
        user_id=cursor.user_id if cursor else 0,
        limit=limit,
    )
    if found is None:
        return None
    page = _page_from_slice(board, found)
    if not found.items and after is not None:
        return BoardPage(found.count, [], has_next=False, has_previous=found.count > 0, source="redis")
    return page


# --- Public -------------------------------------------------------------------------------------------


def leaderboard_page(
    *, board: str, after: Cursor | None = None, before: Cursor | None = None, page_size: int = 50
) -> BoardPage:
    """A page of a board: the first, or the one right after / before a cursor (keyset)."""
    page = index_read(
        lambda index: _page_redis(index, board, after=after, before=before, limit=page_size), board=board
    )
    return page if page is not None else _page_sql(board, after=after, before=before, limit=page_size)


def leaderboard_around(*, board: str, user_id: int, span: int = 10) -> BoardPage | None:
    """The player's entry with up to `span` entries above and below, or None without an entry."""

    def read(index: BoardIndex):
        found = index_around(index, board, span=span, user_id=user_id)
        return None if found is None else (_around_page(board, found),)

    answer = index_read(read, board=board)
    return answer[0] if answer is not None else _around_sql(board, user_id=user_id, span=span)


class UnknownPlayer(LookupError):
    """No active player is named so."""


def leaderboard_around_player(*, board: str, name: str, span: int = 10) -> BoardPage | None:
    """Around the player the boards show as `name` (leaderboard.players.player_id_by_name): the
    same as `leaderboard_around` for that player; raises UnknownPlayer for an unknown name."""

    def player_id() -> int:
        user_id = player_id_by_name(name)
        if user_id is None:
            raise UnknownPlayer(name)
        return user_id

    def read(index: BoardIndex):
        found = index_around(index, board, span=span, name=name)
        if found == NAME_NOT_KEPT:  # then Redis keeps it (player_id_by_name)
            found = index_around(index, board, span=span, user_id=player_id())
        return None if found is None else (_around_page(board, found),)

    answer = index_read(read, board=board)
    return answer[0] if answer is not None else _around_sql(board, user_id=player_id(), span=span)


def _around_page(board: str, found: AroundSlice) -> BoardPage | None:
    return None if found.rank is None else _page_from_slice(board, found.slice, names=found.names)


def leaderboard_rank(*, board: str, user_id: int) -> int | None:
    """The player's rank on a board (1 is first), or None without an entry."""

    def read(index: BoardIndex):
        answer = index.rank(board, user_id=user_id)
        return None if answer is None else (None if answer < 0 else answer + 1,)

    answer = index_read(read, board=board)
    return answer[0] if answer is not None else entry_rank_sql(board=board, user_id=user_id)


def leaderboard_place(*, board: str, user_id: int) -> tuple[int | None, int]:
    """The player's rank on a board (None without an entry) and the entries on it, read together."""

    def read(index: BoardIndex):
        return index.place(board, user_id=user_id)

    answer = index_read(read, board=board)
    if answer is not None:
        rank, count = answer
        return (None if rank < 0 else rank + 1), count
    return entry_rank_sql(board=board, user_id=user_id), _count_sql(board)


def board_sizes(*, boards: set[str], written: Iterable[tuple[str, int]] = ()) -> dict[str, int]:
    """Entries on each board, inside the transaction that wrote the entries `written` (board,
    user_id): from Redis where the key is built (counting the written ones as if they were there),
    else by an SQL count, which sees them."""
    sizes: dict[str, int | None] = dict.fromkeys(boards)
    index = board_index()
    if index is not None and boards:
        by_board: dict[str, list[int]] = {}
        for board, user_id in written:
            by_board.setdefault(board, []).append(user_id)
        try:
            sizes.update(index.sizes(sorted(boards), written=by_board))
        except INDEX_ERRORS as error:
            index_failed(error)
    missing = [board for board, size in sizes.items() if size is None]
    if missing:
        counts = BoardEntry.objects.filter(board__in=missing).values("board").annotate(entries=Count("id"))
        sizes.update({row["board"]: row["entries"] for row in counts})
    return {board: size or 0 for board, size in sizes.items()}


# --- A player's own results --------------------------------------------------------------------------


def player_best_results(*, user) -> dict[str, Submission | None]:
    """Per rule set, the player's best counted ranked win, as one result (its score, moves, code,
    time and replay belong together): the highest score, on equal scores the earliest; None
    before the first. The same results as the summary's `best_score`."""
    wins = Submission.objects.filter(
        user=user,
        ranked=True,
        status=Submission.Status.VERIFIED,
        voided=False,
        won=True,
        assisted=False,
    ).exclude(game__contest__gt="")  # a race's win counts on the races' rating only
    best_first = ("-score", "received_at", "pk")
    return {rules: wins.filter(rules=rules).order_by(*best_first).first() for rules in RULES}
