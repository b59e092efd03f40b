"""Issued ranked games and submitted results.

A submission row is the record: it is stored before anything else happens, verified by a
Celery task replaying its log, and settled exactly once (pending → verified | rejected).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

# Room for every code a column holds: a YU1 code has 13 characters, a YU2 code 52 (CODE_MAX_LENGTH).
CODE_LENGTH = 64


class RulesChoice(models.TextChoices):
    CLASSIC = "classic", "Classic"
    RELAXED = "relaxed", "Relaxed"


class IssuedGame(models.Model):
    """A ranked deal drawn by the server for one player; it accepts exactly one submission."""

    class State(models.TextChoices):
        ISSUED = "issued", "Issued"
        FINISHED = "finished", "Finished"
        EXPIRED = "expired", "Expired"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="issued_games")
    # A hidden-card game's deal is a whole shuffle (YU2, games.issuing.dealing); a game issued with its
    # code, an open deal number (YU1). Hidden games issued before whole shuffles hold YU1 codes.
    code = models.CharField(max_length=CODE_LENGTH, db_index=True)  # deal_under_wraps reads by it
    rules = models.CharField(max_length=7, choices=RulesChoice.choices)
    issued_at = models.DateTimeField(db_index=True)
    state = models.CharField(max_length=8, choices=State.choices, default=State.ISSUED)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A hidden-card game (docs/security.md): issued without its code, its face-down cards told
    # one at a time (Reveal). Until it is finished, no answer names its code, deal number or secret.
    hidden = models.BooleanField(default=False)
    secret = models.CharField(max_length=64, blank=True)  # secrets.token_hex(32); hidden games only
    commitment = models.CharField(max_length=64, blank=True)  # sha256(f"{code}:{secret}"), hex
    # The log the server has replayed so far (to the last reveal) and the page's times at its tokens.
    recorded_log = models.TextField(blank=True, default="")
    recorded_times_ms = models.JSONField(default=list, blank=True)
    # A copy of its Reveal rows, written with each in one transaction, in the order of the log:
    # [{"column", "depth", "card", "prefix_length"}, …]. A reveal replays from the locked row alone.
    revealed = models.JSONField(default=list, blank=True)
    # The UTC day whose daily deal this hidden-card game is (one a player, rule set and day;
    # daily.services.daily_game_issue), else null. Its code stays unpublished until that
    # day is over, even once the game is finished (games.selectors.game_code_public).
    daily_date = models.DateField(null=True, blank=True)
    # A game of a contest between players on one deal ("race"; games.issuing.services.contest_games_issue):
    # taken up only through its contest, ranked by it alone, on no leaderboard board.
    contest = models.CharField(max_length=9, blank=True, default="")
    # Its code (and secret) stay unpublished even once it is finished, until the contest clears
    # this: a race publishes its deal when the whole race is over, not when one seat finishes.
    code_sealed = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["user", "state"])]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "rules", "daily_date"],
                condition=Q(daily_date__isnull=False),
                name="one_daily_game_per_player_rules_and_day",
            )
        ]

    def __str__(self) -> str:
        return f"{self.code} for user {self.user_id} ({self.state})"


class Reveal(models.Model):
    """A face-down card of a hidden-card game told to its player, when a move had turned it up."""

    game = models.ForeignKey(IssuedGame, on_delete=models.CASCADE, related_name="reveals")
    column = models.PositiveSmallIntegerField()  # 0–6, as in a move's destination
    depth = models.PositiveSmallIntegerField()  # from the bottom of the column, as dealt
    card = models.CharField(max_length=2)  # its name, like TD
    prefix_length = models.PositiveIntegerField()  # tokens of the log that turned it up
    page_time_ms = models.PositiveBigIntegerField()  # the page's clock at that log's last token
    received_at = models.DateTimeField()  # the server's clock when it was asked for

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "column", "depth"], name="reveal_unique_place"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id}: column index {self.column}, depth {self.depth}"


class Submission(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        VERIFIED = "verified", "Verified"
        REJECTED = "rejected", "Rejected"

    client_id = models.UUIDField(unique=True)  # the page's idempotency key
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="submissions"
    )
    game = models.OneToOneField(
        IssuedGame, null=True, blank=True, on_delete=models.SET_NULL, related_name="submission"
    )
    code = models.CharField(max_length=CODE_LENGTH, db_index=True)
    rules = models.CharField(max_length=7, choices=RulesChoice.choices)
    ranked = models.BooleanField()  # a server-issued game: may enter global boards
    assisted = models.BooleanField(default=False)  # a hint was used: enters no board
    log = models.TextField()
    move_times_ms = models.JSONField()
    duration_ms = models.PositiveBigIntegerField()
    client_finished_at = models.DateTimeField()  # informational only
    client_version = models.CharField(max_length=64, blank=True)
    body_hash = models.CharField(max_length=64)  # same client_id + other body → 409
    received_at = models.DateTimeField(db_index=True)  # the result's time for periods and ties

    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING, db_index=True)
    won = models.BooleanField(null=True)
    moves = models.PositiveIntegerField(null=True)
    foundation_cards = models.PositiveSmallIntegerField(null=True)
    score = models.PositiveIntegerField(null=True)
    points = models.PositiveIntegerField(null=True)
    reason_code = models.CharField(max_length=32, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    # The reason's figures (move, token, card, times…): the page words the reason from the code
    # and these, in the player's language; `reason` is the English sentence (docs/api.md).
    reason_params = models.JSONField(default=dict, blank=True)
    engine_version = models.CharField(max_length=16, blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    voided = models.BooleanField(default=False)
    # Off the boards while its player's review case says so (games/reviews.py); cleared: back on.
    withheld = models.BooleanField(default=False)
    ranks = models.JSONField(default=dict, blank=True)  # board key → rank reached, stored when settled
    ranks_of = models.JSONField(default=dict, blank=True)  # board key → entries on it then: a percentile

    class Meta:
        indexes = [
            models.Index(fields=["user", "-received_at"]),
            models.Index(fields=["status", "received_at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="pending") | Q(settled_at__isnull=False), name="settled_has_time"
            ),
        ]

    def __str__(self) -> str:
        return f"submission {self.pk} {self.code} ({self.status})"


class SolvedDeal(models.Model):
    """What the solver found for one deal: the best answer known, kept across searches.

    `won` and `unwinnable` are final (a replayed line, a proof); `unknown` records the largest
    time limit tried, so a later search with more time may settle it.
    """

    class Result(models.TextChoices):
        WON = "won", "Won"
        UNWINNABLE = "unwinnable", "Unwinnable"
        UNKNOWN = "unknown", "Unknown"

    rules = models.CharField(max_length=7, choices=RulesChoice.choices)
    code = models.CharField(max_length=CODE_LENGTH, unique=True)
    result = models.CharField(max_length=10, choices=Result.choices)
    par = models.PositiveIntegerField(null=True, blank=True)  # moves of the shortest win found
    solution = models.TextField(blank=True)  # that win's log
    nodes = models.PositiveBigIntegerField(default=0)  # positions of the last search
    seconds = models.FloatField(default=0.0)  # time of the last search
    time_limit = models.FloatField(default=0.0)  # the largest limit a search was given
    shortened = models.BooleanField(default=False)  # a search for a shorter win (par) has run
    # Drawn at random for the pool of winnable deals; deals searched for another reason (a daily
    # deal's candidate, a par) are never handed out as winnable deals.
    pooled = models.BooleanField(default=False)
    solved_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["rules", "pooled", "result"], name="solved_deal_pool")]

    def __str__(self) -> str:
        return f"{self.code}: {self.result}"


class HintUse(models.Model):
    """A hint given to a player on a deal: their results on that code received later are assisted."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hint_uses")
    code = models.CharField(max_length=CODE_LENGTH)
    created_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "code", "created_at"])]

    def __str__(self) -> str:
        return f"hint on {self.code} for user {self.user_id}"


class CensusVerdict(models.Model):
    """One deal's answer in a named census (games/solving/census.py): many workers on many
    machines share the census through a Celery queue, and each deal is written once (unique)."""

    census = models.CharField(max_length=100)
    code = models.CharField(max_length=CODE_LENGTH)
    result = models.CharField(max_length=10, choices=SolvedDeal.Result.choices)
    seconds = models.FloatField()
    nodes = models.PositiveBigIntegerField()
    by = models.CharField(max_length=200, blank=True)  # what decided it (the solver's Solution.by)
    moves = models.PositiveIntegerField(null=True, blank=True)  # the win's length, when won
    settled_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["census", "code"], name="census_verdict_once")]

    def __str__(self) -> str:
        return f"{self.census} {self.code}: {self.result}"


class ReplayFlag(models.Model):
    """A case of the review queue: a result (and its player) held for people to decide, never
    decided by itself. Identical winning logs open one (leaderboard), fair play the others
    (docs/fairplay.md, "The review queue"). Its table keeps the name it had under leaderboard/."""

    class Reason(models.TextChoices):
        IDENTICAL_LOG = "identical_log", "Identical to another player's log on the same deal"
        ANALYSIS = "analysis", "The fair-play analysis of the player's games"
        REPORT = "report", "Reported by a player"
        COLLUSION = "collusion", "Accounts playing together"

    class Level(models.TextChoices):
        NONE = "", "None"
        REPORT = "report", "Report: reviewed, results stay on the boards"
        MARK = "mark", "Mark: results withheld until decided"

    class State(models.TextChoices):
        OPEN = "open", "Open"
        CLEARED = "cleared", "Cleared"
        CONFIRMED = "confirmed", "Confirmed"

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="replay_flags")
    matches = models.ForeignKey(
        Submission,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="The earlier identical result.",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="review_cases"
    )
    reason = models.CharField(max_length=20, choices=Reason.choices, default=Reason.IDENTICAL_LOG)
    level = models.CharField(max_length=8, choices=Level.choices, blank=True, default=Level.NONE)
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    reviewed_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        db_table = "leaderboard_replayflag"
        constraints = [models.UniqueConstraint(fields=["submission", "matches"], name="one_flag_per_pair")]
        ordering = ["-created_at"]
        verbose_name = "review case"
        permissions = [("decide_replayflag", "Can clear, confirm or reopen a review case")]

    def __str__(self) -> str:
        if self.matches_id is not None:
            return f"submission {self.submission_id} matches {self.matches_id}"
        return f"case {self.pk}: {self.reason} ({self.state})"
