"""`python manage.py reverify [--since DATE] [--status verified,rejected] [--reason CODE,…]`:
judge results again.

Replays every selected submission with the current engine and settings, stores the new
verdicts, rebuilds the boards of players whose verdict changed (a result that counts now gets
its places), and lists the changes. Running it again changes nothing more.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime, time

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from games.models import Submission
from games.submissions.settle import submission_reverify

STATUSES = {choice.value for choice in Submission.Status}


def parse_since(text: str) -> datetime:
    moment = parse_datetime(text)
    if moment is None and (day := parse_date(text)) is not None:
        moment = datetime.combine(day, time.min)
    if moment is None:
        raise CommandError(f"--since {text!r}: expected a date (2026-11-01) or a date and time")
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment, UTC)


class Command(BaseCommand):
    help = "Re-run the verification of stored submissions; report and apply changed verdicts."

    def add_arguments(self, parser):
        parser.add_argument("--since", help="only submissions received since this date (UTC)")
        parser.add_argument(
            "--status",
            default="verified,rejected",
            help="comma-separated statuses to re-verify (default: verified,rejected; pending settles them)",
        )
        parser.add_argument(
            "--reason",
            help="comma-separated reason codes: only rejected results refused for one of them "
            "(e.g. timing_move)",
        )
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(
        self, *args, since=None, status="verified,rejected", reason=None, no_progress=False, **options
    ):
        statuses = {part.strip() for part in status.split(",") if part.strip()}
        if unknown := statuses - STATUSES:
            raise CommandError(
                f"unknown status {', '.join(sorted(unknown))}: use {', '.join(sorted(STATUSES))}"
            )
        submissions = Submission.objects.filter(status__in=statuses).select_related("game").order_by("pk")
        if since:
            submissions = submissions.filter(received_at__gte=parse_since(since))
        if reason:
            submissions = submissions.filter(reason_code__in=[part.strip() for part in reason.split(",")])
        total = submissions.count()
        progress = None if no_progress else Progress(total, stream=sys.stderr)
        changes = []
        for done, submission in enumerate(submissions.iterator(chunk_size=500), start=1):
            result = submission_reverify(submission=submission)
            if result.changed:
                changes.append(result)
            if progress:
                progress.update(done)
        if progress:
            progress.close()
        for change in changes:
            self.stdout.write(
                f"submission {change.submission_id}: {describe(change.before)} -> {describe(change.after)}"
            )
        self.stdout.write(f"re-verified {total} submission(s); {len(changes)} verdict(s) changed")


def describe(verdict: dict) -> str:
    parts = [verdict.get("status", "?")]
    if verdict.get("reason_code"):
        parts.append(verdict["reason_code"])
    if verdict.get("won"):
        parts.append(f"won, score {verdict.get('score')}")
    return " ".join(parts)


class Progress:
    """A one-line text progress bar, redrawn in place on a terminal, every 10% otherwise."""

    WIDTH = 30

    def __init__(self, total: int, *, stream) -> None:
        self.total, self.stream = total, stream
        self.interactive = getattr(stream, "isatty", lambda: False)()
        self.last_tenth = -1

    def update(self, done: int) -> None:
        fraction = done / self.total if self.total else 1
        if self.interactive:
            filled = int(fraction * self.WIDTH)
            self.stream.write(f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{self.total}")
            self.stream.flush()
        elif (tenth := int(fraction * 10)) != self.last_tenth:
            self.last_tenth = tenth
            self.stream.write(f"{done}/{self.total} ({tenth * 10}%)\n")

    def close(self) -> None:
        if self.interactive:
            self.stream.write("\n")
