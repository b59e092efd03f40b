"""Reads of the boards: pages, around-me and ranks, from Redis when it can answer, else SQL.

Both paths order a board by (sort_key DESC, user_id ASC) and return the same pages, ties
included. Ranks are exact positions: 1 + the number of entries ahead.
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from leaderboard.index import IndexSlice, RedisBoardIndex
from leaderboard.indexing import index_read
from leaderboard.models import BoardEntry, DailyDeal

ORDER = ("-sort_key", "user_id")
REVERSED = ("sort_key", "-user_id")


@dataclass(frozen=True)
class Cursor:
    """A position on a board: the entry (sort_key, user_id); pages go after or before it."""

    sort_key: int
    user_id: int


@dataclass(frozen=True)
class RankedEntry:
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


def _name_fields() -> tuple[str, ...]:
    names = {field.name for field in get_user_model()._meta.get_fields()}
    return ("user__display_name", "user__username") if "display_name" in names else ("user__username",)


def _entry_values(board: str) -> QuerySet:
    return BoardEntry.objects.filter(board=board).values(
        "user_id",
        "score",
        "moves",
        "duration_ms",
        "achieved_at",
        "submission_id",
        "submission__code",
        "sort_key",
        *_name_fields(),
    )


def _entry(row: dict, rank: int) -> RankedEntry:
    return RankedEntry(
        rank=rank,
        user_id=row["user_id"],
        name=row.get("user__display_name") or row["user__username"],
        score=row["score"],
        moves=row["moves"],
        duration_ms=row["duration_ms"],
        achieved_at=row["achieved_at"],
        submission_id=row["submission_id"],
        code=row["submission__code"],
        sort_key=row["sort_key"],
    )


def _after(cursor: Cursor) -> Q:
    # Written as a range plus a small exclusion, so PostgreSQL scans the board_order index from the cursor.
    return Q(sort_key__lte=cursor.sort_key) & ~Q(sort_key=cursor.sort_key, user_id__lte=cursor.user_id)


def _before(cursor: Cursor) -> Q:
    return Q(sort_key__gte=cursor.sort_key) & ~Q(sort_key=cursor.sort_key, user_id__gte=cursor.user_id)


# --- SQL ------------------------------------------------------------------------------------------


def _rank_sql(board: str, cursor: Cursor) -> int:
    """1 + entries ahead of `cursor`: a COUNT, linear in the rank (fine as the fallback)."""
    return 1 + BoardEntry.objects.filter(_before(cursor), board=board).count()


def _page_sql(board: str, *, after: Cursor | None, before: Cursor | None, limit: int) -> BoardPage:
    rows = _entry_values(board)
    if before is not None:
        found = list(rows.filter(_before(before)).order_by(*REVERSED)[:limit])[::-1]
    elif after is not None:
        found = list(rows.filter(_after(after)).order_by(*ORDER)[:limit])
    else:
        found = list(rows.order_by(*ORDER)[:limit])
    count = BoardEntry.objects.filter(board=board).count()
    if not found:
        return BoardPage(count, [], has_next=False, has_previous=count > 0 and after is not None)
    first_rank = (
        1
        if after is None and before is None
        else _rank_sql(board, Cursor(found[0]["sort_key"], found[0]["user_id"]))
    )
    entries = [_entry(row, first_rank + index) for index, row in enumerate(found)]
    return BoardPage(count, entries, has_next=entries[-1].rank < count, has_previous=first_rank > 1)


def _around_sql(board: str, *, user_id: int, span: int) -> BoardPage | None:
    rows = _entry_values(board)
    own = rows.filter(user_id=user_id).first()
    if own is None:
        return None
    cursor = Cursor(own["sort_key"], user_id)
    above = list(rows.filter(_before(cursor)).order_by(*REVERSED)[:span])[::-1]
    below = list(rows.filter(_after(cursor)).order_by(*ORDER)[:span])
    first_rank = _rank_sql(board, cursor) - len(above)
    entries = [_entry(row, first_rank + index) for index, row in enumerate([*above, own, *below])]
    count = BoardEntry.objects.filter(board=board).count()
    return BoardPage(count, entries, has_next=entries[-1].rank < count, has_previous=first_rank > 1)


def entry_rank_sql(*, board: str, user_id: int) -> int | None:
    """The player's rank on a board, by SQL (used inside transactions, where Redis lags)."""
    own = BoardEntry.objects.filter(board=board, user_id=user_id).values_list("sort_key", flat=True).first()
    return None if own is None else _rank_sql(board, Cursor(own, user_id))


# --- Redis ------------------------------------------------------------------------------------------


def _page_from_slice(board: str, found: IndexSlice) -> BoardPage:
    """Entries for the slice's users from PostgreSQL (one real game each), ranks from Redis."""
    rows = {
        row["user_id"]: row
        for row in _entry_values(board).filter(user_id__in=[i.user_id for i in found.items])
    }
    entries = [
        _entry(rows[item.user_id], found.offset + index + 1)
        for index, item in enumerate(found.items)
        if item.user_id in rows  # a removal still on its way to Redis
    ]
    last = found.offset + len(found.items)
    return BoardPage(
        found.count, entries, has_next=last < found.count, has_previous=found.offset > 0, source="redis"
    )


def _page_redis(
    index: RedisBoardIndex, board: str, *, after: Cursor | None, before: Cursor | None, limit: int
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

    def read(index: RedisBoardIndex):
        answer = index.around(board, user_id=user_id, span=span)
        if answer is None:
            return None
        rank, found = answer
        return (_page_from_slice(board, found),) if rank is not None else (None,)

    answer = index_read(read, board=board)
    return answer[0] if answer is not None else _around_sql(board, user_id=user_id, span=span)


def leaderboard_rank(*, board: str, user_id: int) -> int | None:
    """The player's rank on a board (1 is first), or None without an entry."""

    def read(index: RedisBoardIndex):
        answer = index.rank(board, user_id=user_id)
        return None if answer is None else (None if answer[0] is None else answer[0] + 1,)

    answer = index_read(read, board=board)
    return answer[0] if answer is not None else entry_rank_sql(board=board, user_id=user_id)


# --- Daily deals and hidden replays -----------------------------------------------------------------

_hidden_codes: tuple[float, dt.date, frozenset[str]] | None = None
HIDDEN_CODES_SECONDS = 10.0


def daily_deal_cache_clear() -> None:
    global _hidden_codes
    _hidden_codes = None


def hidden_replay_codes(*, today: dt.date) -> frozenset[str]:
    """Codes whose replays stay hidden: daily deals of today and of days already picked ahead."""
    global _hidden_codes
    now = time.monotonic()
    if _hidden_codes is None or _hidden_codes[0] < now or _hidden_codes[1] != today:
        codes = frozenset(DailyDeal.objects.filter(date__gte=today).values_list("code", flat=True))
        _hidden_codes = (now + HIDDEN_CODES_SECONDS, today, codes)
    return _hidden_codes[2]


def replay_hidden_until(*, code: str, now: dt.datetime) -> dt.datetime | None:
    """The end of the last daily-deal day of `code` not yet over, or None if its replays are public."""
    today = now.astimezone(dt.UTC).date()
    if code not in hidden_replay_codes(today=today):
        return None
    last = (
        DailyDeal.objects.filter(code=code, date__gte=today)
        .order_by("-date")
        .values_list("date", flat=True)
        .first()
    )
    if last is None:
        return None
    return dt.datetime.combine(last + dt.timedelta(days=1), dt.time(tzinfo=dt.UTC))


def daily_deals_for(*, date: dt.date) -> list[DailyDeal]:
    return list(DailyDeal.objects.filter(date=date).order_by("rules"))
