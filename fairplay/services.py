"""Which settled results are analysed, and the analysis of one (docs/fairplay.md).

Analysed: every race's or challenge's result, every result that reached a board's top places
(FAIRPLAY_TOP_RANK), and a share of the rest drawn from the operating system's generator
(FAIRPLAY_SAMPLE_ONE_IN), so that no player can tell in advance which game is looked at.
Hidden-card games only: an open deal's cards were known to everyone before it was played.
"""

from __future__ import annotations

import logging
import secrets
import time
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from fairplay.cases import analysis_weigh
from fairplay.features import game_features
from fairplay.models import GameAnalysis
from fairplay.verdicts import BUDGETS, Budget, game_verdicts
from games.engine import IllegalMoveError, InvalidCodeError
from games.models import Submission
from games.reviews import player_results_hold
from games.solver import SolverBug
from games.task_queue import BROKER_ERRORS
from yukon_site.celery import task_named

logger = logging.getLogger(__name__)

GAME_ANALYSE = "fairplay.game_analyse"  # the task's name, which the routes in settings use
SWEEP_AFTER = timedelta(minutes=10)  # a queued analysis this old was never sent, or lost


def analyses_request(*, submission_ids: list[int]) -> list[GameAnalysis]:
    """The settled listener: the analyses these results call for, stored and sent to the worker
    after the commit; those already asked for are not asked again."""
    asked = []
    submissions = Submission.objects.filter(pk__in=submission_ids, game__hidden=True).select_related("game")
    with transaction.atomic():
        # A player a case holds: their new results join the withheld ones (on the boards since the
        # settling's commit, a moment ago).
        for user_id in set(
            Submission.objects.filter(pk__in=submission_ids).values_list("user_id", flat=True)
        ):
            player_results_hold(user_id=user_id)
        for submission in submissions.order_by("pk"):
            reason = _reason(submission)
            if reason is not None and (analysis := _ask(submission, reason)) is not None:
                asked.append(analysis)
    return asked


def analysis_ask(submission: Submission, *, reason: str) -> GameAnalysis | None:
    """A result's analysis for a report or its replay, asked for unless it was already (an
    analysis reads the same log the same way) or the game is no hidden-card game (an open deal's
    cards were known before it was played); inside the caller's transaction, sent after it."""
    if submission.game_id is None or not submission.game.hidden:
        return None
    return _ask(submission, reason)


def _ask(submission: Submission, reason: str) -> GameAnalysis | None:
    analysis, made = GameAnalysis.objects.get_or_create(
        submission=submission, defaults={"reason": reason, "requested_at": timezone.now()}
    )
    if not made:
        return None
    transaction.on_commit(partial(_send, analysis.pk))
    return analysis


def _reason(submission: Submission) -> str | None:
    if submission.game.contest:
        return GameAnalysis.Reason.CONTEST
    if any(rank <= settings.FAIRPLAY_TOP_RANK for rank in submission.ranks.values()):
        return GameAnalysis.Reason.TOP
    if secrets.randbelow(settings.FAIRPLAY_SAMPLE_ONE_IN) == 0:
        return GameAnalysis.Reason.SAMPLE
    return None


def _send(analysis_id: int) -> None:
    try:
        task_named(GAME_ANALYSE).delay(analysis_id)
    except BROKER_ERRORS:
        # The row is stored: the sweeper sends it once the broker is back.
        logger.warning("analysis not sent", extra={"analysis_id": analysis_id}, exc_info=True)


def analyses_sweep(*, now=None) -> int:
    """Send again the analyses queued for longer than SWEEP_AFTER (a send that failed, a message
    lost); how many."""
    now = now or timezone.now()
    stale = GameAnalysis.objects.filter(state=GameAnalysis.State.QUEUED, requested_at__lt=now - SWEEP_AFTER)
    ids = list(stale.values_list("pk", flat=True)[:1000])
    for analysis_id in ids:
        _send(analysis_id)
    return len(ids)


def game_analyse(*, analysis_id: int) -> GameAnalysis | None:
    """Analyse one result, at most once: None when it is not queued (done already, or gone)."""
    analysis = (
        GameAnalysis.objects.select_related("submission")
        .filter(pk=analysis_id, state=GameAnalysis.State.QUEUED)
        .first()
    )
    if analysis is None:
        return None
    submission = analysis.submission
    started = time.process_time()
    tokens = submission.log.split()
    budget = verdict_budget(analysis.reason)
    try:
        features = game_features(submission.code, tokens, submission.move_times_ms).to_dict()
        verdicts = None if budget is None else game_verdicts(submission.code, tokens, budget)
    except (ValueError, InvalidCodeError, IllegalMoveError, SolverBug) as error:  # a bug, kept
        fields = {"state": GameAnalysis.State.FAILED, "failure": str(error)[:300]}
    else:
        if verdicts is not None:
            features.update(verdicts.features())
        fields = {
            "state": GameAnalysis.State.DONE,
            "features": features,
            "verdicts": [] if verdicts is None else [verdict.to_dict() for verdict in verdicts.moves],
        }
    fields.update(cpu_ms=round((time.process_time() - started) * 1000), analysed_at=timezone.now())
    ran = GameAnalysis.objects.filter(pk=analysis.pk, state=GameAnalysis.State.QUEUED).update(**fields)
    analysis.refresh_from_db()
    if ran and analysis.state == GameAnalysis.State.DONE:
        analysis_weigh(analysis=analysis)
    return analysis


def verdict_budget(reason: str = "") -> Budget | None:
    """The solver's budget for the verdicts of a game analysed for `reason`: one asked for on its
    replay, settings.FAIRPLAY_ASKED_VERDICT_BUDGET, any other FAIRPLAY_VERDICT_BUDGET. None: off."""
    asked = reason == GameAnalysis.Reason.ASKED
    name = settings.FAIRPLAY_ASKED_VERDICT_BUDGET if asked else settings.FAIRPLAY_VERDICT_BUDGET
    return None if name == "off" else BUDGETS[name]
