from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # The services send tasks by name (games/task_queue.py): register them in every process.
        # daily_calendar: its system check (a calendar registered) runs under `manage.py check`.
        from games import daily_calendar, tasks  # noqa: F401
