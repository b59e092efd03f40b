# Load the Celery app with Django, so that `shared_task` tasks bind to it.
from .celery import app as celery_app

__all__ = ("celery_app",)
