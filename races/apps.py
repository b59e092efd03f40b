from django.apps import AppConfig


class RacesConfig(AppConfig):
    name = "races"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A seat's result stored or settled moves its race on (games/results.py).
        from games import results
        from races import services

        results.contest_listener_register(services.contest_results_changed)
