"""Seasons: a UTC calendar month's boards (``classic:season:2026-11``) and their final standings.

A season board fills like a week's (leaderboard/boards.py). Once the season has ended and
`LEADERBOARD_SEASON_SETTLE_SECONDS` have passed (for the results received before the end to be
verified), its entries are copied once into a `SeasonSnapshot`: the final standing. Nothing
rewrites a snapshot; a result verified after it was taken still enters the live season board
(as a late result enters a past week's), never the snapshot.

Places are computed on read, in the boards' order (higher sort key first, then the lower user
id), over the standings that still count: a player since deleted, suspended or deactivated, or
a result since voided or withheld, leaves the standing, and the places below close up.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Q

from leaderboard.boards import DEALS, RULES, board_period, global_board, season_key
from leaderboard.models import BoardEntry, SeasonSnapshot, SeasonStanding

logger = logging.getLogger(__name__)

SEASON_LOOKBACK_MONTHS = 12  # how far back the periodic task looks for seasons left unsnapshotted


def season_closes_at(board: str) -> dt.datetime:
    """When a season board's snapshot may be taken: its end plus the settling time."""
    period = board_period(board)
    if period.kind != "season":
        raise ValueError(f"{board!r} is not a season board")
    return period.ends_at + dt.timedelta(seconds=settings.LEADERBOARD_SEASON_SETTLE_SECONDS)


def season_snapshot_of(board: str) -> SeasonSnapshot | None:
    """The snapshot kept of a season board, if any."""
    return SeasonSnapshot.objects.filter(board=board).first()


def season_snapshot_take(*, board: str, now: dt.datetime) -> SeasonSnapshot | None:
    """The snapshot of a season board: the one kept, or taken now if the season is closed (ended
    and settled) and has entries; None otherwise. Safe to run twice or at once: one wins."""
    if now < season_closes_at(board):
        return None
    found = season_snapshot_of(board)
    if found is not None:
        return found
    if not BoardEntry.objects.filter(board=board).exists():
        return None  # an empty season keeps no snapshot
    standings = connection.ops.quote_name(SeasonStanding._meta.db_table)
    entries = connection.ops.quote_name(BoardEntry._meta.db_table)
    try:
        with transaction.atomic():
            snapshot = SeasonSnapshot.objects.create(board=board, taken_at=now, entries=0)
            with connection.cursor() as cursor:
                # One statement: one consistent view of the board.
                columns = "user_id, submission_id, score, achieved_at, sort_key"
                cursor.execute(
                    f"INSERT INTO {standings} (snapshot_id, {columns}) "
                    f"SELECT %s, {columns} FROM {entries} WHERE board = %s",
                    [snapshot.pk, board],
                )
                snapshot.entries = cursor.rowcount
            snapshot.save(update_fields=["entries"])
    except IntegrityError:  # taken meanwhile by another process
        return SeasonSnapshot.objects.get(board=board)
    logger.info("season snapshot taken", extra={"board": board, "entries": snapshot.entries})
    return snapshot


def season_boards(*, now: dt.datetime, months: int = SEASON_LOOKBACK_MONTHS) -> list[str]:
    """The season boards (global and open-deal, each rule set) of the `months` months before the
    current one, newest first."""
    boards = []
    year, month = now.astimezone(dt.UTC).year, now.astimezone(dt.UTC).month
    for _ in range(months):
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
        key = season_key(dt.date(year, month, 1))
        boards += [global_board(rules, "season", key, deals=deals) for rules in RULES for deals in DEALS]
    return boards


def seasons_snapshot(*, now: dt.datetime, months: int = SEASON_LOOKBACK_MONTHS) -> list[SeasonSnapshot]:
    """Take the snapshot of every closed season of the last `months` months that has entries and
    none yet (the periodic task); the snapshots taken now."""
    taken = []
    kept = set(SeasonSnapshot.objects.values_list("board", flat=True))
    for board in season_boards(now=now, months=months):
        if board in kept or now < season_closes_at(board):
            continue
        snapshot = season_snapshot_take(board=board, now=now)
        if snapshot is not None and snapshot.taken_at == now:
            taken.append(snapshot)
    return taken


def player_seasons_snapshot(*, user_id: int, now: dt.datetime) -> None:
    """Take the missing snapshots of the closed seasons the player has an entry on (a read of the
    player's figures does, should the periodic task be behind)."""
    boards = BoardEntry.objects.filter(user_id=user_id, board__contains=":season:").values_list(
        "board", flat=True
    )
    kept = set(SeasonSnapshot.objects.filter(board__in=list(boards)).values_list("board", flat=True))
    for board in sorted(set(boards) - kept):
        if now >= season_closes_at(board):
            season_snapshot_take(board=board, now=now)


def counted_standings(snapshot_id: int):
    """The standings of a snapshot that still count: players active and not suspended, results
    not voided nor withheld (a fair-play case holds them: games/reviews.py)."""
    return SeasonStanding.objects.filter(
        snapshot_id=snapshot_id,
        user__is_active=True,
        user__is_suspended=False,
        submission__voided=False,
        submission__withheld=False,
    )


@dataclass(frozen=True)
class SeasonPlace:
    board: str
    season: str  # "2026-11"
    place: int  # 1 is first
    of: int  # players in the final standing
    score: int


def season_place(*, standing: SeasonStanding) -> SeasonPlace | None:
    """A player's place in a season's final standing, computed now; None if it no longer counts."""
    counted = counted_standings(standing.snapshot_id)
    if not counted.filter(pk=standing.pk).exists():
        return None
    key, user_id = standing.sort_key, standing.user_id
    ahead = counted.filter(Q(sort_key__gt=key) | Q(sort_key=key, user_id__lt=user_id)).count()
    board = standing.snapshot.board
    return SeasonPlace(board, board.rsplit(":", 1)[1], 1 + ahead, counted.count(), standing.score)


def player_best_season(*, user, rules: str) -> SeasonPlace | None:
    """The player's best final standing on the global (hidden-card) season boards of `rules`: the
    best place; on equal places the season with more players, then the latest."""
    standings = SeasonStanding.objects.select_related("snapshot").filter(
        user=user, snapshot__board__startswith=f"{rules}:season:"
    )
    places = [place for standing in standings if (place := season_place(standing=standing)) is not None]
    return min(places, key=lambda p: (p.place, -p.of, _negated(p.season)), default=None)


def _negated(season: str) -> tuple[int, int]:
    year, month = season.split("-")
    return -int(year), -int(month)
