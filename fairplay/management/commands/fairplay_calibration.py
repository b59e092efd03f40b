"""`manage.py fairplay_calibration`: for each threshold, how many of its cases moderators
confirmed and cleared (docs/fairplay.md, "Calibration"): the labels say whether a threshold
catches what people would catch, and how often it bothers them for nothing."""

from django.conf import settings
from django.core.management.base import BaseCommand

from fairplay.cases import calibration, mark_games


class Command(BaseCommand):
    help = "For each fair-play threshold, the cases moderators confirmed and cleared."

    def handle(self, *args, **options) -> None:
        where = {
            "report": f"a game ≥ {settings.FAIRPLAY_REPORT_SCORE:g}",
            "mark": f"{mark_games()} of the last {settings.FAIRPLAY_SCORE_WINDOW} games ≥ "
            f"{settings.FAIRPLAY_MARK_SCORE:g}",
            "player reports": "a player's report",
        }
        self.stdout.write(
            f"{'threshold':<15}{'at':<32}{'cases':>6}{'confirmed':>10}{'cleared':>8}{'open':>6}"
            "  confirmed of decided"
        )
        for row in calibration():
            decided = row["confirmed"] + row["cleared"]
            share = f"{row['confirmed'] / decided:.0%}" if decided else "—"
            self.stdout.write(
                f"{row['threshold']:<15}{where[row['threshold']]:<32}{row['cases']:>6}{row['confirmed']:>10}"
                f"{row['cleared']:>8}{row['open']:>6}  {share}"
            )
