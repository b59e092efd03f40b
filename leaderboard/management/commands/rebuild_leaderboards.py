"""`python manage.py rebuild_leaderboards [--board KEY ...]`: rebuild Redis from PostgreSQL.

On the sorted sets (leaderboard.index.sorted_sets) each board is filled into a temporary key and swapped in
with RENAME, so readers never see a half-built board; boards split by score
(leaderboard.index.histogram.index, a Redis Cluster) are emptied and loaded again, read from SQL
meanwhile. Writes made during either are kept. Without --board: the all-time, this season's,
this week's and today's boards of each rule set (global and open-deal), and every board that
already has a key in Redis.
"""

from __future__ import annotations

import datetime as dt
import sys
import time

from django.core.management.base import BaseCommand, CommandError

from leaderboard.boards import DEALS, RULES, current_boards, daily_board, is_board_key
from leaderboard.index.wiring import board_index, index_board_rebuild, index_redis_url
from leaderboard.models import BoardEntry


class ProgressBar:
    """`[#####.....]  52%  520,000/1,000,000 classic:all` on one line, redrawn at most 10×/s."""

    def __init__(self, stream, *, label: str, total: int, width: int = 30) -> None:
        self.stream, self.label, self.total, self.width = stream, label, max(total, 1), width
        self._drawn_at = 0.0

    def __call__(self, done: int, *, final: bool = False) -> None:
        now = time.monotonic()
        if not final and now - self._drawn_at < 0.1:
            return
        self._drawn_at = now
        share = min(done / self.total, 1.0)
        filled = int(share * self.width)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {share:4.0%}  {done:,}/{self.total:,} {self.label}")
        if final:
            self.stream.write("\n")
        self.stream.flush()


class Command(BaseCommand):
    help = "Rebuild the Redis leaderboard index from PostgreSQL (LEADERBOARD_REDIS_URL, else REDIS_URL)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--board",
            action="append",
            default=[],
            metavar="KEY",
            help="a board key such as classic:all, relaxed:week:2026-W48, open:classic:all, "
            "deal:YU1-C-AAAAAAB (repeatable)",
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help="take over a board whose rebuild another process has claimed (e.g. a queued task)",
        )
        parser.add_argument(
            "--no-progress", action="store_true", help="print one line per board instead of a bar"
        )

    def handle(self, *args, **options) -> None:
        if not index_redis_url():
            raise CommandError(
                "Neither LEADERBOARD_REDIS_URL nor REDIS_URL is set: there is no Redis index to rebuild "
                "(SQL answers alone)."
            )
        index = board_index()
        if index is None:
            raise CommandError("Redis did not answer a moment ago; try again.")
        boards = options["board"] or self.default_boards(index)
        for board in boards:
            if not is_board_key(board):
                raise CommandError(f"{board!r} is not a board key (e.g. classic:all, classic:day:2026-11-29)")
        for board in boards:
            total = BoardEntry.objects.filter(board=board).count()
            bar = None if options["no_progress"] else ProgressBar(sys.stderr, label=board, total=total)
            started = time.monotonic()
            token = index.lock_take_over(board) if options["force"] else None
            loaded = index_board_rebuild(board=board, lock_token=token, progress=bar)
            if loaded is None:
                self.stderr.write(f"{board}: another rebuild has claimed it, skipped (--force takes over)")
                continue
            if bar:
                bar(loaded, final=True)
            self.stdout.write(f"{board}: {loaded:,} entries in {time.monotonic() - started:.1f}s")

    @staticmethod
    def default_boards(index) -> list[str]:
        now = dt.datetime.now(dt.UTC)
        boards = [
            board
            for deals in DEALS
            for rules in RULES
            for board in current_boards(rules=rules, now=now, deals=deals).values()
        ] + [daily_board(rules, now.date()) for rules in RULES]
        return boards + [board for board in index.built_boards() if board not in boards]
