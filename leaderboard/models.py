"""Leaderboard rows: one best entry per (board, player), seasons' standings.
(The daily deals are daily/'s; the review queue's ReplayFlag is games'.)

PostgreSQL is the record; the Redis sorted sets (leaderboard/index/sorted_sets.py) are only an index of
these rows and can always be rebuilt from them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import CODE_LENGTH

# A board's key: `deal:<code>` is the longest (5 + a YU2 code's 52 characters).
BOARD_LENGTH = 64


class BoardEntry(models.Model):
    """A player's best result on one board: always one real game (the submission)."""

    board = models.CharField(max_length=BOARD_LENGTH)  # see leaderboard/boards.py
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="board_entries")
    submission = models.ForeignKey("games.Submission", on_delete=models.CASCADE, related_name="board_entries")
    code = models.CharField(max_length=CODE_LENGTH)  # the submission's deal, kept for pages (never changes)
    score = models.PositiveIntegerField()
    moves = models.PositiveIntegerField()
    duration_ms = models.PositiveBigIntegerField()
    achieved_at = models.DateTimeField()  # the server's receipt time, truncated to the second
    # score × 10^10 + (9,999,999,999 − epoch seconds): higher is better; the Redis score too.
    sort_key = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["board", "user"], name="one_entry_per_player_and_board")
        ]
        indexes = [
            # Keyset pages and ranks: (board, sort_key DESC, user_id ASC) is the board's order.
            models.Index(fields=["board", "-sort_key", "user"], name="board_order"),
        ]
        verbose_name_plural = "board entries"

    def __str__(self) -> str:
        return f"{self.board}: user {self.user_id} {self.score}"


class LogFingerprint(models.Model):
    """The digest of a winning log, to find identical logs on the same deal at once."""

    submission = models.OneToOneField("games.Submission", on_delete=models.CASCADE, related_name="+")
    code = models.CharField(max_length=CODE_LENGTH)
    digest = models.CharField(max_length=64)  # sha256 of the log's tokens joined by one space
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        indexes = [models.Index(fields=["code", "digest"], name="same_log_on_deal")]

    def __str__(self) -> str:
        return f"{self.code} {self.digest[:12]}"


class BoardRepair(models.Model):
    """A board whose Redis index missed a write (Redis was unreachable): rebuilt by a sweeper."""

    board = models.CharField(max_length=BOARD_LENGTH, unique=True)
    noted_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.board


class SeasonSnapshot(models.Model):
    """The final standing of one season board (``classic:season:2026-11``), kept once it ended.

    Taken once (leaderboard/seasons.py) and never rewritten: a result that enters the season's
    board afterwards (verified late) is not in it. Places are computed on read."""

    board = models.CharField(max_length=BOARD_LENGTH, unique=True)  # a season board's key
    taken_at = models.DateTimeField()
    entries = models.PositiveIntegerField()  # the board's entries when it was taken

    class Meta:
        ordering = ["-board"]

    def __str__(self) -> str:
        return f"{self.board}: {self.entries} entries"


class SeasonStanding(models.Model):
    """A player's entry on a season board as it stood when the season's snapshot was taken."""

    snapshot = models.ForeignKey(SeasonSnapshot, on_delete=models.CASCADE, related_name="standings")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="season_standings"
    )
    submission = models.ForeignKey("games.Submission", on_delete=models.CASCADE, related_name="+")
    score = models.PositiveIntegerField()
    achieved_at = models.DateTimeField()
    sort_key = models.BigIntegerField()  # as on the board (leaderboard/boards.py): higher is better

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["snapshot", "user"], name="one_standing_per_player_and_season")
        ]
        indexes = [models.Index(fields=["snapshot", "-sort_key", "user"], name="season_order")]

    def __str__(self) -> str:
        return f"{self.snapshot.board}: user {self.user_id} {self.score}"
