from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboard"
    verbose_name = "Leaderboard"

    def ready(self) -> None:
        # The boards listen to games' settled results (games/results.py); games never imports them.
        from games import results
        from leaderboard import services

        results.places_recorder_register(services.results_record)
        results.player_listener_register(services.player_entries_rebuild)
