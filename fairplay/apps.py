from django.apps import AppConfig


class FairplayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "fairplay"
    verbose_name = "Fair play"

    def ready(self) -> None:
        # The analysis and the collusion checks listen to settled results (games/results.py);
        # games never imports them.
        from fairplay import collusion, services, tasks  # noqa: F401  (tasks: sent by name)
        from games import results

        results.settled_listener_register(services.analyses_request)
        results.settled_listener_register(collusion.collusion_check)
