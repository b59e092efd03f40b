"""Board keys, periods and the sort key shared by PostgreSQL and Redis.

A board key names one ranking:

- ``classic:all``, ``classic:season:2026-11`` (a season: a UTC calendar month),
  ``classic:week:2026-W48`` (ISO week, UTC), ``classic:day:2026-11-29`` (UTC): the global boards
  of a rule set (``classic`` or ``relaxed``): hidden-card games only, whose face-down cards no
  player knew before a move turned them up (docs/security.md);
- ``open:classic:all``, ``open:classic:season:2026-11``, ``open:classic:week:2026-W48``,
  ``open:classic:day:2026-11-29``: the open-deal boards of a rule set: wins of deals whose cards
  were all known before the game, i.e. ranked games issued with their code and results submitted
  by code (typed, shared, offline);
- ``daily:classic:day:2026-12-02``: the daily deal of a rule set and UTC day, played as a
  hidden-card game (one game a player), closed when the day ends;
- ``deal:YU1-C-AAAAAAB``: every verified, non-assisted win on one deal.

A counted win enters the four period boards of its kind (``DEALS``: hidden or open) and its
deal's board (`boards_for_result`); a daily-deal game's win only its day's daily board, and only
when received that day (its deal's board would name the code).

Order on every board: higher score first; on equal scores the earlier second first; then the
lower user id. ``sort_key`` folds the first two into one integer that fits a double exactly.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from games.engine import GameCode, InvalidCodeError

RULES = ("classic", "relaxed")
PERIODS = ("all", "season", "week", "day")
DEALS = ("hidden", "open")  # the wins a period board ranks: hidden-card games, or open deals
OPEN_PREFIX = "open"
DAILY_PREFIX = "daily"  # before a day board's key: that day's daily deal

MAX_EPOCH_SECONDS = 9_999_999_999  # year 2286
SCORE_FACTOR = 10**10  # sort_key = score × 10^10 + (MAX_EPOCH_SECONDS − epoch seconds) < 2^53
MAX_SCORE = 99_999

_WEEK_KEY = re.compile(r"(\d{4})-W(\d{2})\Z")
_SEASON_KEY = re.compile(r"(\d{4})-(\d{2})\Z")


class BoardKeyError(ValueError):
    """A board, period or period key that does not exist; the message is for the caller."""


def sort_key(*, score: int, achieved_at: dt.datetime) -> int:
    """One integer ordering entries like the boards do (ties on it: lower user id first)."""
    return sort_key_of(score, int(achieved_at.timestamp()))


def sort_key_of(score: int, seconds: int) -> int:
    """`sort_key` of a time in epoch seconds."""
    if not 0 <= score <= MAX_SCORE or not 0 <= seconds <= MAX_EPOCH_SECONDS:
        raise ValueError(f"score {score} or time {seconds} out of range for a sort key")
    return score * SCORE_FACTOR + (MAX_EPOCH_SECONDS - seconds)


def sort_key_parts(key: int) -> tuple[int, int]:
    """(score, epoch seconds) back from a sort key."""
    score, rest = divmod(int(key), SCORE_FACTOR)
    return score, MAX_EPOCH_SECONDS - rest


def truncate_to_second(moment: dt.datetime) -> dt.datetime:
    return moment.astimezone(dt.UTC).replace(microsecond=0)


def week_key(moment: dt.datetime | dt.date) -> str:
    day = moment.astimezone(dt.UTC).date() if isinstance(moment, dt.datetime) else moment
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def season_key(moment: dt.datetime | dt.date) -> str:
    """The season (UTC calendar month) of a moment: ``2026-11``."""
    day = moment.astimezone(dt.UTC).date() if isinstance(moment, dt.datetime) else moment
    return f"{day.year:04d}-{day.month:02d}"


def season_bounds(key: str) -> tuple[dt.datetime, dt.datetime]:
    """When a season starts and ends (UTC): its month's first midnight and the next month's."""
    year, month = (int(part) for part in key.split("-"))
    start = dt.datetime(year, month, 1, tzinfo=dt.UTC)
    return start, dt.datetime(year + month // 12, month % 12 + 1, 1, tzinfo=dt.UTC)


def day_key(moment: dt.datetime | dt.date) -> str:
    day = moment.astimezone(dt.UTC).date() if isinstance(moment, dt.datetime) else moment
    return day.isoformat()


def global_board(rules: str, period: str, key: str = "", *, deals: str = "hidden") -> str:
    """The board of a rule set and period: of hidden-card games, or (deals="open") of open deals."""
    if deals not in DEALS:
        raise ValueError(f"unknown deals {deals!r}: use hidden or open")
    board = f"{rules}:all" if period == "all" else f"{rules}:{period}:{key}"
    return board if deals == "hidden" else f"{OPEN_PREFIX}:{board}"


def deal_board(code: str) -> str:
    return f"deal:{code}"


def daily_board(rules: str, day: dt.date | str) -> str:
    """The board of the daily deal of `rules` on a UTC day."""
    key = day if isinstance(day, str) else day.isoformat()
    return f"{DAILY_PREFIX}:{global_board(rules, 'day', key)}"


def current_boards(*, rules: str, now: dt.datetime, deals: str = "hidden") -> dict[str, str]:
    """The period boards of `rules` that `now` falls in: period → board key."""
    return {
        "all": global_board(rules, "all", deals=deals),
        "season": global_board(rules, "season", season_key(now), deals=deals),
        "week": global_board(rules, "week", week_key(now), deals=deals),
        "day": global_board(rules, "day", day_key(now), deals=deals),
    }


def boards_for_result(
    *, rules: str, code: str, hidden: bool, received_at: dt.datetime, daily_date: dt.date | None = None
) -> list[str]:
    """Every board a verified, won, non-assisted result enters: a hidden-card game's the global
    boards, any other (its code known to its player) the open-deal boards; both their deal's.
    A daily-deal game's (`daily_date`): its day's daily board if received that day, else none."""
    if daily_date is not None:
        return [daily_board(rules, daily_date)] if day_key(received_at) == daily_date.isoformat() else []
    deals = "hidden" if hidden else "open"
    return [*current_boards(rules=rules, now=received_at, deals=deals).values(), deal_board(code)]


def open_board_of(board: str) -> str:
    """The open-deal board of the same rule set and period as a global board (others unchanged)."""
    return f"{OPEN_PREFIX}:{board}" if board.split(":")[0] in RULES else board


def parse_period_key(period: str, key: str | None, *, now: dt.datetime) -> str:
    """The period key for `period`: `key` checked, or the current one when `key` is empty."""
    if period == "all":
        if key:
            raise BoardKeyError("period=all takes no key")
        return ""
    if period == "week":
        if not key:
            return week_key(now)
        match = _WEEK_KEY.match(key)
        try:
            if not match:
                raise ValueError
            dt.date.fromisocalendar(int(match[1]), int(match[2]), 1)
        except ValueError:
            raise BoardKeyError(f"{key!r} is not an ISO week: write it like 2026-W48") from None
        return key
    if period == "season":
        if not key:
            return season_key(now)
        try:
            if not _SEASON_KEY.match(key):
                raise ValueError
            season_bounds(key)  # a real month whose end is a real date
        except ValueError:
            raise BoardKeyError(f"{key!r} is not a month: write it like 2026-11") from None
        return key
    if period == "day":
        if not key:
            return day_key(now)
        try:
            if len(key) != 10:
                raise ValueError
            return dt.date.fromisoformat(key).isoformat()
        except ValueError:
            raise BoardKeyError(f"{key!r} is not a day: write it like 2026-11-29") from None
    raise BoardKeyError(f"unknown period {period!r}: use all, season, week or day")


def parse_rules(rules: str | None) -> str:
    if rules not in RULES:
        raise BoardKeyError(f"unknown rules {rules!r}: use classic or relaxed")
    return rules


def parse_code(code: str) -> GameCode:
    try:
        return GameCode.parse(code)
    except InvalidCodeError as error:
        raise BoardKeyError(str(error)) from None


@dataclass(frozen=True)
class BoardPeriod:
    """What a board key says about itself: its kind and, for a period board, when it ends."""

    kind: str  # "all", "season", "week", "day" or "deal"
    ends_at: dt.datetime | None  # the end of a season, week or day board (UTC), else None


def _without_kind(board: str) -> str:
    """A board key without its kind (open deals, a daily deal): the period board's shape."""
    for prefix in (f"{OPEN_PREFIX}:", f"{DAILY_PREFIX}:"):
        if board.startswith(prefix):
            return board[len(prefix) :]
    return board


def board_period(board: str) -> BoardPeriod:
    parts = _without_kind(board).split(":")
    if parts[0] == "deal":
        return BoardPeriod("deal", None)
    if len(parts) == 2:
        return BoardPeriod("all", None)
    midnight = dt.time(tzinfo=dt.UTC)
    if parts[1] == "day":
        day = dt.date.fromisoformat(parts[2])
        return BoardPeriod("day", dt.datetime.combine(day + dt.timedelta(days=1), midnight))
    if parts[1] == "season":
        return BoardPeriod("season", season_bounds(parts[2])[1])
    match = _WEEK_KEY.match(parts[2])
    monday = dt.date.fromisocalendar(int(match[1]), int(match[2]), 1)
    return BoardPeriod("week", dt.datetime.combine(monday + dt.timedelta(days=7), midnight))


def is_board_key(board: str) -> bool:
    """True for a well-formed board key (used by the rebuild command)."""
    opened = _without_kind(board)
    parts = opened.split(":")
    try:
        if parts[0] == "deal" and len(parts) == 2:  # a deal board has no open kind
            return opened == board and str(GameCode.parse(parts[1])) == parts[1]
        if board.startswith(f"{DAILY_PREFIX}:") and parts[1:2] != ["day"]:  # a day's only
            return False
        if parts[0] in RULES and len(parts) == 2:
            return parts[1] == "all"
        if parts[0] in RULES and len(parts) == 3 and parts[1] in ("season", "week", "day"):
            return parse_period_key(parts[1], parts[2], now=dt.datetime.now(dt.UTC)) == parts[2]
    except (InvalidCodeError, BoardKeyError):
        return False
    return False
