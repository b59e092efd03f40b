"""Players' reports of results (docs/fairplay.md, "Reports"): a signed-in player reports a result
they can watch (a replay), never their own, once; the report asks for its analysis and puts the
result in the review queue (a case of reason "report"). A report decides nothing by itself."""

from __future__ import annotations

import datetime as dt

from django.db import IntegrityError, transaction
from django.utils import timezone

from fairplay.models import GameAnalysis, ResultReport
from fairplay.services import analysis_ask
from games.models import ReplayFlag
from games.replays.selectors import ReplayHidden, replay_get
from games.reviews import case_open
from yukon_site.api_errors import ApplicationError


class ReportRefused(ApplicationError):
    """A refusal of a report."""


class ResultNotReportable(ReportRefused):
    status, code = 404, "result_not_found"


class OwnResult(ReportRefused):
    status, code = 403, "own_result"


class AlreadyReported(ReportRefused):
    status, code = 409, "already_reported"


def result_report(
    *, user, submission_id: int, reason: str, note: str = "", now: dt.datetime | None = None
) -> ResultReport:
    """Store `user`'s report of a result and ask for its analysis. The result must be one the
    player may watch: any other answers as a result that does not exist, so that a report tells
    no more than the replay does."""
    now = now or timezone.now()
    try:
        submission = replay_get(submission_id=submission_id, viewer_id=user.pk, now=now)
    except ReplayHidden:
        submission = None
    if submission is None:
        raise ResultNotReportable("No result to report here: only a result you can watch can be reported.")
    if submission.user_id == user.pk:
        raise OwnResult("You cannot report your own result.")
    try:
        with transaction.atomic():
            report = ResultReport.objects.create(
                submission=submission, reporter=user, reason=reason, note=note.strip(), created_at=now
            )
            analysis_ask(submission, reason=GameAnalysis.Reason.REPORTED)
            case = case_open(submission=submission, reason=ReplayFlag.Reason.REPORT)
            GameAnalysis.objects.filter(submission=submission, case__isnull=True).update(case=case)
    except IntegrityError:
        raise AlreadyReported("You have reported this result already.") from None
    return report
