"""Celery tasks of the fair-play analysis: on the `fairplay` queue (CELERY_TASK_ROUTES), a worker
of its own at a low CPU priority, giving way to intake and verification."""

from celery import shared_task

from fairplay.services import GAME_ANALYSE, analyses_sweep, game_analyse
from games.task_queue import RETRY


@shared_task(name=GAME_ANALYSE, **RETRY)
def game_analyse_task(analysis_id: int) -> str | None:
    analysis = game_analyse(analysis_id=analysis_id)
    return None if analysis is None else analysis.state


@shared_task(name="fairplay.analyses_sweep", **RETRY)
def analyses_sweep_task() -> int:
    return analyses_sweep()
