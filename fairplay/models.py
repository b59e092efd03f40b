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
