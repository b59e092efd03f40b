from celery import shared_task

from races.services import races_tick_running


@shared_task(name="races.races_tick")
def races_tick() -> int:
    """Move on the races nobody's socket ticks: time limits, players away, places."""
    return races_tick_running()
