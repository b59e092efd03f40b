from django.apps import AppConfig


class FairplayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "fairplay"
    verbose_name = "Fair play"

    def ready(self) -> None:
        # The analysis listens to settled results (games/results.py); games never imports it.
        from fairplay import services, tasks  # noqa: F401  (tasks: sent by name)
        from games import results

        results.settled_listener_register(services.analyses_request)
