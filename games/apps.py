from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # The services send tasks by name (games/task_queue.py): register them in every process.
        from games import tasks  # noqa: F401
