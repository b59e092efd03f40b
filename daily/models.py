"""The daily deal: one deal a UTC day and rule set, the same for everyone, picked once, then kept."""

from __future__ import annotations

from django.db import models

from games.models import CODE_LENGTH


class DailyDeal(models.Model):
    """The deal everyone plays on one UTC day under one rule set; picked once, then kept."""

    date = models.DateField()
    rules = models.CharField(max_length=7)
    code = models.CharField(max_length=CODE_LENGTH, db_index=True)
    picked_at = models.DateTimeField(auto_now_add=True)
    attempt = models.PositiveSmallIntegerField(default=0)  # candidates refused by the filter before it

    class Meta:
        db_table = "leaderboard_dailydeal"  # moved from leaderboard/ with its rows: the table stays
        constraints = [models.UniqueConstraint(fields=["date", "rules"], name="one_daily_deal_per_rules")]
        ordering = ["-date", "rules"]

    def __str__(self) -> str:
        return f"{self.date} {self.rules}: {self.code}"
