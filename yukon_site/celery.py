"""The Celery app: `celery -A yukon_site worker` / `beat`. Configured from Django settings (CELERY_*)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")

app = Celery("yukon_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds `tasks.py` in every installed app.
app.autodiscover_tasks()
