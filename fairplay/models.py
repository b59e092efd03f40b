"""A ranked result's fair-play analysis (docs/fairplay.md): asked for when the result settles or
is reported, run by a worker of its own, at most once; and players' reports of results."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class GameAnalysis(models.Model):
    class Reason(models.TextChoices):
        TOP = "top", "Reached a board's top places"
        CONTEST = "contest", "A race's or a challenge's result"
        SAMPLE = "sample", "Drawn at random"
        REPORTED = "reported", "Reported by a player"
        ASKED = "asked", "Asked for on its replay"

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    submission = models.OneToOneField("games.Submission", on_delete=models.CASCADE, related_name="analysis")
    reason = models.CharField(max_length=8, choices=Reason.choices)
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED, db_index=True)
    # fairplay.features.GameFeatures.to_dict() and fairplay.verdicts.GameVerdicts.features()
    features = models.JSONField(default=dict, blank=True)
    # One verdict a token of the log (MoveVerdict.to_dict()), for a chart of the game; [] when not searched.
    verdicts = models.JSONField(default=list, blank=True)
    failure = models.CharField(max_length=300, blank=True)
    cpu_ms = models.PositiveIntegerField(null=True, blank=True)  # the analysis's own CPU time
    # fairplay.scoring.game_score of the features: null until done (or failed).
    score = models.FloatField(null=True, blank=True)
    # The review case this game is evidence in (games.reviews): set when its score reached a threshold.
    case = models.ForeignKey(
        "games.ReplayFlag", null=True, blank=True, on_delete=models.SET_NULL, related_name="analyses"
    )
    requested_at = models.DateTimeField()
    analysed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "game analyses"
        indexes = [models.Index(fields=["state", "requested_at"])]

    def __str__(self) -> str:
        return f"analysis of result {self.submission_id} ({self.state})"


class ResultReport(models.Model):
    """A player's report of someone else's result (POST /api/replays/<id>/reports/): one a player
    a result. It asks for the result's analysis; people decide, never the report alone."""

    class Reason(models.TextChoices):
        PROGRAM = "program", "Played by a program"
        TWO_ACCOUNTS = "two_accounts", "Two accounts of one person"
        OTHER = "other", "Something else"

    submission = models.ForeignKey("games.Submission", on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    note = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["submission", "reporter"], name="one_report_a_player_a_result")
        ]

    def __str__(self) -> str:
        return f"report of result {self.submission_id} ({self.reason})"


class PlayerScore(models.Model):
    """A player's running score (fairplay.cases.player_score_update): over their last
    FAIRPLAY_SCORE_WINDOW analysed games, less those a moderator cleared."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fairplay_score"
    )
    games = models.PositiveIntegerField(default=0)  # analysed games in the window
    running = models.FloatField(default=0.0)  # their mean score
    strong = models.PositiveIntegerField(default=0)  # of them, games at or above FAIRPLAY_MARK_SCORE
    luck = models.FloatField(default=0.0)  # the sum of their luck (log10 odds; docs/fairplay.md, "Luck")
    updated_at = models.DateTimeField()

    def __str__(self) -> str:
        strong = f"{self.strong} strong, luck {self.luck:.1f}"
        return f"user {self.user_id}: {self.running:.1f} over {self.games} ({strong})"


class CaseDecision(models.Model):
    """One decision on a review case, who took it and why: the labels the thresholds are measured
    against (`manage.py fairplay_calibration`)."""

    class Action(models.TextChoices):
        CLEAR = "clear", "Cleared: the results stay"
        CONFIRM = "confirm", "Confirmed: the player's ranked results leave the boards"
        APPEAL = "appeal", "Appealed by the player: reopened"

    case = models.ForeignKey("games.ReplayFlag", on_delete=models.CASCADE, related_name="decisions")
    action = models.CharField(max_length=8, choices=Action.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="case_decisions"
    )
    why = models.CharField(max_length=500)
    level = models.CharField(max_length=8, blank=True)  # the case's level when decided
    decided_at = models.DateTimeField()

    class Meta:
        ordering = ["decided_at", "pk"]

    def __str__(self) -> str:
        return f"case {self.case_id}: {self.action}"
