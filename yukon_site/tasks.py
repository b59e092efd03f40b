"""Site-wide tasks that belong to no app."""

from celery import shared_task
from django.db import connection


@shared_task(name="yukon_site.ping")
def ping() -> dict:
    """Answer from the worker with the database it uses: proves broker, worker and database work."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return {"pong": True, "database": str(connection.settings_dict["NAME"])}
