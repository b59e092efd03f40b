"""The Celery app: `celery -A yukon_site worker` / `beat`. Configured from Django settings (CELERY_*)."""

import os

from celery import Celery, Task
from celery.signals import celeryd_after_setup

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")

app = Celery("yukon_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds `tasks.py` in every installed app.
app.autodiscover_tasks()


def task_named(name: str) -> Task:
    """The registered task `name`, for a service that sends a task without importing its tasks
    module back (docs/architecture.md); the app's AppConfig.ready() imports that module. A
    KeyError if it never was."""
    return app.tasks[name]


@celeryd_after_setup.connect
def solver_worker_yields(sender, instance, **kwargs) -> None:
    """A worker that consumes only the solver's queues (solver, hints) or fair play's runs at a low
    CPU priority, set before it starts its pool so every pool process inherits it. Searches use
    what the web, intake and verification leave, and give the cores back as soon as those need
    them (docs/operations.md)."""
    from django.conf import settings

    queues = {queue.name for queue in instance.app.amqp.queues.consume_from.values()}
    niceness = settings.SOLVER_WORKER_NICENESS
    low = {settings.SOLVER_QUEUE, settings.HINT_QUEUE, settings.FAIRPLAY_QUEUE}
    if queues and queues <= low and niceness:
        os.setpriority(os.PRIO_PROCESS, 0, max(os.getpriority(os.PRIO_PROCESS, 0), niceness))
