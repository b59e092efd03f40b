"""Celery tasks of the leaderboard: they take names, call a service, and are safe to run twice."""

from __future__ import annotations

import datetime as dt
import logging

from celery import shared_task

from leaderboard.index.wiring import BOARD_REBUILD, board_index, index_board_rebuild
from leaderboard.models import BoardRepair
from leaderboard.seasons import seasons_snapshot

logger = logging.getLogger(__name__)


@shared_task(name=BOARD_REBUILD)
def board_rebuild(board: str, lock_token: str | None = None) -> int | None:
    """Rebuild one board's Redis key from PostgreSQL (started by a read that found it missing)."""
    loaded = index_board_rebuild(board=board, lock_token=lock_token)
    logger.info("board rebuilt", extra={"board": board, "entries": loaded})
    return loaded


@shared_task(name="leaderboard.boards_repair")
def boards_repair() -> int:
    """Rebuild the boards whose Redis writes failed, once Redis answers again."""
    index = board_index()
    if index is None:
        return 0
    repaired = 0
    for repair in BoardRepair.objects.order_by("noted_at"):
        noted_at = repair.noted_at
        if index.exists(repair.board) and index_board_rebuild(board=repair.board) is None:
            continue  # another rebuild holds it: next time
        # A failure noted during the rebuild keeps its row (noted_at moved on).
        BoardRepair.objects.filter(pk=repair.pk, noted_at=noted_at).delete()
        repaired += 1
    return repaired


@shared_task(name="leaderboard.seasons_snapshot")
def seasons_snapshot_task() -> list[str]:
    """Keep the final standing of every season that has ended and has no snapshot yet."""
    return [snapshot.board for snapshot in seasons_snapshot(now=dt.datetime.now(dt.UTC))]
